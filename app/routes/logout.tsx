import { redirect } from "react-router";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { logout } from "#worker/services/auth/logout.ts";
import type { Route } from "./+types/logout";

// The header's «Выйти» form posts here; it works without JavaScript. Signing
// out revokes the session row, so the bearer token dies with the cookie.
export async function action({ request, context }: Route.ActionArgs) {
  const clearCookie = await logout(context.get(depsContext), request);
  throw redirect("/", { headers: { "Set-Cookie": clearCookie, "Cache-Control": "no-store" } });
}

// Signing out is a POST; a plain visit just goes home.
export function loader() {
  throw redirect("/");
}
