import { type AnchorHTMLAttributes, useEffect } from "react";
import { useNavigate } from "react-router";

type SiteLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  /** A path of this site ("/shop?page=2"). */
  to: string;
  /** Keep the scroll position when the link navigates (filters and pages of the same list). */
  preventScrollReset?: boolean;
};

const KEEP_SCROLL = "keep-scroll";

/**
 * A link to a page of this site, as plain markup: React Router's <Link> runs several hooks per link
 * while the server renders a page, and a shop page has some twenty. `useSiteLinks` in the root makes
 * a click on one a client-side navigation once JavaScript runs; without it, it is an ordinary link.
 * `data-discover` lets React Router learn the route ahead of the click, as it does for its own links.
 */
export function SiteLink({ to, preventScrollReset, ...anchor }: SiteLinkProps) {
  return <a {...anchor} href={to} data-site-link={preventScrollReset ? KEEP_SCROLL : ""} data-discover="true" />;
}

/** A left click without a modifier: the only click a page handles itself; the others open tabs, as a browser does. */
export function isPlainClick(
  event: Pick<MouseEvent, "button" | "metaKey" | "ctrlKey" | "shiftKey" | "altKey">,
): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/** Routes clicks on every SiteLink through React Router, once, for the whole document. */
export function useSiteLinks(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      // A handler that took the click (the shop grid's) keeps it.
      if (event.defaultPrevented || !isPlainClick(event)) return;
      const link = event.target instanceof Element ? event.target.closest("a[data-site-link]") : null;
      if (!(link instanceof HTMLAnchorElement) || link.target || link.hasAttribute("download")) return;
      event.preventDefault();
      void navigate(link.getAttribute("href") ?? "/", { preventScrollReset: link.dataset.siteLink === KEEP_SCROLL });
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate]);
}
