import { sqlLiteral } from "./sql.ts";

// Plugin keys for the seeded servers, FOR LOCAL USE ONLY: server N's key is `local-dev-key-N`
// (plugins/oxide/README.md). Only the SHA-256 is stored, as for real keys; a test checks
// these hashes. Real servers get random keys from `npm run servers -- add|rotate-key`.
export const LOCAL_DEV_KEY_HASHES: Record<number, string> = {
  1: "f4a371ea0895b3bd1900a2e5d614e8340681bef5e60d79885779d5291a9de065",
  2: "fd59e0dec717d80efa98dd444cbbc497b02fa7d21964799de445586a9bd3dbe6",
  3: "c218e938b529e9f41becfea3e2d578de3f9db79489e3d308bc2233fa1861a6d5",
  4: "00f7325b0d68e26fcf2536c73e8a6a9c71718192bce4e86d30a1d1521c24b09c",
  5: "2c25482bbf4c0413b8c21e54c33248cc08da76e4263188b751facd783e239e31",
};

export function localDevKey(serverId: number): string {
  return `local-dev-key-${serverId}`;
}

/** Runs after the servers' seed (which replaces whole rows), so the keys survive re-seeding. */
export function serverKeysSeedSql(): string[] {
  return Object.entries(LOCAL_DEV_KEY_HASHES).map(
    ([id, hash]) => `UPDATE servers SET key_hash = ${sqlLiteral(hash)} WHERE id = ${Number(id)} AND key_hash IS NULL;`,
  );
}
