// What a purchase request may say, as JSON (POST /api/purchase/items/:id) and as the
// item page's form. Both end up as the same values; the texts for a refusal are the callers'.

import { z } from "zod";
import { SERVER_TYPES } from "../shop/server-types.ts";
import { idempotencyKey } from "./common.ts";

/** Ten years: no offer runs longer, and it keeps the number far from overflow. */
export const MAX_DURATION_DAYS = 3650;

/** Whole days; absent for one-time and permanent items. */
export const durationDays = z.number().int().positive().max(MAX_DURATION_DAYS);

/** The JSON body. The key may come from the Idempotency-Key header instead. */
export const purchaseBodySchema = z.object({
  server_type: z.enum(SERVER_TYPES),
  duration: durationDays.nullish(),
  idempotency_key: idempotencyKey.optional(),
});

/** The form: every field is text, an empty duration means none. */
export const purchaseFormSchema = z.object({
  server_type: z.enum(SERVER_TYPES),
  duration: z.union([
    z.literal("").transform(() => null),
    z
      .string()
      .regex(/^\d{1,10}$/)
      .transform(Number)
      .pipe(durationDays),
  ]),
  idempotency_key: idempotencyKey,
});

/** The form's fields as `purchaseFormSchema` reads them (a missing duration is an empty one). */
export function purchaseFormFields(form: FormData) {
  return {
    server_type: form.get("server_type"),
    duration: form.get("duration") ?? "",
    idempotency_key: form.get("idempotency_key"),
  };
}
