// What a top-up request may say: the API's JSON (amount a number) and the /balance form (amount as text).
// The rules themselves are in core/payments/top-up.ts, shared with the page's browser check.

import { z } from "zod";
import { TOP_UP_MESSAGES } from "../messages/payments.ts";
import { amountError, emailError, parseRublesText } from "../payments/top-up.ts";

/** A zod refinement that reports the rule's own message. */
function rule<T>(check: (value: T) => string | null) {
  return (value: T, ctx: z.RefinementCtx<T>) => {
    const message = check(value);
    if (message) ctx.addIssue({ code: "custom", message });
  };
}

const amountRubles = z.number({ error: TOP_UP_MESSAGES.amountMin }).superRefine(rule(amountError));

const email = z.string({ error: TOP_UP_MESSAGES.emailInvalid }).trim().superRefine(rule(emailError));

/**
 * Where the player goes after paying: a path on this site (the item they were short for). Only its shape
 * is checked here; the payment service keeps it only when it is a same-site path (safeReturnPath).
 */
const returnTo = z.string().max(512).optional().catch(undefined);

/** `POST /api/payment/create` body: amount in rubles. */
export const topUpRequestSchema = z.object(
  { amount: amountRubles, email, return_to: returnTo },
  // A body that is no JSON object at all gets the generic text, not zod's English one.
  { error: TOP_UP_MESSAGES.createFailed },
);

/** The /balance form: the amount arrives as text ("150", "150,50"). */
export const topUpFormSchema = z.object({
  amount: z.string({ error: TOP_UP_MESSAGES.amountMin }).transform(parseRublesText).pipe(amountRubles),
  email,
  return_to: returnTo,
});

export type TopUpInput = z.infer<typeof topUpRequestSchema>;
