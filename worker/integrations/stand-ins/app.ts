import { Hono } from "hono";
import { discordStandIn } from "./discord.ts";
import type { StandInEnv } from "./env.ts";
import { paymentsStandIn } from "./payments.ts";
import { steamOpenIdStandIn } from "./steam-openid.ts";
import { steamWebApiStandIn } from "./steam-webapi.ts";

// Local replacements for outside systems, speaking their HTTP. Served under
// /__standins/ outside production only (see worker/config.ts).
export function createStandInsApp() {
  const app = new Hono<{ Bindings: StandInEnv }>().basePath("/__standins");
  app.route("/steam-webapi", steamWebApiStandIn);
  app.route("/payments", paymentsStandIn);
  app.route("/steam-openid", steamOpenIdStandIn);
  app.route("/discord", discordStandIn);
  app.notFound((c) => c.json({ error: "stand-in: not found" }, 404));
  return app;
}
