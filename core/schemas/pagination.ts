import { z } from "zod";
import { PAGINATION_ERRORS, pageOutOfRange } from "../messages/shop.ts";
import type { Pagination } from "../shop/types.ts";

// `page` and `per_page` as the shop page's address and /api/shop/items take them: the same
// limits and the same 400 texts on both.

/** The most items one page may ask for. */
export const MAX_PER_PAGE = 100;
/** The shop page's page: six rows of four cards, whose HTML fits a first view. */
export const SHOP_PAGE_SIZE = 24;
/**
 * The API's page when a client names none: the whole list of any catalogue clients knew before
 * pagination (a few dozen items a server type), so they keep reading `items` unchanged.
 */
export const API_PAGE_SIZE = MAX_PER_PAGE;

const pageText = z
  .string()
  .regex(/^[1-9]\d{0,5}$/, { error: PAGINATION_ERRORS.badPage })
  .transform(Number);
const perPageText = z
  .string()
  .regex(/^[1-9]\d{0,2}$/, { error: PAGINATION_ERRORS.badPerPage })
  .transform(Number)
  .refine((value) => value <= MAX_PER_PAGE, { error: PAGINATION_ERRORS.badPerPage });

export interface PageRequest {
  page: number;
  perPage: number;
}

/** Reads `page` and `per_page` (absent or empty: page 1 of `defaultPerPage`); a bad one gives the 400 text. */
export function parsePageRequest(
  params: { page?: string | null; per_page?: string | null },
  defaultPerPage: number,
): { ok: true; page: PageRequest } | { ok: false; error: string } {
  const parsed = z
    .object({ page: pageText.optional(), per_page: perPageText.optional() })
    .safeParse({ page: params.page || undefined, per_page: params.per_page || undefined });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? PAGINATION_ERRORS.badPage };
  return { ok: true, page: { page: parsed.data.page ?? 1, perPage: parsed.data.per_page ?? defaultPerPage } };
}

/** The page's place in a list of `total` items, or the 400 text when the page is past the last. */
export function paginate(
  request: PageRequest,
  total: number,
): { ok: true; pagination: Pagination } | { ok: false; error: string } {
  const pages = Math.max(1, Math.ceil(total / request.perPage));
  if (request.page > pages) return { ok: false, error: pageOutOfRange(pages) };
  return { ok: true, pagination: { page: request.page, per_page: request.perPage, total, pages } };
}
