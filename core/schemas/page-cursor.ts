import { z } from "zod";
import type { PageCursor } from "../profile/page-cursor.ts";

// The `?before=` of a player's own list (decision 150). A cursor that doesn't parse is ignored: the
// list starts at its first page, as a bad Корзина `status` shows all. A cursor is only a position in
// the list's order; every read is the player's own, so another player's cursor shows nothing of theirs.
const cursorSchema = z
  .string()
  .regex(/^\d{1,15}-\d{1,15}$/)
  .transform((text): PageCursor => {
    const [createdAt, id] = text.split("-").map(Number) as [number, number];
    return { createdAt, id };
  })
  .refine((cursor) => Number.isSafeInteger(cursor.createdAt) && Number.isSafeInteger(cursor.id))
  .nullable()
  .catch(null);

/** The cursor a page's address names (`?before=`), or null for the first page. */
export function pageCursorOf(url: URL): PageCursor | null {
  return cursorSchema.parse(url.searchParams.get("before"));
}
