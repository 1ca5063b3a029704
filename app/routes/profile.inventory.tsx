import type { ShouldRevalidateFunction } from "react-router";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { inventoryFilterOf, profileInventoryContext, profileUserContext } from "#app/lib/profile-user.server.ts";
import { returnAction } from "#app/lib/return-action.server.ts";
import { listInventory } from "#worker/services/profile/inventory.ts";
import { groupServersByType, serversByType } from "#worker/services/shop/servers-of-type.ts";
import { InventoryFilters, InventoryHelp, InventoryList } from "../components/profile/inventory-list.tsx";
import { ReturnNotice } from "../components/profile/return-form.tsx";
import { skipPaymentParamRemoval } from "../components/profile/revalidate.ts";
import type { Route } from "./+types/profile.inventory";

// /profile: the Корзина, filtered by ?status=not_used|used.

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = context.get(profileUserContext);
  const filter = inventoryFilterOf(url);
  const deps = context.get(depsContext);
  // Usually read already, with the session, by the layout's middleware (decision 112).
  const prefetched = context.get(profileInventoryContext);
  const ready = user && prefetched?.filter === filter ? prefetched : null;
  const items = ready ? ready.items : user ? await listInventory(deps, user.id, filter) : [];
  // The servers of each type something waits on: the card links to each with steam://connect.
  const waitingTypes = [...new Set(items.filter((item) => item.status === "not_used").map((item) => item.server_type))];
  const servers = ready
    ? groupServersByType(ready.servers, waitingTypes)
    : waitingTypes.length > 0
      ? await serversByType(deps, waitingTypes)
      : {};
  return { filter, items, servers, now: deps.now().toISOString() };
}

// «Вернуть» on a card (decision 111; asked first without JavaScript, issue 36).
export const action = (args: Route.ActionArgs) => returnAction(args);

export const shouldRevalidate: ShouldRevalidateFunction = skipPaymentParamRemoval;

export default function Inventory({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="profile-section" aria-labelledby="inventory-title">
      <h2 id="inventory-title">Корзина</h2>
      <InventoryHelp />
      <ReturnNotice result={actionData} />
      <InventoryFilters current={loaderData.filter} />
      <InventoryList items={loaderData.items} now={loaderData.now} servers={loaderData.servers} />
    </section>
  );
}

export function ErrorBoundary() {
  return <p className="profile-empty profile-empty--error">Ошибка при получении инвентаря</p>;
}
