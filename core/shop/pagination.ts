import { pageOutOfRange } from "../messages/shop.ts";
import type { Pagination } from "./types.ts";

// Page sizes and the page arithmetic, free of zod so the browser bundle can import them.

/** The most items one page may ask for. */
export const MAX_PER_PAGE = 100;
/** The shop page's page: six rows of four cards, whose HTML fits a first view. */
export const SHOP_PAGE_SIZE = 24;
/**
 * The API's page when a client names none: the whole list of any catalogue clients knew before
 * pagination (a few dozen items a server type), so they keep reading `items` unchanged.
 */
export const API_PAGE_SIZE = MAX_PER_PAGE;

export interface PageRequest {
  page: number;
  perPage: number;
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
