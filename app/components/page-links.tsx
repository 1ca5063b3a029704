import { SiteLink } from "./site-link.tsx";

/** Page numbers to show: the first, the last, and two either side of the current one. */
function pageNumbers(page: number, pages: number): (number | "gap")[] {
  const shown: (number | "gap")[] = [];
  for (let n = 1; n <= pages; n++) {
    if (n === 1 || n === pages || Math.abs(n - page) <= 2) shown.push(n);
    else if (shown.at(-1) !== "gap") shown.push("gap");
  }
  return shown;
}

/** The class names of one list's pager: the shop's pills or the profile's chips. */
export interface PageLinkStyle {
  nav: string;
  link: string;
  active: string;
  gap: string;
}

/** Links to a list's other pages: plain addresses, so they work without JavaScript. */
export function PageLinks({
  page,
  pages,
  to,
  style,
  keepScroll = false,
}: {
  page: number;
  pages: number;
  to: (page: number) => string;
  style: PageLinkStyle;
  /** Stay where the reader is (a history below the profile's header), not at the top. */
  keepScroll?: boolean;
}) {
  if (pages <= 1) return null;
  return (
    <nav className={style.nav} aria-label="Страницы">
      {page > 1 ? (
        <SiteLink to={to(page - 1)} className={style.link} rel="prev" preventScrollReset={keepScroll}>
          ← Назад
        </SiteLink>
      ) : null}
      {pageNumbers(page, pages).map((n, index) =>
        n === "gap" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity but their place
          <span key={`gap-${index}`} className={style.gap}>
            …
          </span>
        ) : (
          <SiteLink
            key={n}
            to={to(n)}
            className={n === page ? `${style.link} ${style.active}` : style.link}
            aria-current={n === page ? "page" : undefined}
            aria-label={`Страница ${n}`}
            preventScrollReset={keepScroll}
          >
            {n}
          </SiteLink>
        ),
      )}
      {page < pages ? (
        <SiteLink to={to(page + 1)} className={style.link} rel="next" preventScrollReset={keepScroll}>
          Дальше →
        </SiteLink>
      ) : null}
    </nav>
  );
}
