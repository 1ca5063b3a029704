import { z } from "zod";
import { CATEGORY_TEXT } from "../messages/admin.ts";
import { CATEGORY_DESCRIPTION_MAX, CATEGORY_NAME_MAX } from "../shop/category-limits.ts";

// A category's fields as the console's form and `npm run categories` take them (decision 119).

/** No control characters: a name is shown in the shop's filter and a script's table. */
const NO_CONTROLS = /^[^\p{Cc}]*$/u;

export const categoryFieldsSchema = z.object({
  name: z
    .string(CATEGORY_TEXT.badName)
    .trim()
    .min(1, CATEGORY_TEXT.badName)
    .max(CATEGORY_NAME_MAX, CATEGORY_TEXT.badName)
    .regex(NO_CONTROLS, CATEGORY_TEXT.badName),
  description: z
    .string(CATEGORY_TEXT.badDescription)
    .trim()
    .max(CATEGORY_DESCRIPTION_MAX, CATEGORY_TEXT.badDescription)
    .regex(NO_CONTROLS, CATEGORY_TEXT.badDescription)
    .default(""),
});

export type CategoryFields = z.output<typeof categoryFieldsSchema>;
