// What a purchase request may say, as JSON (POST /api/purchase/items/:id) and as the
// item page's form. Both end up as the same values; the texts for a refusal are the callers'.

import { z } from "zod";
import { expectedPriceField } from "../shop/expected-price.ts";
import { SERVER_TYPES } from "../shop/server-types.ts";
import { idempotencyKey } from "./common.ts";

/** Ten years: no offer runs longer, and it keeps the number far from overflow. */
export const MAX_DURATION_DAYS = 3650;

/** Whole days, or 0 for «до вайпа» (decision 130); absent for one-time and permanent items. */
export const durationDays = z.number().int().nonnegative().max(MAX_DURATION_DAYS);

/** A duration as a form or an address carries it: whole days as text, "0" for «до вайпа». */
export const durationText = z
  .string()
  .regex(/^\d{1,10}$/)
  .transform(Number)
  .pipe(durationDays);

/** The price the player was shown, in rubles as the item API answers it (`discount_price`); at most two decimals. */
export const expectedPrice = z
  .number()
  .min(0)
  .max(100_000_000)
  .refine((rubles) => Math.abs(rubles * 100 - Math.round(rubles * 100)) < 1e-6);

/** Rubles as the API speaks them to the kopecks the database keeps. */
export function rublesToKopecks(rubles: number): number {
  return Math.round(rubles * 100);
}

/** The JSON body. The key may come from the Idempotency-Key header instead. */
export const purchaseBodySchema = z.object({
  server_type: z.enum(SERVER_TYPES),
  duration: durationDays.nullish(),
  idempotency_key: idempotencyKey.optional(),
  /** Optional so old clients keep working; when given, a different price now is a 409 (decision 112). */
  expected_price: expectedPrice.nullish(),
  /** A gift (issue 24): the friend's SteamID64 or Steam profile address. */
  gift_to: z.string().trim().min(1).max(200).nullish(),
});

/** The form: every field is text, an empty duration means none. */
export const purchaseFormSchema = z.object({
  server_type: z.enum(SERVER_TYPES),
  duration: z.union([z.literal("").transform(() => null), durationText]),
  idempotency_key: idempotencyKey,
  /** The price shown for the chosen terms; empty (a page from before decision 112) means unchecked. */
  expected_price: z.union([
    z.literal("").transform(() => null),
    z
      .string()
      .regex(/^\d{1,9}(\.\d{1,2})?$/)
      .transform(Number)
      .pipe(expectedPrice),
  ]),
});

/** The hidden field that carries the price shown for one duration (the form without JavaScript has one per radio). */

/**
 * The form's fields as `purchaseFormSchema` reads them (a missing duration is an empty one). The
 * price shown is the chosen duration's field, or the one `expected_price` field.
 */
export function purchaseFormFields(form: FormData) {
  const duration = form.get("duration") ?? "";
  const days = typeof duration === "string" && /^\d{1,10}$/.test(duration) ? Number(duration) : null;
  return {
    server_type: form.get("server_type"),
    duration,
    idempotency_key: form.get("idempotency_key"),
    expected_price: (days != null ? form.get(expectedPriceField(days)) : null) ?? form.get("expected_price") ?? "",
  };
}

export { expectedPriceField };
