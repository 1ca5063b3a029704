import { data } from "react-router";
import type { z } from "zod";
import { ADMIN_TEXT } from "#core/messages/admin.ts";

interface Refusal {
  ok: false;
  error: string;
  form?: string;
}

/**
 * A console form whose fields failed their schema: 400 with the first field's own text, and the form
 * it came from when the page has several (the answer is shown beside that one). `Answer` is the
 * page's refusal type, when it has one of its own.
 */
export function invalidForm<Answer extends { ok: false; error: string } = Refusal>(error: z.ZodError, form?: string) {
  const refusal: Refusal = { ok: false, error: invalidFormError(error) };
  if (form !== undefined) refusal.form = form;
  return data(refusal as Answer, { status: 400 });
}

/** The first field's own text, as `invalidForm` answers it, for a page whose refusal carries more. */
export function invalidFormError(error: z.ZodError): string {
  return error.issues[0]?.message ?? ADMIN_TEXT.checkFields;
}
