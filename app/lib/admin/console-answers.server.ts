import { data } from "react-router";
import type { z } from "zod";
import { ADMIN_TEXT } from "#core/messages/admin.ts";

// The one way a console action answers a refusal (issue 49): a form whose fields failed their schema
// (`invalidForm`), a service that said no (`refused`), and an intent the page doesn't have
// (`dispatchIntent`). tests/node/architecture.test.ts fails when a console route writes one by hand.

export interface Refusal {
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
  return refused<Answer>(invalidFormError(error), 400, form);
}

/** The first field's own text, as `invalidForm` answers it, for a page whose refusal carries more. */
export function invalidFormError(error: z.ZodError): string {
  return error.issues[0]?.message ?? ADMIN_TEXT.checkFields;
}

/** A refusal with its text and status: a service's `{ ok: false, error, status }`, or the page's own. */
export function refused<Answer extends { ok: false; error: string } = Refusal>(
  error: string,
  status: number,
  form?: string,
  extra?: Omit<Answer, "ok" | "error" | "form">,
) {
  const refusal: Refusal = { ...extra, ok: false, error };
  if (form !== undefined) refusal.form = form;
  return data(refusal as Answer, { status });
}

/** A form's `intent` field run by the page's handler of that name; any other is 400, and runs nothing. */
export function dispatchIntent<Form extends FormData | Record<string, FormDataEntryValue>, Answer>(
  form: Form,
  handlers: Record<string, (form: Form) => Answer>,
) {
  const intent = form instanceof FormData ? form.get("intent") : form.intent;
  const handler = typeof intent === "string" && Object.hasOwn(handlers, intent) ? handlers[intent] : undefined;
  return handler ? handler(form) : refused(ADMIN_TEXT.unknownIntent, 400);
}
