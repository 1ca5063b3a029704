import { catalogSeedSql } from "./catalog.ts";
import { playersSeedSql } from "./players.ts";
import { promosSeedSql } from "./promos.ts";
import { serversSeedSql } from "./servers.ts";

/** Every seed statement, in dependency order. */
export function seedStatements(): string[] {
  return [...serversSeedSql(), ...catalogSeedSql(), ...playersSeedSql(), ...promosSeedSql()];
}
