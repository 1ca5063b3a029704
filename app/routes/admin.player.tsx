import { data, redirect } from "react-router";
import { z } from "zod";
import { invalidForm, refused } from "#app/lib/admin/console-answers.server.ts";
import { requireOperator } from "#app/lib/admin/operator.server.ts";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { ADMIN_TEXT } from "#core/messages/admin.ts";
import type { Deps } from "#worker/deps.ts";
import {
  type AdminResult,
  adjustBalance,
  adjustBalanceSchema,
  blockSchema,
  setPurchasesBlocked,
} from "#worker/services/admin/balance.ts";
import { playerDetail } from "#worker/services/admin/players.ts";
import { refundPurchase, refundSchema } from "#worker/services/admin/refund.ts";
import { allows } from "#worker/services/admin/roles.ts";
import { ActionNotice } from "../components/admin/action-notice.tsx";
import { formatKopecks, formatMoment } from "../components/admin/format.ts";
import { AdjustBalanceForm, BlockForm } from "../components/admin/player-forms.tsx";
import {
  DeliveriesTable,
  InventoryTable,
  LedgerTable,
  PaymentsTable,
  PurchasesTable,
} from "../components/admin/player-tables.tsx";
import type { Route } from "./+types/admin.player";

// /admin/players/:steamId: one player's money, purchases, Корзина, deliveries and top-ups,
// with the operator's actions on them (each one batch with its journal row).

const steamIdSchema = z.string().regex(/^\d{17}$/);

async function loadPlayer(deps: Deps, steamId: string) {
  const detail = await playerDetail(deps, steamId);
  if (!detail) throw data(null, { status: 404 });
  return detail;
}

export async function loader({ context, params, request, url }: Route.LoaderArgs) {
  const operator = await requireOperator(context, request, "players");
  const steamId = steamIdSchema.safeParse(params.steamId);
  if (!steamId.success) throw data(null, { status: 404 });
  const detail = await loadPlayer(context.get(depsContext), steamId.data);
  const done = doneSchema.parse(url.searchParams.get("done") ?? undefined);
  return {
    ...detail,
    done: done ? SUCCESS[done] : null,
    can: {
      adjust: allows(operator, "adjustBalance"),
      block: allows(operator, "blockPlayer"),
      refund: allows(operator, "refund"),
    },
  };
}

const SUCCESS = {
  adjust: "Баланс изменён",
  blocked: "Покупки игрока заблокированы",
  unblocked: "Покупки игрока разблокированы",
  refund: "Покупка возвращена: деньги на балансе игрока",
} as const;

const doneSchema = z
  .enum(Object.keys(SUCCESS) as [keyof typeof SUCCESS])
  .optional()
  .catch(undefined);

/**
 * A success goes back to the page by GET (post/redirect/get), so reloading it never repeats the
 * money movement; the message rides in ?done=. A refusal answers the post itself.
 */
function answer(steamId: string, result: AdminResult, done: keyof typeof SUCCESS, form: string) {
  // Built from the route, not the request: a JavaScript submit posts to "<path>.data".
  if (result.ok) return redirect(`/admin/players/${steamId}?done=${done}`);
  return refused(result.error, result.status, form);
}

export async function action({ context, params, request }: Route.ActionArgs) {
  // No role, no hint: the same 404 before the form is even read.
  await requireOperator(context, request, "players");
  const deps = context.get(depsContext);
  const form = Object.fromEntries(await request.formData());
  const steamId = steamIdSchema.safeParse(params.steamId);
  if (!steamId.success) throw data(null, { status: 404 });
  const { user } = await loadPlayer(deps, steamId.data);

  switch (form.intent) {
    case "adjust": {
      const operator = await requireOperator(context, request, "adjustBalance");
      const input = adjustBalanceSchema.safeParse(form);
      if (!input.success) return invalidForm(input.error, "adjust");
      return answer(
        user.steamId,
        await adjustBalance(deps, operator, { userId: user.id, ...input.data }),
        "adjust",
        "adjust",
      );
    }
    case "block": {
      const operator = await requireOperator(context, request, "blockPlayer");
      const input = blockSchema.safeParse(form);
      if (!input.success) return invalidForm(input.error, "block");
      const result = await setPurchasesBlocked(deps, operator, { userId: user.id, ...input.data });
      return answer(user.steamId, result, input.data.blocked ? "blocked" : "unblocked", "block");
    }
    case "refund": {
      const operator = await requireOperator(context, request, "refund");
      const input = refundSchema.safeParse(form);
      if (!input.success) return invalidForm(input.error, "refund");
      return answer(
        user.steamId,
        await refundPurchase(deps, operator, { userId: user.id, ...input.data }),
        "refund",
        "refund",
      );
    }
    default:
      return refused(ADMIN_TEXT.unknownIntent, 400);
  }
}

export default function AdminPlayer({ loaderData, actionData }: Route.ComponentProps) {
  const { user, can } = loaderData;
  return (
    <>
      <section className="admin-section" aria-labelledby="player-title">
        <h2 id="player-title">
          {user.nickname} <span className="muted admin-table__mono">{user.steamId}</span>
        </h2>
        <ActionNotice result={actionData ?? (loaderData.done ? { ok: true, message: loaderData.done } : undefined)} />
        <dl className="admin-cards">
          <div className="admin-card">
            <dt>Баланс</dt>
            <dd data-testid="admin-balance">{formatKopecks(user.balance)}</dd>
          </div>
          <div className="admin-card">
            <dt>Сумма по журналу</dt>
            <dd>{formatKopecks(loaderData.ledgerSum)}</dd>
          </div>
          <div className="admin-card">
            <dt>С нами с</dt>
            <dd>{formatMoment(user.createdAt)}</dd>
          </div>
        </dl>
      </section>
      {can.adjust && (
        <section className="admin-section" aria-labelledby="adjust-title">
          <h2 id="adjust-title">Корректировка баланса</h2>
          <AdjustBalanceForm />
        </section>
      )}
      {can.block && (
        <section className="admin-section" aria-labelledby="block-title">
          <h2 id="block-title">Блокировка покупок</h2>
          <BlockForm blocked={user.purchasesBlocked} />
        </section>
      )}
      <section className="admin-section" aria-labelledby="ledger-title">
        <h2 id="ledger-title">Движения баланса</h2>
        <LedgerTable rows={loaderData.ledger} />
      </section>
      <section className="admin-section" aria-labelledby="purchases-title">
        <h2 id="purchases-title">Покупки</h2>
        <PurchasesTable rows={loaderData.purchases} canRefund={can.refund} />
      </section>
      <section className="admin-section" aria-labelledby="inventory-title">
        <h2 id="inventory-title">Корзина</h2>
        <InventoryTable rows={loaderData.inventory} />
      </section>
      <section className="admin-section" aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">Доставки</h2>
        <DeliveriesTable rows={loaderData.deliveries} />
      </section>
      <section className="admin-section" aria-labelledby="payments-title">
        <h2 id="payments-title">Пополнения</h2>
        <PaymentsTable rows={loaderData.payments} />
      </section>
    </>
  );
}
