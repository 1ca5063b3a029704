// The Worker's second tier of the page cache, the Cache API, on its own: what it keeps comes back
// whole, and the Cache-Control it needed to keep it never reaches a browser.
import { describe, expect, it } from "vitest";
import { cachesPageCache } from "#worker/cloudflare/page-cache.ts";

describe("visitors' pages in the Cache API", () => {
  it("gives back the kept page with its status, type and body, without the Cache-Control it was kept by", async () => {
    const cache = cachesPageCache();
    const key = `http://localhost:8788/shop?__catalog=${crypto.randomUUID()}`;
    expect(await cache.get(key)).toBeNull();
    await cache.put(key, new Response("<h1>Магазин</h1>", { headers: { "content-type": "text/html" } }), 30);
    const kept = await cache.get(key);
    expect(kept?.status).toBe(200);
    expect(kept?.headers.get("content-type")).toBe("text/html");
    expect(kept?.headers.get("cache-control")).toBeNull();
    expect(await kept?.text()).toBe("<h1>Магазин</h1>");
    // The middleware sets headers on the answer it serves.
    kept?.headers.set("x-frame-options", "SAMEORIGIN");
  });
});
