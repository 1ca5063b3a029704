import { z } from "zod";
import { PAGINATION_ERRORS } from "../messages/shop.ts";
import { MAX_PER_PAGE, type PageRequest } from "../shop/pagination.ts";

// `page` and `per_page` as the shop page's address and /api/shop/items take them: the same
// limits and the same 400 texts on both. The sizes and the arithmetic are in core/shop/pagination.ts,
// which the browser code imports without zod.

const pageText = z
  .string()
  .regex(/^[1-9]\d{0,5}$/, { error: PAGINATION_ERRORS.badPage })
  .transform(Number);
const perPageText = z
  .string()
  .regex(/^[1-9]\d{0,2}$/, { error: PAGINATION_ERRORS.badPerPage })
  .transform(Number)
  .refine((value) => value <= MAX_PER_PAGE, { error: PAGINATION_ERRORS.badPerPage });
// Made once: zod compiles an object schema's parser for each new schema, which cost more than the parse.
const pageParams = z.object({ page: pageText.optional(), per_page: perPageText.optional() });

/** Reads `page` and `per_page` (absent or empty: page 1 of `defaultPerPage`); a bad one gives the 400 text. */
export function parsePageRequest(
  params: { page?: string | null; per_page?: string | null },
  defaultPerPage: number,
): { ok: true; page: PageRequest } | { ok: false; error: string } {
  const parsed = pageParams.safeParse({ page: params.page || undefined, per_page: params.per_page || undefined });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? PAGINATION_ERRORS.badPage };
  return { ok: true, page: { page: parsed.data.page ?? 1, perPage: parsed.data.per_page ?? defaultPerPage } };
}
