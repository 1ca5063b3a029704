import { z } from "zod";
import { SHOP_ERRORS } from "../messages/shop.ts";
import { MIN_SEARCH_LENGTH } from "../shop/plural.ts";

// The shop search's query as /api/shop/search takes it: trimmed, at least MIN_SEARCH_LENGTH (2)
// characters, at most 100; an empty one gets the spec's «Поисковый запрос обязателен».

export const MAX_SEARCH_LENGTH = 100;

export const searchQuerySchema = z
  .string({ error: SHOP_ERRORS.queryRequired })
  .max(MAX_SEARCH_LENGTH, { error: SHOP_ERRORS.badQuery })
  .trim()
  .min(1, { error: SHOP_ERRORS.queryRequired })
  .min(MIN_SEARCH_LENGTH, { error: SHOP_ERRORS.queryTooShort });
