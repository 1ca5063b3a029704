import { createContext, redirectDocument } from "react-router";
import { signInHref } from "#core/auth/sign-in.ts";
import type { Deps } from "#worker/deps.ts";
import { isSafeMethod } from "#worker/http-methods.ts";
import { getSessionUser, type SessionUser } from "#worker/services/auth/sessions.ts";

/** The signed-in player for the profile pages, looked up once per request by their layout's middleware. */
export const profileUserContext = createContext<SessionUser | null>(null);

/**
 * Reads the session for a profile page. Reading a page signed out goes to Steam sign-in
 * (a full-document redirect: /api is not a page). A form post signed out is left to the
 * action, which answers «Необходима авторизация».
 */
export async function loadProfileUser(deps: Pick<Deps, "db" | "config" | "now">, request: Request) {
  const user = await getSessionUser(deps, request);
  if (!user && isSafeMethod(request.method)) {
    const url = new URL(request.url);
    // Client navigations fetch "<path>.data"; the player should come back to the page itself.
    const path = url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/") || "/";
    url.searchParams.delete("_routes");
    throw redirectDocument(signInHref(`${path}${url.search}`), 302);
  }
  return user;
}
