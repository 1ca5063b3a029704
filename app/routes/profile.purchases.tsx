import type { ShouldRevalidateFunction } from "react-router";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { profileUserContext } from "#app/lib/profile-user.server.ts";
import { returnAction } from "#app/lib/return-action.server.ts";
import { nextPageHref } from "#core/profile/page-cursor.ts";
import { pageCursorOf } from "#core/schemas/page-cursor.ts";
import { listPurchasesPage } from "#worker/services/profile/purchases.ts";
import { MoreLink } from "../components/profile/more-link.tsx";
import { PurchaseTable } from "../components/profile/purchase-table.tsx";
import { ReturnNotice } from "../components/profile/return-form.tsx";
import { skipPaymentParamRemoval } from "../components/profile/revalidate.ts";
import { rowsOfPages, useMorePages } from "../components/profile/use-more-pages.ts";
import type { Route } from "./+types/profile.purchases";

// /purchases (and /history, the same page): the player's purchases, newest first, a page at a time
// (?before=, decision 150).

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = context.get(profileUserContext);
  const deps = context.get(depsContext);
  const page = user ? await listPurchasesPage(deps, user.id, pageCursorOf(url)) : { purchases: [], next: null };
  return {
    purchases: page.purchases,
    now: deps.now().toISOString(),
    more: page.next ? nextPageHref(url.pathname, {}, page.next) : null,
  };
}

// «Вернуть» under a gift the friend hasn't received yet: its buyer takes it back (issue 36).
export const action = (args: Route.ActionArgs) => returnAction(args);

export const shouldRevalidate: ShouldRevalidateFunction = skipPaymentParamRemoval;

export default function Purchases({ loaderData, actionData }: Route.ComponentProps) {
  // With JavaScript, «Показать ещё» appends the next pages here (decision 156).
  const more = useMorePages(loaderData);
  const { rows, firstOfLastPage } = rowsOfPages([loaderData.purchases, ...more.pages.map((page) => page.purchases)]);
  return (
    <section className="profile-section" aria-labelledby="purchases-title">
      <h2 id="purchases-title">История покупок</h2>
      <ReturnNotice result={actionData} />
      <PurchaseTable purchases={rows} now={loaderData.now} focusId={firstOfLastPage} />
      <MoreLink href={more.more} loading={more.loading} onMore={more.onMore} />
    </section>
  );
}

export function ErrorBoundary() {
  return <p className="profile-empty profile-empty--error">Ошибка при получении истории покупок</p>;
}
