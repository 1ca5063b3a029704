// An upgrade and a rollback refuse no player (decision 137): behind the README's Caddyfile, with the
// port held by a stand-in for the README's rust-site.socket (socket-holder.ts), players load a page,
// then the styles that page links, and buy, over kept-alive connections, while the README's Upgrading
// lines run, then its rollback lines. `npm run build:node` builds beside the running version and
// switches at the end; the backup and the migrations run while the old version serves; at the restart
// the connections wait in the socket's queue for the new process. Every page, stylesheet and purchase
// is answered. The code stands still (git and npm ci lines change nothing here; rollback.test.ts walks
// two versions): what is measured is the site's availability. Prints the longest wait by the line
// running, the README's figure.
import assert from "node:assert/strict";
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { Agent, request } from "node:https";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { promisify } from "node:util";
import { seedItemId } from "#db/seed/catalog.ts";
import { freePort, localSiteEnv } from "../e2e/node-site.ts";
import { type Caddy, startCaddy } from "./caddy.ts";
import { readmeShellBlocks, root, rows, run, siteFolder } from "./owner-site.ts";
import { signInThroughStandIn } from "./sign-in.ts";

const BUYER = "76561198000000009";
const ITEM = seedItemId("SOLO", 6);

/** The site's process under the socket holder: its one child (Linux's /proc). */
function siteProcess(holderPid: number): number | null {
  const children = readFileSync(`/proc/${holderPid}/task/${holderPid}/children`, "utf8").trim();
  return children ? Number(children.split(" ")[0]) : null;
}

async function purchasesOf(site: string): Promise<number> {
  const [[count]] = (await rows(join(site, "data/site.db"), "SELECT count(*) FROM purchases")) as [[number]];
  return count;
}

interface Outcome {
  what: "page" | "styles" | "purchase";
  status?: number;
  error?: string;
  ms: number;
  /** The README's line running when the request was sent. */
  during: string;
}

