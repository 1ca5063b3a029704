import { createContext, type RouterContextProvider } from "react-router";
import { depsContext } from "#app/lib/deps-context.server.ts";
import type { SessionUser } from "#core/auth/session-user.ts";
import { type PagePlayer, pagePlayer } from "#core/profile/player.ts";
import { getSessionUser } from "#worker/services/auth/sessions.ts";

/**
 * What the middleware, the action and every loader of one page request share, worked out once, by
 * whichever of them asks first (docs/routing.md, «One page request, worked out once»):
 * - `url`: the page's address as React Router hands it to loaders, normalized: never the
 *   "<path>.data" or `_routes` of a client navigation's data request, so nothing here strips them;
 * - `path`: that address's path and query, where sign-in brings the player back to;
 * - `user()`: the signed-in player. A GET looks the session up once for all of them (and shares the
 *   lookup a layout's middleware batched with its page's reads, decision 112); a form post looks it
 *   up again when asked, since its action may have changed the balance the page then shows;
 * - `player()`: what the header and the profile's info panel show of the player, built once, after
 *   the action when there is one (loaders run after it).
 */
export interface PageRequest {
  readonly url: URL;
  readonly path: string;
  user(): Promise<SessionUser | null>;
  player(): Promise<PagePlayer | null>;
}

/** What React Router hands every middleware, loader and action. */
export interface PageArgs {
  context: Readonly<RouterContextProvider>;
  request: Request;
  url: URL;
}

const pageRequestContext = createContext<PageRequest | null>(null);

/** This request's `PageRequest`: made by the first caller, the same object for every later one. */
export function pageRequest({ context, request, url }: PageArgs): PageRequest {
  const known = context.get(pageRequestContext);
  if (known) return known;
  const deps = context.get(depsContext);
  let player: Promise<PagePlayer | null> | null = null;
  const made: PageRequest = {
    url,
    path: `${url.pathname}${url.search}`,
    user: () => getSessionUser(deps, request),
    player: () => {
      player ??= made.user().then(pagePlayer);
      return player;
    },
  };
  // Loaders are handed the context read-only in their types; it is the request's one provider.
  (context as RouterContextProvider).set(pageRequestContext, made);
  return made;
}
