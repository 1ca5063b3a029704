import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("terms", "routes/terms.tsx"),
  route("balance", "routes/balance.tsx"),
  route("auth-success", "routes/auth-success.tsx"),
  route("logout", "routes/logout.tsx"),
  route("shop", "routes/shop.tsx"),
  route("shop/items/:id", "routes/shop.item.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
