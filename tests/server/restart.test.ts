// A restart under load, as systemd does it: SIGTERM to the running server while players buy over
// kept-alive connections, then a new server on the same port. No request is cut: each one sent is
// answered (the ones during the drain with `Connection: close`, so the client's next request opens
// a new connection), or was never accepted (the port closed between the two servers). Needs
// `npm run build:node` first (npm run test:server does it).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { seedItemId } from "#db/seed/catalog.ts";
import { freePort, localSiteEnv, type NodeServer, serveNodeSite } from "../e2e/node-site.ts";
import { root, rows } from "./owner-site.ts";
import { signInThroughStandIn } from "./sign-in.ts";

const BUYER = "76561198000000009";
const ITEM = seedItemId("SOLO", 6);

interface Outcome {
  status?: number;
  connection?: string;
  /** The request never reached a server: nobody listened on the port. */
  refused?: boolean;
  /** The request was sent and got no answer. */
  cut?: string;
}

function buy(port: number, agent: Agent, cookie: string): Promise<Outcome> {
  return new Promise((done) => {
    const body = JSON.stringify({ server_type: "SOLO" });
    const sent = request(
      {
        host: "127.0.0.1",
        port,
        agent,
        method: "POST",
        path: `/api/purchase/items/${ITEM}`,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), cookie },
      },
      (response) => {
        response.resume();
        response.on("end", () => done({ status: response.statusCode, connection: response.headers.connection }));
        response.on("error", (error) => done({ cut: String(error) }));
      },
    );
    sent.on("error", (error: NodeJS.ErrnoException) =>
      done(error.code === "ECONNREFUSED" ? { refused: true } : { cut: `${error.code ?? ""} ${error.message}` }),
    );
    sent.end(body);
  });
}

describe("a restart under load with kept-alive clients", () => {
  const servers: NodeServer[] = [];
  after(() => {
    for (const server of servers) if (server.process.exitCode === null) server.process.kill("SIGKILL");
  });

  it("cuts no request: each is answered or never accepted, and the purchases answered are the purchases made", async () => {
    const folder = mkdtempSync(join(tmpdir(), "site-restart-"));
    const databaseUrl = `file:${join(folder, "site.db")}`;
    execFileSync(process.execPath, [join(root, "scripts/seed-local.ts"), "--libsql"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: "ignore",
    });
    const port = await freePort();
    const env = localSiteEnv(port, databaseUrl);
    const first = await serveNodeSite(env);
    servers.push(first);
    const cookie = await signInThroughStandIn(`http://127.0.0.1:${port}`, BUYER);

    const outcomes: Outcome[] = [];
    let phase: "before" | "draining" | "after" = "before";
    let answeredAfterRestart = 0;
    const client = async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      let mine = 0;
      while (phase !== "after" || mine < 3) {
        const outcome = await buy(port, agent, cookie);
        outcomes.push(outcome);
        if (outcome.refused) await new Promise((done) => setTimeout(done, 50));
        else if (phase === "after" && outcome.status !== undefined) {
          mine++;
          answeredAfterRestart++;
        }
      }
      agent.destroy();
    };
    const clients = [client(), client(), client(), client()];

    while (outcomes.filter((outcome) => outcome.status === 201).length < 40) {
      await new Promise((done) => setTimeout(done, 20));
    }
    phase = "draining";
    first.process.kill("SIGTERM");
    await new Promise((done) => first.process.once("exit", done));
    assert.equal(first.process.exitCode, 0, first.output());
    servers.push(await serveNodeSite(env));
    phase = "after";
    await Promise.all(clients);

    assert.deepEqual(
      outcomes.filter((outcome) => outcome.cut),
      [],
      "no request was cut",
    );
    const answered = outcomes.filter((outcome) => outcome.status !== undefined);
    assert.deepEqual(
      answered.filter((outcome) => outcome.status !== 201),
      [],
    );
    assert.ok(answeredAfterRestart >= 12);
    assert.ok(
      answered.some((outcome) => outcome.connection === "close"),
      "the answers during the drain told the clients to close",
    );
    const [[purchases]] = (await rows(join(folder, "site.db"), "SELECT count(*) FROM purchases")) as [[number]];
    assert.equal(purchases, answered.length);
  });
});
