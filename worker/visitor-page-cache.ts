import { requestCookies } from "#core/request-cookies.ts";
import { keptServerType } from "#core/shop/server-type-choice.ts";
import type { Deps } from "./deps.ts";
import type { PageCache } from "./ports/page-cache.ts";
import { SESSION_COOKIE_NAMES } from "./services/auth/cookie-names.ts";
import { catalogSnapshot, pinCatalog } from "./services/shop/catalog-snapshot.ts";
import { catalogVersionAt } from "./services/shop/catalog-version.ts";

// Signed-out visitors all see the same home, shop, item and terms pages, so those answers are kept
// and served again, keyed by the URL and the catalog's version: a new price, stock count or sale
// window is a new key, and the old answer is never served again. The catalog's revision is checked
// at most every CATALOG_TRUST_MS (at once after a write made here), and a limited offer's start or end
// changes the version the moment it passes, so a visitor sees a price or a sale state at most that old
// (decisions 100, 102 and 116).

/** How long an answer is kept: it also shows the server list, which the cron refreshes every minute. */
export const VISITOR_PAGE_TTL_SECONDS = 30;
/** Set on answers to visitors' pages: `hit` when served from the cache, `miss` when rendered. */
export const PAGE_CACHE_HEADER = "x-page-cache";
const VERSION_PARAM = "__catalog";
/** The server type the visitor chose (its cookie's known value, or none): every page's links into the shop name it. */
const SERVER_TYPE_PARAM = "__server_type";

// `/`, `/terms`, `/shop` and everything under `/shop/`, and their React Router data requests.
const VISITOR_PAGE = /^\/(?:_root\.data|terms(?:\.data)?|shop(?:\.data|\/.*)?)?$/;

/** Whether the request names a player (either session cookie name, or any Authorization header). */
export function namesAPlayer(request: Request): boolean {
  if (request.headers.has("authorization")) return true;
  const cookies = requestCookies(request);
  return SESSION_COOKIE_NAMES.some((name) => cookies[name] !== undefined);
}

/** The answer as it leaves the site: every header the app's middleware adds is on it. */
export type RenderPage = () => Promise<Response>;

/**
 * Serves visitors' pages from `cache`; every other request goes straight to `render`. A copy is kept
 * with the headers it was sent with, so its Content-Security-Policy names the nonce its inline scripts
 * carry, and a hit needs none of the middleware that made them (visitors share that nonce for the
 * copy's life, as they share the page).
 */
export function visitorPageCache(cache: PageCache) {
  return async function serve(request: Request, deps: Deps, render: RenderPage): Promise<Response> {
    // A signed-in player's page (most rendered pages) is let through before its address is parsed.
    if (request.method !== "GET" || namesAPlayer(request)) return render();
    const url = new URL(request.url);
    if (!VISITOR_PAGE.test(url.pathname)) return render();
    // The page is rendered from exactly the catalog its key names.
    const catalog = await catalogSnapshot(deps);
    pinCatalog(deps, catalog);
    url.searchParams.set(VERSION_PARAM, catalogVersionAt(catalog, deps.now().getTime()).version);
    // A page shows the visitor's chosen server type (the header's «Магазин», the shop without a type in its
    // address), so each chosen type has its own copy; a cookie that names no known type is the same as none.
    url.searchParams.set(SERVER_TYPE_PARAM, keptServerType(request) ?? "");
    const key = url.href;
    const kept = await cache.get(key);
    if (kept) {
      kept.headers.set(PAGE_CACHE_HEADER, "hit");
      return kept;
    }
    const response = await render();
    if (response.status === 200 && !response.headers.has("set-cookie") && !noStore(response)) {
      const stored = cache.put(key, response.clone(), VISITOR_PAGE_TTL_SECONDS).catch((error: unknown) => {
        console.error(JSON.stringify({ event: "page_cache_put_failed", error: String(error) }));
      });
      deps.waitUntil(stored);
      response.headers.set(PAGE_CACHE_HEADER, "miss");
    }
    return response;
  };
}

const noStore = (response: Response) => /\b(private|no-store)\b/i.test(response.headers.get("cache-control") ?? "");
