// What a promo activation may say: the API's JSON and the /promocodes form.

import { z } from "zod";

/** Far beyond any real code; longer input is not looked at. */
export const MAX_PROMO_INPUT = 1000;

export const promoBodySchema = z.object({ code: z.string().max(MAX_PROMO_INPUT) });

/** The JSON body's code, or "" (read as «Введите промокод») when the body is not one. */
export function promoCodeFromBody(body: unknown): string {
  const parsed = promoBodySchema.safeParse(body);
  return parsed.success ? parsed.data.code : "";
}

/** The form's code, cut to the limit so the page can show it back. */
export function promoCodeFromForm(form: FormData): string {
  return String(form.get("code") ?? "").slice(0, MAX_PROMO_INPUT);
}
