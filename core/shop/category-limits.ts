// A category's field lengths: the console's form sets them as maxLength, and the schema checks them
// (core/schemas/category.ts). Apart from the schema, so the page's browser code doesn't take in zod.

export const CATEGORY_NAME_MAX = 60;
export const CATEGORY_DESCRIPTION_MAX = 300;
