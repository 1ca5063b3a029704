// GAME_KEY_SECRET as the site that owns a database sees it (decision 103), for the scripts that
// print plugin keys (`npm run servers`, `npm run db:seed:local`): the environment first (the
// libSQL path has already read .env into it); for the local D1, .dev.vars, then wrangler.jsonc's
// local value. The remote D1's secret lives in Cloudflare, so --remote needs it in the environment.
import { existsSync, readFileSync } from "node:fs";
import { LOCAL_GAME_KEY_SECRET } from "../worker/config.ts";

export function gameKeySecret(target: { remote?: boolean; libsql?: boolean }): string {
  const fromEnv = process.env.GAME_KEY_SECRET;
  if (fromEnv) return fromEnv;
  if (target.remote) {
    console.error(
      "GAME_KEY_SECRET is not set: for --remote, export the Worker's secret (the one given to `wrangler secret put GAME_KEY_SECRET`).",
    );
    process.exit(1);
  }
  if (!target.libsql && existsSync(".dev.vars")) {
    const line = /^\s*GAME_KEY_SECRET\s*=\s*(.+?)\s*$/m.exec(readFileSync(".dev.vars", "utf8"));
    const value = line?.[1]?.replace(/^"(.*)"$/, "$1");
    if (value) return value;
  }
  // wrangler.jsonc's local value. Off this machine the site refuses it, so a key derived from it
  // can only work locally; on libSQL that is worth a word (the owner's .env may lack the secret).
  if (target.libsql) console.warn("GAME_KEY_SECRET is not set: keys are derived with the local development secret.");
  return LOCAL_GAME_KEY_SECRET;
}
