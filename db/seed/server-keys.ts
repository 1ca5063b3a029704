import { seedServers } from "./servers.ts";
import { sqlLiteral } from "./sql.ts";

// Plugin keys for the seeded servers, FOR LOCAL USE ONLY (decision 103). The database keeps a
// salt per server; the key is derived from GAME_KEY_SECRET (wrangler.jsonc's local value unless
// .dev.vars or the environment says otherwise), the id and the salt, so `npm run db:seed:local`
// prints the keys and tests derive them with `deriveServerKey` (worker/services/game/keys.ts).
// Real servers get a random salt from `npm run servers -- add|rotate-key` or the console.
export function localDevKeySalt(serverId: number): string {
  return `local-dev-salt-${serverId}`;
}

/** Runs after the servers' seed (which replaces whole rows, keys included), so re-seeding gives the same dev keys. */
export function serverKeysSeedSql(): string[] {
  return seedServers.map(
    ({ id }) =>
      `UPDATE servers SET key_salt = ${sqlLiteral(localDevKeySalt(id))} WHERE id = ${id} AND key_salt IS NULL AND key_hash IS NULL;`,
  );
}
