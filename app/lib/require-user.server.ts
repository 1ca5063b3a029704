// Loader and action helpers for pages that need a signed-in player.
import { type RouterContextProvider, redirect } from "react-router";
import { depsContext } from "#worker/router-context.ts";
import { getSessionUser, type SessionUser } from "#worker/services/auth/sessions.ts";

interface Args {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

/** Where a signed-out visitor of `request`'s page goes: Steam sign-in, coming back to the same page. */
export function signInUrl(request: Request): string {
  const url = new URL(request.url);
  return `/api/auth/steam?return_to=${encodeURIComponent(`${url.pathname}${url.search}`)}`;
}

/** The signed-in player (session cookie or bearer token), or null. */
export async function getOptionalUser({ request, context }: Args): Promise<SessionUser | null> {
  return getSessionUser(context.get(depsContext), request);
}

/** The signed-in player; a signed-out visitor is redirected to Steam sign-in and brought back afterwards. */
export async function requireUser(args: Args): Promise<SessionUser> {
  const user = await getOptionalUser(args);
  if (!user) throw redirect(signInUrl(args.request));
  return user;
}