describe("an upgrade and a rollback behind Caddy, players loading pages and buying throughout", () => {
  let caddy: Caddy | undefined;
  let holder: ChildProcess | undefined;
  after(async () => {
    const last = holder?.pid ? siteProcess(holder.pid) : null;
    holder?.kill("SIGKILL");
    if (last) process.kill(last, "SIGKILL");
    await caddy?.stop();
  });

  it("answers every page, stylesheet and purchase: none refused, none failed", async () => {
    const site = siteFolder();
    mkdirSync(join(site, "data"));
    mkdirSync(join(site, "backups"));
    execFileSync(
      process.execPath,
      [join(root, "tests/server/seed-site.ts"), join(site, "data/site.db"), join(root, "migrations")],
      {
        cwd: root,
        stdio: "inherit",
      },
    );
    // The site's own build, as the owner's checkout has it (the README's build line, run in the site).
    // Not execFileSync: the players go on loading pages while the site builds.
    const build = () =>
      promisify(execFile)(process.execPath, [join(root, "scripts/build-node.ts"), site], { cwd: root });
    await build();

    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...localSiteEnv(port, ""), MIGRATE_ON_START: "1" };
    delete env.DATABASE_URL;
    // As systemd runs the README's units: rust-site.socket holds the port, rust-site.service restarts.
    holder = spawn(
      process.execPath,
      [
        join(root, "tests/server/socket-holder.ts"),
        String(port),
        process.execPath,
        join(site, "build-node/server/index.js"),
      ],
      { cwd: site, env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    holder.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    holder.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    const starts = () => output.split('"event":"listening"').length - 1;
    const listening = async (count: number) => {
      while (starts() < count) {
        assert.equal(holder?.exitCode, null, output);
        assert.doesNotMatch(output, /Cannot start/, "the site takes the socket it is given");
        await new Promise((done) => setTimeout(done, 50));
      }
      assert.match(output, /"socket":"systemd"/, "the site listens on systemd's socket");
    };
    await listening(1);
    caddy = await startCaddy(["localhost"], port);
    const origin = `https://localhost:${caddy.port}`;
    const ca = readFileSync(caddy.rootCertificate);
    const cookie = await signInThroughStandIn(`http://127.0.0.1:${port}`, BUYER);

    const send = (agent: Agent, what: Outcome["what"], path: string, body?: string) =>
      new Promise<Outcome & { text: string }>((done) => {
        const began = performance.now();
        const during = now;
        const finish = (outcome: { status?: number; error?: string }, text = "") =>
          done({ what, ...outcome, text, during, ms: Math.round(performance.now() - began) });
        const sent = request(
          new URL(path, origin),
          {
            agent,
            ca,
            method: body === undefined ? "GET" : "POST",
            headers: {
              cookie,
              ...(body === undefined
                ? {}
                : { "content-type": "application/json", "idempotency-key": crypto.randomUUID() }),
            },
          },
          (response) => {
            let text = "";
            response.setEncoding("utf8");
            response.on("data", (chunk) => {
              text += chunk;
            });
            response.on("end", () => finish({ status: response.statusCode }, text));
            response.on("error", (error) => finish({ error: String(error) }));
          },
        );
        sent.on("error", (error) => finish({ error: String(error) }));
        sent.end(body);
      });

    const purchasesBefore = await purchasesOf(site);
    const outcomes: Outcome[] = [];
    let now = "before";
    let running = true;
    const player = async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1, ca });
      while (running) {
        const page = await send(agent, "page", "/shop");
        outcomes.push(page);
        const styles = /href="(\/assets\/[^"]+\.css)"/.exec(page.text)?.[1];
        if (styles) outcomes.push(await send(agent, "styles", styles));
        outcomes.push(
          await send(agent, "purchase", `/api/purchase/items/${ITEM}`, JSON.stringify({ server_type: "SOLO" })),
        );
      }
      agent.destroy();
    };
    const players = [player(), player()];

    const [upgrade, rollback] = readmeShellBlocks("Upgrading");
    assert.ok(upgrade && rollback);
    const restarts: string[] = [];
    for (const line of [...upgrade, ...rollback]) {
      now = line;
      if (/^(cd |git |npm ci$)/.test(line)) continue;
      if (/^npm run build(:node)?$/.test(line)) await build();
      else if (line.startsWith("npm run db:")) {
        const result = await run(line, site);
        assert.equal(result.code, 0, `${line}\n${result.stderr}`);
      } else if (/^sudo systemctl (stop|start|restart) rust-site$/.test(line)) {
        const verb = line.split(" ")[2];
        assert.equal(verb, "restart", "the site is only restarted");
        const before = starts();
        const running = holder.pid ? siteProcess(holder.pid) : null;
        assert.ok(running, "the site runs under its socket");
        process.kill(running, "SIGTERM");
        await listening(before + 1);
        restarts.push(verb ?? "");
      } else assert.fail(`the test doesn't know the README's line ${line}`);
    }
    now = "after";
    const answeredBefore = outcomes.length;
    while (outcomes.length < answeredBefore + 6) await new Promise((done) => setTimeout(done, 50));
    running = false;
    await Promise.all(players);

    assert.deepEqual(
      restarts,
      ["restart", "restart"],
      "the upgrade and the rollback each restart once, and stop nothing else",
    );
    const answered = (outcome: Outcome) => outcome.status === (outcome.what === "purchase" ? 201 : 200);
    assert.deepEqual(
      outcomes.filter((outcome) => !answered(outcome)),
      [],
      `every page, stylesheet and purchase is answered\n${caddy
        .output()
        .split("\n")
        .filter((line) => line.includes('"error"'))
        .slice(-4)
        .join("\n")}`,
    );
    assert.equal(
      (await purchasesOf(site)) - purchasesBefore,
      outcomes.filter((outcome) => outcome.what === "purchase").length,
      "every purchase answered is made, once",
    );
    // The figure in the README's Upgrading: the longest any player waited, by the line that was running.
    const longest: Record<string, number> = {};
    for (const outcome of outcomes) longest[outcome.during] = Math.max(longest[outcome.during] ?? 0, outcome.ms);
    console.log(JSON.stringify({ requests: outcomes.length, longestMs: longest }));
  });
});
