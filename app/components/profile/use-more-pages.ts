import { type MouseEvent, useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { isPlainClick } from "../site-link.tsx";

/** What a paged list's loader answers (decision 150): its rows and the next page's address, or null. */
export interface ListPage {
  more: string | null;
}

export interface MorePages<Page extends ListPage> {
  /** The pages appended under the first one, in order. */
  pages: Page[];
  /** The address of the page after the last one shown, or null after the last page. */
  more: string | null;
  loading: boolean;
  /** «Показать ещё»'s click: with JavaScript, loads the next page and appends it (decision 156). */
  onMore: (event: MouseEvent<HTMLAnchorElement>) => void;
}

/**
 * «Показать ещё» with JavaScript (decision 156): the next page's loader is read by a fetcher (the same
 * `?before=` address the plain link navigates to without JavaScript) and its page is kept under the
 * ones shown. A click while a page loads does nothing, so no page comes twice. When the route's own
 * data changes (a filter, a return's revalidation) the pages appended under the old one are dropped:
 * they continued a list that is no longer the one shown.
 */
export function useMorePages<Page extends ListPage>(first: Page): MorePages<Page> {
  const fetcher = useFetcher<Page>();
  const [appended, setAppended] = useState<{ under: Page; pages: Page[] }>({ under: first, pages: [] });
  // The load this list asked for, and under which first page: an answer that arrives after the first
  // page changed is not appended.
  const asked = useRef<{ under: Page } | null>(null);
  const pages = appended.under === first ? appended.pages : [];
  const more = pages.length > 0 ? (pages[pages.length - 1]?.more ?? null) : first.more;

  useEffect(() => {
    const request = asked.current;
    if (!request || fetcher.state !== "idle" || fetcher.data === undefined) return;
    asked.current = null;
    // The same loader's answer as the route's own `loaderData`, serialized the same way.
    const page = fetcher.data as Page;
    // Emptied, so an action's revalidation doesn't read it again and the next load's answer is new.
    fetcher.reset();
    if (request.under !== first) return;
    setAppended((shown) => ({ under: first, pages: shown.under === first ? [...shown.pages, page] : [page] }));
  }, [fetcher, first]);

  const onMore = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!isPlainClick(event) || !more) return;
    // The document's SiteLink handler leaves a click taken here alone (`defaultPrevented`).
    event.preventDefault();
    if (asked.current) return;
    asked.current = { under: first };
    void fetcher.load(more);
  };

  return { pages, more, loading: fetcher.state !== "idle", onMore };
}

/** The rows of every page shown, each once (an entry that stopped running between two pages is on both). */
export function rowsOfPages<Row extends { id: number }>(
  pages: Row[][],
): { rows: Row[]; firstOfLastPage: number | null } {
  const seen = new Set<number>();
  const rows: Row[] = [];
  let firstOfLastPage: number | null = null;
  pages.forEach((page, index) => {
    for (const row of page) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      rows.push(row);
      if (index > 0 && index === pages.length - 1 && firstOfLastPage === null) firstOfLastPage = row.id;
    }
  });
  return { rows, firstOfLastPage };
}

/** A ref that moves focus to the element it is put on when that element mounts (the first row appended). */
export function focusOnMount(element: HTMLElement | null): void {
  element?.focus();
}
