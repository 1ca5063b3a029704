import type { ShouldRevalidateFunction } from "react-router";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { profileUserContext } from "#app/lib/profile-user.server.ts";
import { listDeposits } from "#worker/services/profile/deposits.ts";
import { DepositTable } from "../components/profile/deposit-table.tsx";
import { skipPaymentParamRemoval } from "../components/profile/revalidate.ts";
import type { Route } from "./+types/profile.deposits";

// /deposits: the player's top-ups, newest first.

export async function loader({ context }: Route.LoaderArgs) {
  const user = context.get(profileUserContext);
  return { deposits: user ? await listDeposits(context.get(depsContext), user.id) : [] };
}

export const shouldRevalidate: ShouldRevalidateFunction = skipPaymentParamRemoval;

export default function Deposits({ loaderData }: Route.ComponentProps) {
  return (
    <section className="profile-section" aria-labelledby="deposits-title">
      <h2 id="deposits-title">Пополнения</h2>
      <DepositTable deposits={loaderData.deposits} />
    </section>
  );
}

export function ErrorBoundary() {
  return <p className="profile-empty profile-empty--error">Не удалось загрузить историю платежей</p>;
}
