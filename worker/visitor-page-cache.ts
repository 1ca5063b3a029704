import { parseCookie } from "cookie";
import type { Deps } from "./deps.ts";
import type { PageCache } from "./ports/page-cache.ts";
import { SESSION_COOKIE_NAMES } from "./services/auth/cookie-names.ts";
import { readCatalogVersion } from "./services/shop/catalog-version.ts";

// Signed-out visitors all see the same home, shop, item and terms pages, so those answers are kept
// and served again, keyed by the URL and the catalog's version: a new price, stock count or sale
// window is a new key, and the old answer is never served again. The version itself is read at most
// every VERSION_FRESH_MS and again the moment a limited offer starts or ends, so a visitor sees a
// price or a sale state at most that old (decision 100).

/** How long a known catalog version is trusted before it is read again. */
export const VERSION_FRESH_MS = 5_000;
/** How long an answer is kept: it also shows the server list, which the cron refreshes every minute. */
export const VISITOR_PAGE_TTL_SECONDS = 30;
/** Set on answers to visitors' pages: `hit` when served from the cache, `miss` when rendered. */
export const PAGE_CACHE_HEADER = "x-page-cache";
const VERSION_PARAM = "__catalog";
/**
 * On a kept answer: the Content-Security-Policy nonce its inline scripts were rendered with. The app
 * puts it in the policy of every answer served from the copy (and drops this header), so the copy's
 * scripts run; visitors share that nonce for the copy's life, as they share the page.
 */
export const PAGE_NONCE_HEADER = "x-page-nonce";

// `/`, `/terms`, `/shop` and everything under `/shop/`, and their React Router data requests.
const VISITOR_PAGE = /^\/(?:_root\.data|terms(?:\.data)?|shop(?:\.data|\/.*)?)?$/;

/** Whether the request names a player (either session cookie name, or any Authorization header). */
export function namesAPlayer(request: Request): boolean {
  if (request.headers.has("authorization")) return true;
  const cookies = request.headers.get("cookie");
  if (!cookies) return false;
  const parsed = parseCookie(cookies);
  return SESSION_COOKIE_NAMES.some((name) => parsed[name] !== undefined);
}

export type RenderPage = () => Promise<Response>;

/** Serves visitors' pages from `cache`; every other request goes straight to `render`. */
export function visitorPageCache(cache: PageCache) {
  // Per process or isolate. Only a settled value is kept: a Worker must not wait on another request's I/O.
  let known: { version: string; readAt: number; until: number } | null = null;

  async function catalogVersion(deps: Pick<Deps, "db" | "now">): Promise<string> {
    const now = deps.now().getTime();
    if (known && now >= known.readAt && now < known.until) return known.version;
    const read = await readCatalogVersion(deps);
    known = { version: read.version, readAt: now, until: Math.min(now + VERSION_FRESH_MS, read.changesAt ?? Infinity) };
    return read.version;
  }

  return async function serve(request: Request, deps: Deps, render: RenderPage, nonce?: string): Promise<Response> {
    const url = new URL(request.url);
    if (request.method !== "GET" || !VISITOR_PAGE.test(url.pathname) || namesAPlayer(request)) return render();
    url.searchParams.set(VERSION_PARAM, await catalogVersion(deps));
    const key = url.href;
    const kept = await cache.get(key);
    if (kept) {
      kept.headers.set(PAGE_CACHE_HEADER, "hit");
      return kept;
    }
    const response = await render();
    if (response.status === 200 && !response.headers.has("set-cookie") && !noStore(response)) {
      const copy = response.clone();
      if (nonce) copy.headers.set(PAGE_NONCE_HEADER, nonce);
      const stored = cache.put(key, copy, VISITOR_PAGE_TTL_SECONDS).catch((error: unknown) => {
        console.error(JSON.stringify({ event: "page_cache_put_failed", error: String(error) }));
      });
      deps.waitUntil(stored);
      response.headers.set(PAGE_CACHE_HEADER, "miss");
    }
    return response;
  };
}

const noStore = (response: Response) => /\b(private|no-store)\b/i.test(response.headers.get("cache-control") ?? "");
