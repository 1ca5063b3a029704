import type { ShouldRevalidateFunction } from "react-router";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { inventoryPageOf, profileInventoryContext, profileUserContext } from "#app/lib/profile-user.server.ts";
import { returnAction } from "#app/lib/return-action.server.ts";
import { nextPageHref, sameCursor } from "#core/profile/page-cursor.ts";
import { listInventoryPage } from "#worker/services/profile/inventory.ts";
import { groupServersByType, serversByType } from "#worker/services/shop/servers-of-type.ts";
import { InventoryFilters, InventoryHelp, InventoryList } from "../components/profile/inventory-list.tsx";
import { MoreLink } from "../components/profile/more-link.tsx";
import { ReturnNotice } from "../components/profile/return-form.tsx";
import { skipPaymentParamRemoval } from "../components/profile/revalidate.ts";
import { rowsOfPages, useMorePages } from "../components/profile/use-more-pages.ts";
import type { Route } from "./+types/profile.inventory";

// /profile: the Корзина, filtered by ?status=not_used|used; what waits and what runs first, then the
// rest a page at a time (?before=, decision 150).

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = context.get(profileUserContext);
  const { filter, cursor } = inventoryPageOf(url);
  const deps = context.get(depsContext);
  // Usually read already, with the session, by the layout's middleware (decision 112).
  const prefetched = context.get(profileInventoryContext);
  const ready = user && prefetched?.filter === filter && sameCursor(prefetched.cursor, cursor) ? prefetched : null;
  const { items, next } = ready
    ? ready.page
    : user
      ? await listInventoryPage(deps, user.id, filter, cursor)
      : { items: [], next: null };
  // The servers of each type something waits on: the card links to each with steam://connect.
  const waitingTypes = [...new Set(items.filter((item) => item.status === "not_used").map((item) => item.server_type))];
  const servers = ready
    ? groupServersByType(ready.servers, waitingTypes)
    : waitingTypes.length > 0
      ? await serversByType(deps, waitingTypes)
      : {};
  return {
    filter,
    items,
    servers,
    now: deps.now().toISOString(),
    // The next page's address, kept filtered.
    more: next ? nextPageHref("/profile", { status: filter === "all" ? undefined : filter }, next) : null,
  };
}

// «Вернуть» on a card (decision 111; asked first without JavaScript, issue 36).
export const action = (args: Route.ActionArgs) => returnAction(args);

export const shouldRevalidate: ShouldRevalidateFunction = skipPaymentParamRemoval;

export default function Inventory({ loaderData, actionData }: Route.ComponentProps) {
  // With JavaScript, «Показать ещё» appends the next pages here (decision 156).
  const more = useMorePages(loaderData);
  const { rows, firstOfLastPage } = rowsOfPages([loaderData.items, ...more.pages.map((page) => page.items)]);
  const servers = Object.assign({}, loaderData.servers, ...more.pages.map((page) => page.servers));
  return (
    <section className="profile-section" aria-labelledby="inventory-title">
      <h2 id="inventory-title">Корзина</h2>
      <InventoryHelp />
      <ReturnNotice result={actionData} />
      <InventoryFilters current={loaderData.filter} />
      <InventoryList items={rows} now={loaderData.now} servers={servers} focusId={firstOfLastPage} />
      <MoreLink href={more.more} loading={more.loading} onMore={more.onMore} />
    </section>
  );
}

export function ErrorBoundary() {
  return <p className="profile-empty profile-empty--error">Ошибка при получении инвентаря</p>;
}
