import type { Pagination } from "#core/shop/types.ts";
import { type ShopQuery, shopUrl } from "../../lib/shop/query.ts";
import { PageLinks } from "../page-links.tsx";

const PILLS = { nav: "pager pills", link: "pill", active: "pill--active", gap: "pager__status" };

/** Links to the other pages of the list: plain addresses with `?page=`, so they work without JavaScript. */
export function Pager({ pagination, query }: { pagination: Pagination; query: ShopQuery }) {
  const { page, pages, per_page } = pagination;
  return <PageLinks page={page} pages={pages} to={(n) => shopUrl({ ...query, page: n, per_page })} style={PILLS} />;
}
