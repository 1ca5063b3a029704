// Where the next page of a player's own list starts (decision 150): the last row shown, by the key the
// list is ordered by, (created_at, id), newest first. Written into a plain `?before=` link, so the next
// page works without JavaScript. The browser imports this; the parsing with zod is core/schemas/page-cursor.ts.

export interface PageCursor {
  /** The last row's created_at (ms). */
  createdAt: number;
  id: number;
}

/** Rows on one page of the Корзина's history and of /purchases. */
export const PROFILE_PAGE_SIZE = 20;

/** The `before` search parameter of a cursor: «1764400000000-123». */
export function cursorText(cursor: PageCursor): string {
  return `${cursor.createdAt}-${cursor.id}`;
}

/** Whether two addresses name the same page (both the first, or the same cursor). */
export function sameCursor(a: PageCursor | null, b: PageCursor | null): boolean {
  return (a ? cursorText(a) : null) === (b ? cursorText(b) : null);
}

/** `path` with `?before=` (its other parameters kept, e.g. the Корзина's `status`). */
export function nextPageHref(path: string, params: Record<string, string | undefined>, cursor: PageCursor): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.set(name, value);
  search.set("before", cursorText(cursor));
  return `${path}?${search.toString()}`;
}

/** The newest-first page of `rows` read with one row over `size`: the rows shown and where the next page starts. */
export function pageOf<Row extends { createdAt: number; id: number }>(
  rows: readonly Row[],
  size = PROFILE_PAGE_SIZE,
): { rows: Row[]; next: PageCursor | null } {
  const shown = rows.slice(0, size);
  const last = shown[shown.length - 1];
  return { rows: shown, next: rows.length > size && last ? { createdAt: last.createdAt, id: last.id } : null };
}
