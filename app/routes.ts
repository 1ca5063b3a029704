import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("terms", "routes/terms.tsx"),
  route("balance", "routes/balance.tsx"),
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
  layout("routes/admin.tsx", [
    route("admin", "routes/admin.index.tsx"),
    route("admin/players", "routes/admin.players.tsx"),
    route("admin/players/:steamId", "routes/admin.player.tsx"),
    route("admin/audit", "routes/admin.audit.tsx"),
    route("admin/items", "routes/admin.items.tsx"),
    route("admin/items/:id", "routes/admin.item.tsx"),
    route("admin/deliveries", "routes/admin.deliveries.tsx"),
    route("admin/promos", "routes/admin.promos.tsx"),
    route("admin/sales", "routes/admin.sales.tsx"),
    route("admin/servers", "routes/admin.servers.tsx"),
    route("admin/payments", "routes/admin.payments.tsx"),
    route("admin/exports", "routes/admin.exports.tsx"),
    route("admin/discord", "routes/admin.discord.tsx"),
    route("admin/settings", "routes/admin.settings.tsx"),
  ]),
  // The CSV download itself: a resource route (no layout, no page), posted to by a plain form.
  route("admin/exports/csv", "routes/admin.exports-csv.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
