// `npm run dev`'s server on a machine whose checkout holds an owner's production `.env` (issue 45):
// the Worker in development runs with wrangler.jsonc's local settings, never the owner's. Before,
// the Cloudflare plugin read `.env` as the Worker's secrets: the development server ran with
// APP_ENV=production and the owner's PUBLIC_URL, and refused its own stand-ins with a 500.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { freePort } from "../e2e/node-site.ts";
import { stopSite } from "../e2e/site.ts";
import { ownerEnvInCheckout } from "./owner-env.ts";

describe("npm run dev with an owner's .env in the checkout", () => {
  let removeOwnerEnv = () => {};
  let dev: ReturnType<typeof spawn> | undefined;
  let origin = "";

  before(async () => {
    removeOwnerEnv = ownerEnvInCheckout();
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    dev = spawn(resolve("node_modules/.bin/vite"), ["dev", "--port", String(port), "--strictPort"], {
      detached: true,
      stdio: "ignore",
      // Its own local D1 and KV, not the developer's .wrangler/state.
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", SITE_STATE_DIR: mkdtempSync(join(tmpdir(), "site-dev-")) },
    });
    for (let attempt = 0; attempt < 240; attempt++) {
      const answered = await fetch(`${origin}/api/server-types`).then(
        () => true,
        () => false,
      );
      if (answered) return;
      await new Promise((done) => setTimeout(done, 500));
    }
    throw new Error("vite dev did not start");
  });

  after(() => {
    if (dev) stopSite(dev);
    removeOwnerEnv();
  });

  it("signs in through the local Steam stand-in at wrangler.jsonc's PUBLIC_URL", async () => {
    const response = await fetch(`${origin}/api/auth/steam?return_to=%2Fprofile`, { redirect: "manual" });
    assert.equal(response.status, 302);
    const location = new URL(response.headers.get("location") ?? "");
    assert.equal(`${location.origin}${location.pathname}`, "http://localhost:5173/__standins/steam-openid/login");
    assert.match(
      location.searchParams.get("openid.return_to") ?? "",
      /^http:\/\/localhost:5173\/api\/auth\/steam\/callback\?/,
    );
  });
});
