import type { ShouldRevalidateFunction } from "react-router";
import { z } from "zod";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { profileUserContext } from "#app/lib/profile-user.server.ts";
import { INVENTORY_FILTERS } from "#core/profile/types.ts";
import { listInventory } from "#worker/services/profile/inventory.ts";
import { serversByType } from "#worker/services/shop/servers-of-type.ts";
import { InventoryFilters, InventoryHelp, InventoryList } from "../components/profile/inventory-list.tsx";
import { skipPaymentParamRemoval } from "../components/profile/revalidate.ts";
import type { Route } from "./+types/profile.inventory";

// /profile: the Корзина, filtered by ?status=not_used|used.

const filterSchema = z.enum(INVENTORY_FILTERS).catch("all");

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = context.get(profileUserContext);
  const filter = filterSchema.parse(new URL(request.url).searchParams.get("status") ?? "all");
  const deps = context.get(depsContext);
  const items = user ? await listInventory(deps, user.id, filter) : [];
  // The servers of each type something waits on: the card links to each with steam://connect.
  const waitingTypes = [...new Set(items.filter((item) => item.status === "not_used").map((item) => item.server_type))];
  return {
    filter,
    items,
    servers: waitingTypes.length > 0 ? await serversByType(deps, waitingTypes) : {},
    now: deps.now().toISOString(),
  };
}

export const shouldRevalidate: ShouldRevalidateFunction = skipPaymentParamRemoval;

export default function Inventory({ loaderData }: Route.ComponentProps) {
  return (
    <section className="profile-section" aria-labelledby="inventory-title">
      <h2 id="inventory-title">Корзина</h2>
      <InventoryHelp />
      <InventoryFilters current={loaderData.filter} />
      <InventoryList items={loaderData.items} now={loaderData.now} servers={loaderData.servers} />
    </section>
  );
}

export function ErrorBoundary() {
  return <p className="profile-empty profile-empty--error">Ошибка при получении инвентаря</p>;
}
