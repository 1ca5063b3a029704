import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("terms", "routes/terms.tsx"),
  route("balance", "routes/balance.tsx"),
  route("wipes", "routes/wipes.tsx"),
  route("auth-success", "routes/auth-success.tsx"),
  route("logout", "routes/logout.tsx"),
  route("shop", "routes/shop.tsx"),
  route("shop/items/:id", "routes/shop.item.tsx"),
  // The player's corner: one layout (info panel + tabs), each tab its own address.
  layout("routes/profile.tsx", [
    route("profile", "routes/profile.inventory.tsx"),
    route("promocodes", "routes/profile.promocodes.tsx"),
    route("purchases", "routes/profile.purchases.tsx"),
    route("history", "routes/profile.history.tsx"),
    route("deposits", "routes/profile.deposits.tsx"),
    route("statement", "routes/profile.statement.tsx"),
  ]),
  // The operator console: every loader and action checks the role; strangers get the 404 above's twin.
  // Nested under one "admin" path, so matching any other address rejects the console's fifteen
  // routes at their first segment (React Router matches every request's path four times).
  route("admin", "routes/admin.tsx", [
    index("routes/admin.index.tsx"),
    route("players", "routes/admin.players.tsx"),
    route("players/:steamId", "routes/admin.player.tsx"),
    route("audit", "routes/admin.audit.tsx"),
    route("items", "routes/admin.items.tsx"),
    route("items/:id", "routes/admin.item.tsx"),
    route("categories", "routes/admin.categories.tsx"),
    route("deliveries", "routes/admin.deliveries.tsx"),
    route("promos", "routes/admin.promos.tsx"),
    route("sales", "routes/admin.sales.tsx"),
    route("servers", "routes/admin.servers.tsx"),
    route("payments", "routes/admin.payments.tsx"),
    route("exports", "routes/admin.exports.tsx"),
    route("discord", "routes/admin.discord.tsx"),
    route("settings", "routes/admin.settings.tsx"),
  ]),
  // The CSV download itself: a resource route (no layout, no page), posted to by a plain form.
  route("admin/exports/csv", "routes/admin.exports-csv.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
