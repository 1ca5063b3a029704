import { PageLinks } from "../page-links.tsx";

const CHIPS = {
  nav: "profile-filter profile-pager",
  link: "profile-chip",
  active: "profile-chip--active",
  gap: "profile-pager__gap",
};

/** A profile history's other pages: plain `?page=` links, so they work without JavaScript. */
export function HistoryPager({ path, page, pages }: { path: string; page: number; pages: number }) {
  return (
    <PageLinks page={page} pages={pages} to={(n) => (n === 1 ? path : `${path}?page=${n}`)} style={CHIPS} keepScroll />
  );
}
