import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { lruPageCache } from "../adapters/memory-page-cache.ts";
import { type AppOptions, createApp } from "../app.ts";
import type { Platform } from "../deps.ts";
import { clientAddress, withClientAddress } from "./client-address.ts";
import { plainTextByProxy } from "./forwarded-proto.ts";

export interface NodeAppOptions {
  pageHandler: AppOptions["pageHandler"];
  platform: Platform;
  /** The client build (build/node/client): hashed assets under /assets, public/ files beside them. */
  clientDir: string;
  /** A proxy on this machine appends the client's address to X-Forwarded-For and says its scheme (TRUST_PROXY=1). */
  trustProxy?: boolean;
}

/** Hashed by Vite: a new build gets new names, so browsers may keep these for good. */
const IMMUTABLE = "public, max-age=31536000, immutable";
const SHORT = "public, max-age=3600";

/**
 * The site's app on Node: the client build's files (precompressed .br/.gz beside them when the
 * browser accepts them), then the same Hono app as on Workers for everything else.
 */
export function createNodeApp({ pageHandler, platform, clientDir, trustProxy = false }: NodeAppOptions) {
  const site = createApp({
    pageHandler,
    platform: () => platform,
    pageCache: lruPageCache(),
    plainText: plainTextByProxy(trustProxy),
  });
  const app = new Hono();
  app.on(
    ["GET", "HEAD"],
    "*",
    serveStatic({
      root: clientDir,
      precompressed: true,
      onFound: (path, c) => {
        c.header("cache-control", path.includes("/assets/") ? IMMUTABLE : SHORT);
      },
    }),
  );
  app.all("*", (c) => site.fetch(withClientAddress(c.req.raw, clientAddress(c, trustProxy))));
  return app;
}
