// The JSON-type guard on the built Node server with requests as a raw socket sends them: a POST with
// no body and no Content-Length (`curl -X POST`) or an empty chunked body is no body, so signing out
// that way works (Node's server hands every POST a body stream, empty or not). A chunked body with
// bytes in it and no JSON type is still 415, and the session survives it.
// Needs `npm run build:node` first (npm run test:server does it).
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { freePort, localSiteEnv, type NodeServer, serveNodeSite } from "../e2e/node-site.ts";

describe("bodyless POSTs on the built Node server", () => {
  let port = 0;
  let origin = "";
  let server: NodeServer;

  before(async () => {
    port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    const databaseUrl = `file:${join(mkdtempSync(join(tmpdir(), "site-bodyless-")), "site.db")}`;
    server = await serveNodeSite({ ...localSiteEnv(port, databaseUrl), MIGRATE_ON_START: "1" });
  });

  after(() => {
    if (server.process.exitCode === null) server.process.kill("SIGKILL");
  });

  /** The site's own addresses (PUBLIC_URL is localhost) on the address the server listens on. */
  const local = (url: string) => url.replace(`http://localhost:${port}`, origin);

  /** Signs in through the Steam stand-in as a browser would; answers the session cookie's value. */
  async function signIn(steamId: string): Promise<string> {
    const start = await fetch(`${origin}/api/auth/steam`, { redirect: "manual" });
    assert.equal(start.status, 302);
    const state = /__steam_signin=([^;]*)/.exec(start.headers.getSetCookie().join("\n"))?.[1] ?? "";
    const providerPage = new URL(local(start.headers.get("location") ?? ""));
    const approved = await fetch(new URL("approve", providerPage), {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({
        return_to: providerPage.searchParams.get("openid.return_to") ?? "",
        realm: providerPage.searchParams.get("openid.realm") ?? "",
        steamid: steamId,
      }),
    });
    assert.equal(approved.status, 302);
    const callback = await fetch(local(approved.headers.get("location") ?? ""), {
      redirect: "manual",
      headers: { cookie: `__steam_signin=${state}` },
    });
    const session = /__session=([^;]+)/.exec(callback.headers.getSetCookie().join("\n"))?.[1];
    assert.ok(session, `no session cookie from the callback (${callback.status})`);
    return session;
  }

  async function signedIn(session: string): Promise<boolean> {
    const check = await fetch(`${origin}/api/auth/check`, { headers: { cookie: `__session=${session}` } });
    return ((await check.json()) as { authenticated: boolean }).authenticated;
  }

  /** Sends `head` (and `body`) over a plain socket, exactly as written; answers the status code. */
  function raw(head: string[], body = ""): Promise<number> {
    return new Promise((done, fail) => {
      const socket = connect(port, "127.0.0.1");
      let answer = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk) => {
        answer += chunk;
      });
      socket.on("error", fail);
      socket.on("end", () => done(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
      socket.write(`${[...head, `Host: localhost:${port}`, "Connection: close"].join("\r\n")}\r\n\r\n${body}`);
    });
  }

  it("signs out on a POST with no body and no Content-Length, as curl -X POST sends it", async () => {
    const session = await signIn("76561198000000101");
    assert.equal(await signedIn(session), true);
    const status = await raw(["POST /api/auth/logout HTTP/1.1", `Cookie: __session=${session}`]);
    assert.equal(status, 200);
    assert.equal(await signedIn(session), false);
  });

  it("signs out on a POST with an empty chunked body", async () => {
    const session = await signIn("76561198000000102");
    const status = await raw(
      ["POST /api/logout HTTP/1.1", `Cookie: __session=${session}`, "Transfer-Encoding: chunked"],
      "0\r\n\r\n",
    );
    assert.equal(status, 200);
    assert.equal(await signedIn(session), false);
  });

  it("still refuses a chunked body with bytes and no JSON type, and the session stays", async () => {
    const session = await signIn("76561198000000103");
    const status = await raw(
      ["POST /api/auth/logout HTTP/1.1", `Cookie: __session=${session}`, "Transfer-Encoding: chunked"],
      "1\r\nx\r\n0\r\n\r\n",
    );
    assert.equal(status, 415);
    assert.equal(await signedIn(session), true);
  });
});
