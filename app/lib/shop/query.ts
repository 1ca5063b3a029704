// The shop page keeps its whole state in the address: server type, category and
// search query, so it renders on the server and works without JavaScript.

export interface ShopQuery {
  server_type?: string | null;
  category_id?: number | null;
  query?: string | null;
}

export function shopUrl(state: ShopQuery): string {
  const params = new URLSearchParams();
  if (state.server_type) params.set("server_type", state.server_type);
  if (state.category_id) params.set("category_id", String(state.category_id));
  const query = state.query?.trim();
  if (query) params.set("query", query);
  const search = params.toString();
  return search ? `/shop?${search}` : "/shop";
}
