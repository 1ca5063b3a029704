// Local operators: the demo player runs the operator console at /admin.
import { sqlLiteral } from "./sql.ts";

export const seedOperators = [{ steamId: "76561198000000001", role: "admin" }] as const;

/** The seed's admin: who runs the console in local use and in the browser tests. */
export const seedAdminSteamId = seedOperators[0].steamId;

export function operatorsSeedSql(): string[] {
  return seedOperators.map(
    (operator) =>
      `INSERT INTO operators (steam_id, role) VALUES (${sqlLiteral(operator.steamId)}, ${sqlLiteral(operator.role)}) ON CONFLICT(steam_id) DO NOTHING;`,
  );
}
