import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import type { RouterContextProvider } from "react-router";
import { BAD_FORM, FORBIDDEN, NOT_FOUND, REQUEST_TOO_LARGE, UNKNOWN_SERVER_ERROR } from "#core/messages/common.ts";
import { apiApp } from "./api/index.ts";
import { STANDIN_PREFIX, standInsEnabled } from "./config.ts";
import { buildDeps, type DepsOverrides } from "./deps.ts";
import type { AppEnv } from "./hono-env.ts";
import { isSafeMethod } from "./http-methods.ts";
import { createStandInsApp } from "./integrations/stand-ins/app.ts";
import { createRouterContext } from "./router-context.ts";
import { readCookie, readSessionToken, SESSION_COOKIE } from "./services/auth/sessions.ts";

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
  overrides?: (env: AppEnv["Bindings"]) => DepsOverrides;
}

export function createApp({ pageHandler, overrides }: AppOptions) {
  const app = new Hono<AppEnv>();

  app.use(requestId());
  app.use(
    secureHeaders({
      // The pages inline React Router's hydration data; scripts come from our origin only.
      contentSecurityPolicy: undefined,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: "strict-origin-when-cross-origin",
    }),
  );
  // An answer to a request that names a player may show that player's data (every page's header shows
  // the balance): shared caches must never keep it. API handlers that chose a policy keep theirs.
  app.use(async (c, next) => {
    await next();
    if (readSessionToken(c.req.raw) === null) return;
    if (isApi(c) && c.res.headers.has("cache-control")) return;
    c.res.headers.set("cache-control", "private, no-store");
  });
  // The session cookie is SameSite=Lax, so browsers don't send it with another site's posts; a sibling
  // subdomain counts as the same site though. No page of ours posts from
  // elsewhere (Steam and YooKassa come back with GETs), so a cookie-carried post that the browser marks
  // as coming from another site is refused. Bearer-token calls can't be forged by a form.
  app.use(async (c, next) => {
    const site = c.req.header("sec-fetch-site");
    if (!isSafeMethod(c.req.method) && (site === "cross-site" || site === "same-site")) {
      const fromCookie = readCookie(c.req.raw, SESSION_COOKIE);
      if (fromCookie !== null && readSessionToken(c.req.raw) === fromCookie) {
        return isApi(c) ? c.json({ error: FORBIDDEN }, 403) : c.text(FORBIDDEN, 403);
      }
    }
    await next();
  });
  app.use(
    bodyLimit({
      maxSize: MAX_REQUEST_BODY_BYTES,
      onError: (c) => (isApi(c) ? c.json({ error: REQUEST_TOO_LARGE }, 413) : c.text(REQUEST_TOO_LARGE, 413)),
    }),
  );
  app.use(async (c, next) => {
    c.set(
      "deps",
      buildDeps(c.env, {
        waitUntil: (promise) => c.executionCtx.waitUntil(promise),
        ...overrides?.(c.env),
      }),
    );
    await next();
  });

  app.route("/api", apiApp);
  app.all("/api/*", (c) => c.json({ error: NOT_FOUND }, 404));

  app.all(`${STANDIN_PREFIX}*`, async (c, next) => {
    if (!standInsEnabled(c.var.deps.config)) return next();
    return createStandInsApp().fetch(c.req.raw, c.env);
  });

  // Every other request, of any method, is a page or a form post.
  app.all("*", async (c) => {
    if (!(await readableForm(c.req.raw))) return c.text(BAD_FORM, 400);
    return pageHandler(c.req.raw, createRouterContext(c.var.deps));
  });

  app.onError((error, c) => {
    console.error(JSON.stringify({ requestId: c.var.requestId, error: String(error), stack: error.stack }));
    if (new URL(c.req.url).pathname.startsWith("/api/")) {
      return c.json({ error: UNKNOWN_SERVER_ERROR }, 500);
    }
    return c.text(UNKNOWN_SERVER_ERROR, 500);
  });

  return app;
}
