import type { Pagination } from "#core/shop/types.ts";
import { type ShopQuery, shopUrl } from "../../lib/shop/query.ts";
import { SiteLink } from "../site-link.tsx";

/** Page numbers to show: the first, the last, and two either side of the current one. */
function pageNumbers(page: number, pages: number): (number | "gap")[] {
  const shown: (number | "gap")[] = [];
  for (let n = 1; n <= pages; n++) {
    if (n === 1 || n === pages || Math.abs(n - page) <= 2) shown.push(n);
    else if (shown.at(-1) !== "gap") shown.push("gap");
  }
  return shown;
}

/** Links to the other pages of the list: plain addresses with `?page=`, so they work without JavaScript. */
export function Pager({ pagination, query }: { pagination: Pagination; query: ShopQuery }) {
  const { page, pages, per_page } = pagination;
  if (pages <= 1) return null;
  const to = (n: number) => shopUrl({ ...query, page: n, per_page });
  return (
    <nav className="pager pills" aria-label="Страницы">
      {page > 1 ? (
        <SiteLink to={to(page - 1)} className="pill" rel="prev">
          ← Назад
        </SiteLink>
      ) : null}
      {pageNumbers(page, pages).map((n, index) =>
        n === "gap" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity but their place
          <span key={`gap-${index}`} className="pager__status">
            …
          </span>
        ) : (
          <SiteLink
            key={n}
            to={to(n)}
            className={n === page ? "pill pill--active" : "pill"}
            aria-current={n === page ? "page" : undefined}
            aria-label={`Страница ${n}`}
          >
            {n}
          </SiteLink>
        ),
      )}
      {page < pages ? (
        <SiteLink to={to(page + 1)} className="pill" rel="next">
          Дальше →
        </SiteLink>
      ) : null}
    </nav>
  );
}
