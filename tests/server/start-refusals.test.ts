// The built Node server refuses to start broken: each reason is one `Cannot start: …` line that
// says what to do, and the exit code is 1 — no stack trace, and no site that looks up while every
// page or write fails. Needs `npm run build:node` first (npm run test:server does it).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { freePort, localSiteEnv, refusedStart } from "../e2e/node-site.ts";

const root = resolve(import.meta.dirname, "../..");
const migrations = JSON.parse(readFileSync(join(root, "migrations/meta/_journal.json"), "utf8")) as {
  entries: unknown[];
};

/** Root can write anything, so the permission cases run the server as `nobody`; anyone else runs as themselves. */
const asRoot = process.getuid?.() === 0;
const OTHER_USER = { uid: 65534, gid: 65534, name: "nobody" };

function folder(): string {
  const path = mkdtempSync(join(tmpdir(), "site-refusal-"));
  chmodSync(path, 0o755);
  return path;
}

/** Exit 1, and every line printed is a `Cannot start:` line (no stack trace, no log noise). */
function assertRefused(result: { code: number | null; lines: string[] }, ...expected: RegExp[]) {
  assert.equal(result.code, 1, result.lines.join("\n"));
  for (const line of result.lines) assert.match(line, /^Cannot start: /, result.lines.join("\n"));
  assert.equal(result.lines.length, expected.length, result.lines.join("\n"));
  expected.forEach((pattern, index) => {
    assert.match(result.lines[index] ?? "", pattern);
  });
}

async function localEnv(databaseUrl = "file:data/site.db"): Promise<NodeJS.ProcessEnv> {
  return { ...localSiteEnv(await freePort(), databaseUrl), MIGRATE_ON_START: "1" };
}

