import { createContext, redirectDocument } from "react-router";
import { z } from "zod";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { type PageArgs, pageRequest } from "#app/lib/page-request.server.ts";
import { signInHref } from "#core/auth/sign-in.ts";
import type { PageCursor } from "#core/profile/page-cursor.ts";
import { INVENTORY_FILTERS, type InventoryFilter } from "#core/profile/types.ts";
import { pageCursorOf } from "#core/schemas/page-cursor.ts";
import { isSafeMethod } from "#worker/http-methods.ts";
import { getSessionUserWith, type SessionUser } from "#worker/services/auth/sessions.ts";
import { type InventoryPage, sessionInventoryPageReads, toInventoryPage } from "#worker/services/profile/inventory.ts";
import { allServersRead, type ServerRow } from "#worker/services/shop/servers-of-type.ts";

/** The signed-in player for the profile pages, looked up once per request by their layout's middleware. */
export const profileUserContext = createContext<SessionUser | null>(null);

/**
 * Reads the session for a profile page. Reading a page signed out goes to Steam sign-in
 * (a full-document redirect: /api is not a page). A form post signed out is left to the
 * action, which answers «Необходима авторизация».
 */
export async function loadProfileUser(args: PageArgs) {
  return signedInOrSignIn(await pageRequest(args).user(), args);
}

function signedInOrSignIn(user: SessionUser | null, args: PageArgs): SessionUser | null {
  if (!user && isSafeMethod(args.request.method)) {
    throw redirectDocument(signInHref(pageRequest(args).path), 302);
  }
  return user;
}

const filterSchema = z.enum(INVENTORY_FILTERS).catch("all");

/** The Корзина's filter a /profile address asks for (?status=not_used|used), else all. */
export function inventoryFilterOf(url: URL): InventoryFilter {
  return filterSchema.parse(url.searchParams.get("status") ?? "all");
}

/** The Корзина's page an address asks for: its filter and where the page starts (`?before=`, decision 150). */
export function inventoryPageOf(url: URL): { filter: InventoryFilter; cursor: PageCursor | null } {
  return { filter: inventoryFilterOf(url), cursor: pageCursorOf(url) };
}

/** The Корзина read with the session, for the /profile page's loader; null when it wasn't. */
export interface PrefetchedInventory {
  filter: InventoryFilter;
  cursor: PageCursor | null;
  page: InventoryPage;
  servers: ServerRow[];
}

export const profileInventoryContext = createContext<PrefetchedInventory | null>(null);

/** A read of /profile itself (the Корзина), as a document or as a client navigation's data. */
export function isInventoryPage({ request, url }: PageArgs): boolean {
  return isSafeMethod(request.method) && url.pathname === "/profile";
}

/**
 * `loadProfileUser` for /profile: the session, the Корзина and the servers it links to in one
 * database round trip (decision 112), not one for the session and then one or two for the page.
 */
export async function loadProfileUserAndInventory(args: PageArgs) {
  const deps = args.context.get(depsContext);
  const { filter, cursor } = inventoryPageOf(args.url);
  const { user, reads } = await getSessionUserWith(
    deps,
    args.request,
    (key) => [...sessionInventoryPageReads(key, filter, cursor), allServersRead()] as const,
  );
  signedInOrSignIn(user, args);
  const inventory: PrefetchedInventory | null =
    user && reads
      ? {
          filter,
          cursor,
          page: toInventoryPage([reads[0], reads[1]], deps.now().getTime()),
          servers: reads[2],
        }
      : null;
  return { user, inventory };
}
