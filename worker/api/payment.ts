import { Hono } from "hono";
import { z } from "zod";
import { FORBIDDEN, NOT_FOUND } from "#core/messages/common.ts";
import { PAYMENT_NOTIFICATION_ERRORS, TOP_UP_MESSAGES } from "#core/messages/payments.ts";
import { topUpRequestSchema } from "#core/schemas/top-up.ts";
import type { AppEnv } from "../hono-env.ts";
import { getSessionUser } from "../services/auth/sessions.ts";
import {
  createTopUp,
  handleNotification,
  paymentReturnLocation,
  paymentReturnResult,
  TopUpTooFrequentError,
  TopUpUnavailableError,
} from "../services/payments/payments.ts";
import { PaymentProviderError, paymentProvider } from "../services/payments/provider.ts";
import { handleRefundNotification } from "../services/payments/refunds.ts";

// Creating and settling payments. The read side (GET /payment/history,
// GET /payment/{id}) lives with the profile; these paths don't overlap it.
export const paymentApi = new Hono<AppEnv>();

paymentApi.post("/payment/create", async (c) => {
  const deps = c.get("deps");
  const user = await getSessionUser(deps, c.req.raw);
  if (!user) return c.json({ error: TOP_UP_MESSAGES.createUnauthorized }, 401);
  const body = await c.req.json().catch(() => null);
  const parsed = topUpRequestSchema.safeParse(body);
  if (!parsed.success) {
    return c.json({ error: parsed.error.issues[0]?.message ?? TOP_UP_MESSAGES.createFailed }, 400);
  }
  try {
    const created = await createTopUp(deps, user, parsed.data);
    return c.json({ payment_url: created.paymentUrl, payment_id: created.paymentId });
  } catch (error) {
    if (error instanceof TopUpTooFrequentError) return c.json({ error: TOP_UP_MESSAGES.createFailed }, 429);
    if (error instanceof TopUpUnavailableError || error instanceof PaymentProviderError) {
      return c.json({ error: TOP_UP_MESSAGES.createFailed }, 502);
    }
    throw error;
  }
});

const notificationSchema = z.object({
  type: z.literal("notification"),
  event: z.string().max(100),
  object: z.object({ id: z.string().min(1).max(100) }),
});

// Only the payment's (or, for refund.succeeded, the refund's) id is taken from the body; the
// provider's API is asked what happened. 200 tells the provider to stop repeating; repeats are harmless.
paymentApi.post("/payment/webhook/:provider", async (c) => {
  const deps = c.get("deps");
  if (c.req.param("provider") !== deps.config.paymentProvider) return c.json({ error: NOT_FOUND }, 404);
  let provider: ReturnType<typeof paymentProvider>;
  try {
    provider = paymentProvider(deps);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    // Credentials missing: nothing can be verified, so the provider should try again later.
    console.error(JSON.stringify({ event: "payment.provider_not_configured", reason: error.message }));
    return c.json({ error: PAYMENT_NOTIFICATION_ERRORS.providerUnavailable }, 503);
  }
  if (!provider.acceptsNotificationFrom(c.req.header("cf-connecting-ip") ?? null)) {
    console.warn(
      JSON.stringify({ event: "payment.notification_untrusted_source", address: c.req.header("cf-connecting-ip") }),
    );
    return c.json({ error: FORBIDDEN }, 403);
  }
  const parsed = notificationSchema.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return c.json({ error: PAYMENT_NOTIFICATION_ERRORS.malformed }, 400);
  try {
    const { event, object } = parsed.data;
    if (event.startsWith("refund.")) await handleRefundNotification(deps, object.id, provider);
    else await handleNotification(deps, object.id, provider);
    return c.json({ ok: true });
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    // The provider's API couldn't confirm anything: ask the provider to repeat later.
    console.warn(JSON.stringify({ event: "payment.notification_unverified", reason: error.message }));
    return c.json({ error: PAYMENT_NOTIFICATION_ERRORS.providerUnavailable }, 503);
  }
});

paymentApi.get("/payment/return/:id", async (c) => {
  const id = z.uuid().safeParse(c.req.param("id"));
  let result: "success" | "failed" = "failed";
  try {
    if (id.success) result = await paymentReturnResult(c.get("deps"), id.data);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
  }
  return c.redirect(paymentReturnLocation(c.req.query("next"), result), 303);
});
