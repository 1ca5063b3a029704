// Two built Node servers over one database file, as an owner runs them behind one proxy: each runs
// the minutely jobs at start and on every tick, but the lease row lets one of them run a minute's.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { freePort, localSiteEnv, type NodeServer, serveNodeSite } from "../e2e/node-site.ts";

const count = (text: string, event: string) => text.split(`"event":"${event}"`).length - 1;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe("two Node servers on one database", () => {
  const servers: NodeServer[] = [];
  after(() => {
    for (const server of servers) if (server.process.exitCode === null) server.process.kill("SIGKILL");
  });

  it("run a minute's jobs once between them, not once each", async () => {
    const databaseUrl = `file:${join(mkdtempSync(join(tmpdir(), "site-two-")), "site.db")}`;
    // Both starts must fall in one minute, or each would rightly run its own minute's jobs.
    const second = new Date().getSeconds();
    if (second > 40) await sleep((61 - second) * 1000);
    for (const migrate of ["1", "0"]) {
      const port = await freePort();
      servers.push(await serveNodeSite({ ...localSiteEnv(port, databaseUrl), MIGRATE_ON_START: migrate }));
    }
    const output = () => servers.map((server) => server.output()).join("\n");
    // One ran the minute; the other had its chance and says it left the minute to the holder (it may
    // first wait out the holder's lease, up to LEASE_MS, worker/cron/lease.ts).
    for (
      let attempt = 0;
      attempt < 200 &&
      (count(output(), "game_deliveries_maintained") === 0 || count(output(), "cron_minute_run_elsewhere") === 0);
      attempt++
    ) {
      await sleep(250);
    }
    assert.equal(count(output(), "cron_minute_run_elsewhere"), 1, output());
    // A clean stop (SIGTERM) waits for every run a server began: once both have closed, nothing is left to print.
    for (const server of servers) {
      const closed = new Promise((done) => server.process.once("close", done));
      server.process.kill("SIGTERM");
      await closed;
    }
    assert.equal(count(output(), "server_status_refreshed"), 1, output());
    assert.equal(count(output(), "game_deliveries_maintained"), 1, output());
  });
});
