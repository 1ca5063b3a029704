// The built Node server as an owner runs it: from an empty folder, migrations on start, then
// SIGTERM. Needs `npm run build:node` first (npm run test:server does it).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { freePort, localSiteEnv, type NodeServer, serveNodeSite } from "../e2e/node-site.ts";
import { root, siteFolder } from "./owner-site.ts";
import { signInThroughStandIn } from "./sign-in.ts";

const ADMIN = "76561198000000055";

function exitOf(server: NodeServer): Promise<number | null> {
  return new Promise((done) => {
    if (server.process.exitCode !== null) done(server.process.exitCode);
    else server.process.once("exit", (code) => done(code));
  });
}

describe("the built Node server from a fresh folder", () => {
  const folder = mkdtempSync(join(tmpdir(), "site-server-"));
  let port = 0;
  let server: NodeServer;
  let origin = "";

  before(async () => {
    port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    // The default embedded database, relative to the folder the server starts in.
    const env: NodeJS.ProcessEnv = { ...localSiteEnv(port, ""), MIGRATE_ON_START: "1", ADMIN_STEAM_IDS: ADMIN };
    delete env.DATABASE_URL;
    server = await serveNodeSite(env, folder);
  });

  after(() => {
    if (server.process.exitCode === null) server.process.kill("SIGKILL");
  });

  it("creates its database in data/site.db, logging each migration it applies", () => {
    assert.ok(readdirSync(join(folder, "data")).includes("site.db"));
    const journal = JSON.parse(readFileSync(join(root, "migrations/meta/_journal.json"), "utf8")) as {
      entries: { tag: string }[];
    };
    const logged = [...server.output().matchAll(/^\{"event":"migration_applied","migration":"([^"]+)"\}$/gm)];
    assert.deepEqual(
      logged.map((match) => match[1]),
      journal.entries.map((entry) => entry.tag),
    );
  });

  it("serves the home page, the shop and the server list", async () => {
    const home = await fetch(`${origin}/`);
    assert.equal(home.status, 200);
    assert.match(await home.text(), /Свобода/);
    const shop = await fetch(`${origin}/shop`);
    assert.equal(shop.status, 200);
    assert.match(await shop.text(), /Магазин/);
    const status = await fetch(`${origin}/api/server-status`);
    assert.equal(status.status, 200);
    assert.ok(Array.isArray(((await status.json()) as { servers: unknown }).servers));
  });

  it("makes the players ADMIN_STEAM_IDS lists admins of the console, and nobody else", async () => {
    const admin = await signInThroughStandIn(origin, ADMIN);
    assert.equal((await fetch(`${origin}/admin`, { headers: { cookie: admin } })).status, 200);
    const player = await signInThroughStandIn(origin, "76561198000000056");
    assert.equal((await fetch(`${origin}/admin`, { headers: { cookie: player } })).status, 404);
    // A console section that doesn't exist is the site's 404, for the admin too.
    const unknown = await fetch(`${origin}/admin/no-such-section`, { headers: { cookie: admin } });
    assert.equal(unknown.status, 404);
    assert.match(await unknown.text(), /Страница не найдена/);
    assert.equal((await fetch(`${origin}/admin/players`, { headers: { cookie: admin } })).status, 200);
  });

  it("serves hashed assets brotli-compressed and cacheable for good", async () => {
    const html = await (await fetch(`${origin}/`)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1] ?? /href="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(script, "the page links a hashed script");
    const asset = await fetch(`${origin}${script}`, { headers: { "accept-encoding": "br" } });
    assert.equal(asset.status, 200);
    assert.equal(asset.headers.get("content-encoding"), "br");
    assert.match(asset.headers.get("cache-control") ?? "", /immutable/);
  });

  it("finishes a request in flight after SIGTERM, then exits 0", async () => {
    const inFlight = fetch(`${origin}/shop`);
    await new Promise((done) => setTimeout(done, 5));
    server.process.kill("SIGTERM");
    const answer = await inFlight;
    assert.equal(answer.status, 200);
    assert.equal(await exitOf(server), 0);
    assert.match(server.output(), /"event":"stopped"/);
    await assert.rejects(fetch(`${origin}/`));
  });
});

describe("a bad setting", () => {
  it("stops the start with one line naming the variable", async () => {
    const env = { PATH: process.env.PATH, PORT: String(await freePort()) };
    const child = spawn(process.execPath, [resolve("build-node/server/index.js")], {
      cwd: mkdtempSync(join(tmpdir(), "site-server-")),
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise((done) => child.once("exit", done));
    assert.equal(code, 1);
    assert.equal(stderr.trim(), "Cannot start: PUBLIC_URL: not set");
  });

  it("refuses the stand-ins on a public address", async () => {
    const port = await freePort();
    const env = {
      ...localSiteEnv(port, "file:site.db"),
      PUBLIC_URL: "https://rust.example",
      SESSION_SECRET: "x".repeat(40),
      GAME_KEY_SECRET: "g".repeat(40),
    };
    const child = spawn(process.execPath, [resolve("build-node/server/index.js")], {
      cwd: mkdtempSync(join(tmpdir(), "site-server-")),
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    assert.equal(await new Promise((done) => child.once("exit", done)), 1);
    // With what else production lacks here, all at once (the Steam key; the secrets are set).
    const lines = stderr.trim().split("\n");
    assert.match(lines[0] ?? "", /^Cannot start: Stand-ins are refused/);
    assert.match(lines[1] ?? "", /^Cannot start: STEAM_API_KEY: not set/);
    assert.equal(lines.length, 2, stderr);
  });

  it("refuses to start on a public address without GAME_KEY_SECRET (decision 103)", async () => {
    const port = await freePort();
    const env = {
      ...localSiteEnv(port, "file:site.db"),
      PUBLIC_URL: "https://rust.example",
      SESSION_SECRET: "x".repeat(40),
      GAME_KEY_SECRET: "",
      STEAM_WEBAPI_BASE: "https://api.steampowered.com",
      STEAM_OPENID_ENDPOINT: "https://steamcommunity.com/openid/login",
      PAYMENT_PROVIDER: "yookassa",
    };
    const child = spawn(process.execPath, [resolve("build-node/server/index.js")], {
      cwd: mkdtempSync(join(tmpdir(), "site-server-")),
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    assert.equal(await new Promise((done) => child.once("exit", done)), 1);
    assert.match(stderr, /^Cannot start: .*GAME_KEY_SECRET/);
    assert.equal(stderr.trim().split("\n").length, 1);
  });
});

describe("npm start", () => {
  it("passes SIGTERM on to the server, which stops cleanly instead of outliving npm", async () => {
    const site = siteFolder();
    symlinkSync(join(root, "build-node"), join(site, "build-node"));
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...localSiteEnv(port, ""), MIGRATE_ON_START: "1" };
    delete env.DATABASE_URL;
    const npm = spawn("npm", ["start"], { cwd: site, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    npm.stdout.on("data", (chunk) => {
      output += chunk;
    });
    npm.stderr.on("data", (chunk) => {
      output += chunk;
    });
    while (!output.includes('"event":"listening"')) {
      if (npm.exitCode !== null) assert.fail(output);
      await new Promise((done) => setTimeout(done, 100));
    }
    npm.kill("SIGTERM");
    await new Promise((done) => npm.once("exit", done));
    // The server's own clean stop, not npm's exit alone: the port is free again.
    for (let wait = 0; wait < 200 && !output.includes('"event":"stopped"'); wait++) {
      await new Promise((done) => setTimeout(done, 100));
    }
    assert.match(output, /"event":"stopped"/, "the server got the signal and stopped");
    await assert.rejects(fetch(`http://127.0.0.1:${port}/api/server-types`));
  });
});
