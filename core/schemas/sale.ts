import { z } from "zod";
import { SALES_TEXT } from "../messages/admin.ts";
import { MAX_SALE_PERCENT } from "../shop/sales.ts";
import { SERVER_TYPES } from "../shop/server-types.ts";
import { POSITIVE_ID_PATTERN, smallCountText } from "./common.ts";

// What a dated sale and a wipe sale share (decisions 113 and 144): a title, a percent and what it
// covers. One schema, so the two forms can't drift apart.

/** The fields both sale forms take, each with its own Russian text. */
export const saleFields = {
  title: z.string(SALES_TEXT.badTitle).trim().min(1, SALES_TEXT.badTitle).max(60, SALES_TEXT.badTitle),
  percent: smallCountText(MAX_SALE_PERCENT, SALES_TEXT.badPercent),
  categoryIds: z.array(z.string().regex(POSITIVE_ID_PATTERN, SALES_TEXT.badScope).transform(Number)),
  serverTypes: z.array(z.enum(SERVER_TYPES, SALES_TEXT.badScope)),
};

/** The shared fields as a form posts them: the repeated checkboxes as arrays, a missing field empty. */
export function saleFieldsOf(form: FormData) {
  return {
    title: form.get("title") ?? "",
    percent: form.get("percent") ?? "",
    categoryIds: form.getAll("categoryIds"),
    serverTypes: form.getAll("serverTypes"),
  };
}
