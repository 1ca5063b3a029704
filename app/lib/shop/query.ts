// The shop page keeps its whole state in the address: server type, category, search query and
// page, so it renders on the server and works without JavaScript.
import { SHOP_PAGE_SIZE } from "#core/shop/pagination.ts";

export interface ShopQuery {
  server_type?: string | null;
  category_id?: number | null;
  query?: string | null;
  /** 1 (the default) is left out of the address. */
  page?: number | null;
  /** The page size; SHOP_PAGE_SIZE (the default) is left out. */
  per_page?: number | null;
}

export function shopUrl(state: ShopQuery): string {
  const params = new URLSearchParams();
  if (state.server_type) params.set("server_type", state.server_type);
  if (state.category_id) params.set("category_id", String(state.category_id));
  const query = state.query?.trim();
  if (query) params.set("query", query);
  if (state.page && state.page > 1) params.set("page", String(state.page));
  if (state.per_page && state.per_page !== SHOP_PAGE_SIZE) params.set("per_page", String(state.per_page));
  const search = params.toString();
  return search ? `/shop?${search}` : "/shop";
}
