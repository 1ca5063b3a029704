import { Hono } from "hono";
import { promoCodeFromBody } from "#core/schemas/promo.ts";
import type { AppEnv } from "../hono-env.ts";
import { clientAddress } from "../services/promos/client-address.ts";
import { redeemPromo } from "../services/promos/redeem.ts";
import { requireUser } from "./require-user.ts";

export const promosApi = new Hono<AppEnv>();

// Activates a code for the signed-in player: 200 {message, promo}, else {error} with the failure's status
// (a 429 also has `code`: use_limit_reached for the code's use limit, too_many_attempts for the guessing pause).
promosApi.post("/promos/validate", requireUser, async (c) => {
  const result = await redeemPromo(c.get("deps"), {
    userId: c.get("user").id,
    ip: clientAddress(c.req.raw),
    code: promoCodeFromBody(await c.req.json().catch(() => null)),
  });
  c.header("Cache-Control", "no-store");
  if (result.ok) return c.json({ message: result.message, promo: result.promo }, 200);
  if (result.retryAfterSeconds) c.header("Retry-After", String(result.retryAfterSeconds));
  return c.json(result.code ? { error: result.error, code: result.code } : { error: result.error }, result.status);
});
