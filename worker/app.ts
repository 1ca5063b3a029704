import { type Context, type ExecutionContext, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requestId } from "hono/request-id";
import type { RouterContextProvider } from "react-router";
import { createRouterContext } from "#app/lib/deps-context.server.ts";
import { BAD_FORM, NOT_FOUND, REQUEST_TOO_LARGE, UNKNOWN_SERVER_ERROR } from "#core/messages/common.ts";
import { apiApp } from "./api/index.ts";
import { STANDIN_PREFIX, standInsEnabled } from "./config.ts";
import type { DepsOverrides, Platform } from "./deps.ts";
import { crossSiteWrites } from "./guards/cross-site.ts";
import { jsonApiBodies } from "./guards/json-body.ts";
import type { AppEnv } from "./hono-env.ts";
import { isSafeMethod } from "./http-methods.ts";
import { standInsApp } from "./integrations/stand-ins/app.ts";
import type { PageCache } from "./ports/page-cache.ts";
import { atPublicOrigin, plainTextByUrl } from "./public-origin.ts";
import { securityHeaders } from "./security-headers.ts";
import { readSessionToken } from "./services/auth/sessions.ts";
import { PAGE_CACHE_HEADER, visitorPageCache } from "./visitor-page-cache.ts";
import { standInEnvOf, wireDeps } from "./wiring.ts";

const REQUEST_ID_HEADER = "x-request-id";

/** Nothing the site accepts comes near this: forms and JSON bodies are a few hundred bytes. */
export const MAX_REQUEST_BODY_BYTES = 64 * 1024;

const isApi = (c: Context) => c.req.path.startsWith("/api/");

/** A page post's body must be a form the actions can read; anything else would fail inside them as a 500. */
async function readableForm(request: Request): Promise<boolean> {
  if (isSafeMethod(request.method) || request.body === null) return true;
  const type = request.headers.get("content-type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) return false;
  try {
    await request.clone().formData();
    return true;
  } catch {
    return false;
  }
}

export type PageHandler = (request: Request, context: RouterContextProvider) => Promise<Response>;

export interface AppOptions {
  pageHandler: PageHandler;
  /** The runtime's ports and settings for a request. */
  platform: (c: Context<AppEnv>) => Platform;
  overrides?: (c: Context<AppEnv>) => DepsOverrides;
  /** Where signed-out visitors' pages are kept (the runtime's own cache); none: every page is rendered. */
  pageCache?: PageCache;
  /** Whether a request came in plain text, as far as the runtime knows; by default its URL's scheme says. */
  plainText?: (request: Request) => boolean;
}

export function createApp({ pageHandler, platform, overrides, pageCache, plainText = plainTextByUrl }: AppOptions) {
  const app = new Hono<AppEnv>();
  const servePage = pageCache ? visitorPageCache(pageCache) : null;
  // The payment stand-in's notifications enter the site here, as the provider's would over the network.
  const selfFetch = (c: Context<AppEnv>) => (request: Request) => app.fetch(request, c.env, executionContextOf(c));

  // First, so every guard below reads the same configuration the services get.
  // Then the request is put at the public origin, so nothing after this sees the proxy's address.
  app.use(async (c, next) => {
    const deps = wireDeps(platform(c), { overrides: overrides?.(c), notify: selfFetch(c) });
    c.set("deps", deps);
    c.req.raw = atPublicOrigin(c.req.raw, deps.config, plainText(c.req.raw));
    await next();
  });
  // Before the rest of the chain: a visitor's page from the cache already carries every header the
  // chain gave it when it was rendered, so a hit costs a lookup and nothing else (decision 102).
  if (servePage) {
    app.use(async (c, next) => {
      const answer = await servePage(c.req.raw, c.get("deps"), async () => {
        await next();
        return c.res;
      });
      if (answer.headers.get(PAGE_CACHE_HEADER) === "hit") answer.headers.set(REQUEST_ID_HEADER, crypto.randomUUID());
      return answer;
    });
  }
  app.use(requestId({ headerName: REQUEST_ID_HEADER }));
  app.use(securityHeaders);
  // An answer to a request that names a player may show that player's data (every page's header shows
  // the balance): shared caches must never keep it. API handlers that chose a policy keep theirs.
  app.use(async (c, next) => {
    await next();
    if (readSessionToken(c.req.raw, c.get("deps").config) === null) return;
    if (isApi(c) && c.res.headers.has("cache-control")) return;
    c.res.headers.set("cache-control", "private, no-store");
  });
  app.use(crossSiteWrites);
  app.use(jsonApiBodies);
  app.use(
    bodyLimit({
      maxSize: MAX_REQUEST_BODY_BYTES,
      onError: (c) => (isApi(c) ? c.json({ error: REQUEST_TOO_LARGE }, 413) : c.text(REQUEST_TOO_LARGE, 413)),
    }),
  );

  app.route("/api", apiApp);
  app.all("/api/*", (c) => c.json({ error: NOT_FOUND }, 404));

  app.all(`${STANDIN_PREFIX}*`, async (c, next) => {
    if (!standInsEnabled(c.get("deps").config)) return next();
    const standInKv = platform(c).standInKv;
    const env = { ...standInEnvOf(c.get("deps"), selfFetch(c), standInKv), styleNonce: c.get("secureHeadersNonce") };
    return standInsApp().fetch(c.req.raw, env);
  });

  // Every other request, of any method, is a page or a form post.
  app.all("*", async (c) => {
    if (!(await readableForm(c.req.raw))) return c.text(BAD_FORM, 400);
    return pageHandler(c.req.raw, createRouterContext(c.get("deps"), c.get("secureHeadersNonce")));
  });

  app.onError((error, c) => {
    console.error(JSON.stringify({ requestId: c.get("requestId"), error: String(error), stack: error.stack }));
    if (new URL(c.req.url).pathname.startsWith("/api/")) {
      return c.json({ error: UNKNOWN_SERVER_ERROR }, 500);
    }
    return c.text(UNKNOWN_SERVER_ERROR, 500);
  });

  return app;
}

/** The Worker's execution context; other runtimes have none. */
function executionContextOf(c: Context<AppEnv>): ExecutionContext | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}