describe("the built server refuses to start", () => {
  it("with migrations pending, naming how many and both fixes", async () => {
    const env = await localEnv();
    delete env.MIGRATE_ON_START;
    const result = await refusedStart(env, folder());
    assertRefused(
      result,
      new RegExp(
        `^Cannot start: the database \\(file:data/site\\.db\\) lacks ${migrations.entries.length} migrations of this version: ` +
          "run `npm run db:migrate`.*or set MIGRATE_ON_START=1",
      ),
    );
  });

  it("with a database file its user can't write, saying whose it is and what to run", async () => {
    const site = folder();
    mkdirSync(join(site, "data"));
    // Migrated by one user (root here), run by another: the README's order before it said to chown.
    execFileSync(process.execPath, [join(root, "scripts/migrate.ts")], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: `file:${join(site, "data/site.db")}` },
      stdio: "ignore",
    });
    const env = await localEnv();
    if (asRoot) {
      chownSync(join(site, "data"), OTHER_USER.uid, OTHER_USER.gid);
      const result = await refusedStart(env, site, OTHER_USER);
      assertRefused(
        result,
        /^Cannot start: DATABASE_URL: the database file data\/site\.db can't be written by user nobody \(it belongs to root, mode 644\); give it to user nobody: sudo chown -R nobody .*\/data$/,
      );
      // The site is another user's (its folder and data/ are daemon's): run it as that user, rather than
      // giving the site's data to whoever started it (issue 45).
      chownSync(site, 1, 1);
      chownSync(join(site, "data"), 1, 1);
      assertRefused(
        await refusedStart(env, site, OTHER_USER),
        /^Cannot start: DATABASE_URL: the folder .*\/data can't be written by user nobody \(it belongs to daemon, mode 755\); run it as daemon, the site's user: sudo -u daemon …$/,
      );
    } else {
      chmodSync(join(site, "data/site.db"), 0o444);
      const result = await refusedStart(env, site);
      assertRefused(result, /^Cannot start: DATABASE_URL: the database file data\/site\.db can't be written by user /);
    }
  });

  it("with a database file its own user made read-only, saying chmod, not chown", async () => {
    const site = folder();
    mkdirSync(join(site, "data"));
    execFileSync(process.execPath, [join(root, "scripts/migrate.ts")], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: `file:${join(site, "data/site.db")}` },
      stdio: "ignore",
    });
    if (asRoot) {
      for (const path of ["data", "data/site.db"]) chownSync(join(site, path), OTHER_USER.uid, OTHER_USER.gid);
    }
    chmodSync(join(site, "data/site.db"), 0o444);
    const result = await refusedStart(await localEnv(), site, asRoot ? OTHER_USER : undefined);
    assertRefused(
      result,
      /^Cannot start: DATABASE_URL: the database file data\/site\.db can't be written by user \S+ \(it belongs to \S+, mode 444\); let its owner write it: chmod u\+rw data\/site\.db$/,
    );
  });

  it("with a write-ahead log it can't write, naming that file and the fix", async () => {
    const site = folder();
    mkdirSync(join(site, "data"));
    execFileSync(process.execPath, [join(root, "scripts/migrate.ts")], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: `file:${join(site, "data/site.db")}` },
      stdio: "ignore",
    });
    // As a backup or a hand-run sqlite3 as root leaves it: the log is root's, the database the site's.
    writeFileSync(join(site, "data/site.db-wal"), "");
    if (asRoot) {
      for (const path of ["data", "data/site.db"]) chownSync(join(site, path), OTHER_USER.uid, OTHER_USER.gid);
      assertRefused(
        await refusedStart(await localEnv(), site, OTHER_USER),
        /^Cannot start: DATABASE_URL: the database file data\/site\.db-wal can't be written by user nobody \(it belongs to root, mode 644\); give it to user nobody: sudo chown -R nobody .*\/data$/,
      );
    } else {
      chmodSync(join(site, "data/site.db-wal"), 0o444);
      assertRefused(
        await refusedStart(await localEnv(), site),
        /^Cannot start: DATABASE_URL: the database file data\/site\.db-wal can't be written by user \S+ \(it belongs to \S+, mode 444\); let its owner write it: chmod u\+rw data\/site\.db-wal$/,
      );
    }
  });

  it("in a folder its user can't write, where the database would be created", async () => {
    const site = folder();
    const env = await localEnv();
    if (asRoot) {
      const result = await refusedStart(env, site, OTHER_USER);
      assertRefused(
        result,
        /^Cannot start: DATABASE_URL: can't create the folder .*\/data for file:data\/site\.db as user nobody \(EACCES\); create it and give it to the site's user: sudo mkdir -p .*\/data && sudo chown nobody .*\/data$/,
      );
      // The site's folder is another user's (the site's user, here daemon): data/ is made for that
      // user, not for whoever ran the start (issue 45).
      chownSync(site, 1, 1);
      assertRefused(
        await refusedStart(env, site, OTHER_USER),
        /^Cannot start: DATABASE_URL: can't create the folder .*\/data for file:data\/site\.db as user nobody \(EACCES\); create it and give it to the site's user: sudo mkdir -p .*\/data && sudo chown daemon .*\/data$/,
      );
    } else {
      chmodSync(site, 0o555);
      const result = await refusedStart(env, site);
      assertRefused(result, /^Cannot start: DATABASE_URL: can't create the folder .*\/data .*\(EACCES\)/);
    }
  });

  it("when the libSQL server doesn't answer", async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const result = await refusedStart(await localEnv(url), folder());
    assertRefused(
      result,
      new RegExp(
        `^Cannot start: DATABASE_URL: can't reach the libSQL server at ${url} \\(ECONNREFUSED\\); start it, or check the address and DATABASE_AUTH_TOKEN$`,
      ),
    );
  });

  it("with PAYMENT_PROVIDER=yookassa but no shop id and key", async () => {
    const env = { ...(await localEnv()), PAYMENT_PROVIDER: "yookassa", YOOKASSA_SHOP_ID: "", YOOKASSA_SECRET_KEY: "" };
    const result = await refusedStart(env, folder());
    assertRefused(
      result,
      /^Cannot start: YOOKASSA_SHOP_ID, YOOKASSA_SECRET_KEY: not set; PAYMENT_PROVIDER=yookassa needs the shop id and the secret key/,
    );
  });

  it("with .env.example copied as it is: the example secrets, no Steam key, no YooKassa keys", async () => {
    const site = folder();
    writeFileSync(join(site, ".env"), readFileSync(join(root, ".env.example")));
    const result = await refusedStart({ PATH: process.env.PATH }, site);
    assertRefused(
      result,
      /^Cannot start: SESSION_SECRET: still the example value from \.env\.example; set your own/,
      /^Cannot start: GAME_KEY_SECRET: still the example value from \.env\.example; set your own/,
      /^Cannot start: STEAM_API_KEY: not set; production needs a Steam Web API key/,
      /^Cannot start: YOOKASSA_SHOP_ID, YOOKASSA_SECRET_KEY: not set/,
    );
  });

  it("in production without STEAM_API_KEY, even with everything else set", async () => {
    const env = {
      PATH: process.env.PATH,
      APP_ENV: "production",
      PUBLIC_URL: "https://rust.example",
      SESSION_SECRET: "a-real-secret-of-more-than-32-characters-0123",
      GAME_KEY_SECRET: "a-real-game-key-secret-of-more-than-32-characters",
      PAYMENT_PROVIDER: "yookassa",
      YOOKASSA_SHOP_ID: "123456",
      YOOKASSA_SECRET_KEY: "live_secret",
      MIGRATE_ON_START: "1",
      PORT: String(await freePort()),
    };
    assertRefused(await refusedStart(env, folder()), /^Cannot start: STEAM_API_KEY: not set/);
  });

  it("when its port is taken", async () => {
    const env = await localEnv();
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(Number(env.PORT), "127.0.0.1", done));
    try {
      const result = await refusedStart(env, folder());
      assertRefused(
        result,
        new RegExp(
          `^Cannot start: PORT: 127\\.0\\.0\\.1:${env.PORT} is already in use .*; stop it or choose another PORT$`,
        ),
      );
    } finally {
      await new Promise((done) => taken.close(done));
    }
  });
});
