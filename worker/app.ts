import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import type { RouterContextProvider } from "react-router";
import { apiApp } from "./api/index.ts";
import { STANDIN_PREFIX, standInsEnabled } from "./config.ts";
import { buildDeps, type DepsOverrides } from "./deps.ts";
import type { AppEnv } from "./hono-env.ts";
import { createStandInsApp } from "./integrations/stand-ins/app.ts";
import { createRouterContext } from "./router-context.ts";

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
  app.all("/api/*", (c) => c.json({ error: "Не найдено" }, 404));

  app.all(`${STANDIN_PREFIX}*`, async (c, next) => {
    if (!standInsEnabled(c.var.deps.config)) return next();
    return createStandInsApp().fetch(c.req.raw, c.env);
  });

  // Every other request, of any method, is a page or a form post.
  app.all("*", (c) => pageHandler(c.req.raw, createRouterContext(c.var.deps)));

  app.onError((error, c) => {
    console.error(JSON.stringify({ requestId: c.var.requestId, error: String(error), stack: error.stack }));
    if (new URL(c.req.url).pathname.startsWith("/api/")) {
      return c.json({ error: "Неизвестная ошибка сервера" }, 500);
    }
    return c.text("Неизвестная ошибка сервера", 500);
  });

  return app;
}
