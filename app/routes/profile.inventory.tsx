import { data, type ShouldRevalidateFunction } from "react-router";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { inventoryFilterOf, profileInventoryContext, profileUserContext } from "#app/lib/profile-user.server.ts";
import { AUTH_REQUIRED } from "#core/messages/common.ts";
import { RETURN_ERRORS, returnedText } from "#core/messages/returns.ts";
import { positiveIdText } from "#core/schemas/common.ts";
import { getSessionUser } from "#worker/services/auth/sessions.ts";
import { listInventory } from "#worker/services/profile/inventory.ts";
import { returnPreview, returnPurchase } from "#worker/services/shop/return.ts";
import { groupServersByType, serversByType } from "#worker/services/shop/servers-of-type.ts";
import { InventoryFilters, InventoryHelp, InventoryList } from "../components/profile/inventory-list.tsx";
import { type ReturnActionResult, ReturnNotice } from "../components/profile/return-form.tsx";
import { skipPaymentParamRemoval } from "../components/profile/revalidate.ts";
import type { Route } from "./+types/profile.inventory";

// /profile: the Корзина, filtered by ?status=not_used|used.

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = context.get(profileUserContext);
  const filter = inventoryFilterOf(request);
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

// «Вернуть» on a card: the same service as POST /api/purchases/:id/return (decision 111).
export async function action({ context, request }: Route.ActionArgs) {
  const user = context.get(profileUserContext);
  if (!user) return data<ReturnActionResult>({ error: AUTH_REQUIRED }, { status: 401 });
  const form = await request.formData();
  const id = positiveIdText.safeParse(form.get("purchase_id"));
  if (form.get("intent") !== "return" || !id.success) {
    return data<ReturnActionResult>({ error: RETURN_ERRORS.badId }, { status: 400 });
  }
  const deps = context.get(depsContext);
  // Without JavaScript nothing asked yet: the page asks first, and «Да, вернуть» posts again (issue 36).
  if (form.get("confirmed") !== "1") {
    const preview = await returnPreview(deps, user.id, id.data);
    if (!preview.ok) return data<ReturnActionResult>({ error: preview.error }, { status: preview.status });
    const { purchaseId, itemName, amount } = preview;
    return data<ReturnActionResult>({ confirm: { purchaseId, itemName, amount } });
  }
  const result = await returnPurchase(deps, user.id, id.data);
  if (!result.ok) return data<ReturnActionResult>({ error: result.error }, { status: result.status });
  // A post without JavaScript renders the layout in this same request: show the new balance.
  context.set(profileUserContext, await getSessionUser(deps, request));
  return data<ReturnActionResult>({ success: returnedText(result.itemName, result.amount) });
}

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
