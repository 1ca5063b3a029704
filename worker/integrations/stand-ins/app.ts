import { Hono } from "hono";
import { discordStandIn } from "./discord.ts";
import type { StandInEnv } from "./env.ts";
import { paymentsStandIn } from "./payments.ts";
import { steamOpenIdStandIn } from "./steam-openid.ts";
import { steamWebApiStandIn } from "./steam-webapi.ts";

// Local replacements for outside systems, speaking their HTTP. Served under
// /__standins/ outside production only (see worker/config.ts).
let shared: ReturnType<typeof createStandInsApp> | undefined;

/**
 * The stand-ins' app, built once per process or isolate: it keeps nothing between requests (each
 * fetch gets its environment), and building it (Hono's router over every stand-in's routes) on each
 * request was a twelfth of a page's CPU wherever the stand-ins are on (docs/PERFORMANCE.md run 11).
 */
export function standInsApp(): ReturnType<typeof createStandInsApp> {
  shared ??= createStandInsApp();
  return shared;
}

function createStandInsApp() {
  const app = new Hono<{ Bindings: StandInEnv }>().basePath("/__standins");
  app.route("/steam-webapi", steamWebApiStandIn);
  app.route("/payments", paymentsStandIn);
  app.route("/steam-openid", steamOpenIdStandIn);
  app.route("/discord", discordStandIn);
  app.notFound((c) => c.json({ error: "stand-in: not found" }, 404));
  return app;
}
