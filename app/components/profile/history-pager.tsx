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

/** A profile history's other pages: plain `?page=` links, so they work without JavaScript. */
export function HistoryPager({ path, page, pages }: { path: string; page: number; pages: number }) {
  if (pages <= 1) return null;
  const to = (n: number) => (n === 1 ? path : `${path}?page=${n}`);
  return (
    <nav className="profile-filter profile-pager" aria-label="Страницы">
      {page > 1 ? (
        <SiteLink to={to(page - 1)} className="profile-chip" rel="prev" preventScrollReset>
          ← Назад
        </SiteLink>
      ) : null}
      {pageNumbers(page, pages).map((n, index) =>
        n === "gap" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity but their place
          <span key={`gap-${index}`} className="profile-pager__gap">
            …
          </span>
        ) : (
          <SiteLink
            key={n}
            to={to(n)}
            className={n === page ? "profile-chip profile-chip--active" : "profile-chip"}
            aria-current={n === page ? "page" : undefined}
            aria-label={`Страница ${n}`}
            preventScrollReset
          >
            {n}
          </SiteLink>
        ),
      )}
      {page < pages ? (
        <SiteLink to={to(page + 1)} className="profile-chip" rel="next" preventScrollReset>
          Дальше →
        </SiteLink>
      ) : null}
    </nav>
  );
}
