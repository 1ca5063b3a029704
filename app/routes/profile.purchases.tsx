import type { ShouldRevalidateFunction } from "react-router";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { profileUserContext } from "#app/lib/profile-user.server.ts";
import { listPurchases } from "#worker/services/profile/purchases.ts";
import { PurchaseTable } from "../components/profile/purchase-table.tsx";
import { skipPaymentParamRemoval } from "../components/profile/revalidate.ts";
import type { Route } from "./+types/profile.purchases";

// /purchases (and /history, the same page): the player's purchases, newest first.

export async function loader({ context }: Route.LoaderArgs) {
  const user = context.get(profileUserContext);
  return { purchases: user ? await listPurchases(context.get(depsContext), user.id) : [] };
}

export const shouldRevalidate: ShouldRevalidateFunction = skipPaymentParamRemoval;

export default function Purchases({ loaderData }: Route.ComponentProps) {
  return (
    <section className="profile-section" aria-labelledby="purchases-title">
      <h2 id="purchases-title">История покупок</h2>
      <PurchaseTable purchases={loaderData.purchases} />
    </section>
  );
}

export function ErrorBoundary() {
  return <p className="profile-empty profile-empty--error">Ошибка при получении истории покупок</p>;
}
