import { Form, Link, redirect } from "react-router";
import { z } from "zod";
import { dispatchIntent, invalidForm, refused } from "#app/lib/admin/console-answers.server.ts";
import { requireOperator } from "#app/lib/admin/operator.server.ts";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { PROMO_TEXT } from "#core/messages/promos.ts";
import { positiveIdText } from "#core/schemas/common.ts";
import { SERVER_TYPES } from "#core/shop/server-types.ts";
import type { Deps } from "#worker/deps.ts";
import {
  createPromoCode,
  disablePromoCode,
  listPromos,
  promoFormSchema,
  promoRedeemers,
} from "#worker/services/admin/promos.ts";
import { allows, type Operator } from "#worker/services/admin/roles.ts";
import { ActionNotice } from "../components/admin/action-notice.tsx";
import { formatKopecks, formatMoment } from "../components/admin/format.ts";
import { PostButton } from "../components/admin/post-button.tsx";
import type { Route } from "./+types/admin.promos";

// /admin/promos: the codes with uses and limits, who used one, create (admin) and disable (admin).

const DONE = { created: "Промокод создан", disabled: "Промокод отключён" } as const;
const querySchema = z.object({
  used: z.coerce.number().int().positive().nullable().catch(null),
  done: z.enum(["created", "disabled"]).nullable().catch(null),
});

export async function loader({ context, request, url }: Route.LoaderArgs) {
  const operator = await requireOperator(context, request, "players");
  const deps = context.get(depsContext);
  const params = url.searchParams;
  const query = querySchema.parse({ used: params.get("used"), done: params.get("done") });
  const [promos, redeemers] = await Promise.all([
    listPromos(deps),
    query.used ? promoRedeemers(deps, query.used) : Promise.resolve(null),
  ]);
  return {
    promos,
    used: query.used,
    redeemers,
    canEdit: allows(operator, "promos"),
    serverTypes: SERVER_TYPES,
    done: query.done ? DONE[query.done] : null,
    now: deps.now().getTime(),
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const operator = await requireOperator(context, request, "promos");
  const deps = context.get(depsContext);
  return dispatchIntent(Object.fromEntries(await request.formData()), {
    create: (form) => create(deps, operator, form),
    disable: (form) => disable(deps, operator, form),
  });
}

/** «Отключить» a code. */
async function disable(deps: Deps, operator: Operator, form: Record<string, FormDataEntryValue>) {
  const id = positiveIdText.safeParse(form.promoId);
  if (!id.success) return refused(PROMO_TEXT.notFound, 400);
  const result = await disablePromoCode(deps, operator, id.data);
  if (!result.ok) return refused(result.error, result.status);
  return redirect("/admin/promos?done=disabled");
}

/** «Создать» a code. */
async function create(deps: Deps, operator: Operator, form: Record<string, FormDataEntryValue>) {
  const input = promoFormSchema.safeParse(form);
  if (!input.success) return invalidForm(input.error);
  const result = await createPromoCode(deps, operator, input.data);
  if (!result.ok) return refused(result.error, result.status);
  return redirect("/admin/promos?done=created");
}

function reward(promo: Route.ComponentProps["loaderData"]["promos"][number]): string {
  if (promo.type === "BALANCE") return formatKopecks(promo.value ?? 0);
  const days = promo.itemDurationDays ? `${promo.itemDurationDays} дн.` : "навсегда";
  return `${promo.itemName ?? "?"}${promo.itemServerType ? ` · ${promo.itemServerType}` : ""} · ${days}`;
}

export default function AdminPromos({ loaderData, actionData }: Route.ComponentProps) {
  const { promos, used, redeemers, canEdit, serverTypes, done, now } = loaderData;
  return (
    <section className="admin-section" aria-labelledby="promos-title">
      <h2 id="promos-title">Промокоды</h2>
      <ActionNotice result={actionData ?? (done ? { ok: true, message: done } : undefined)} />
      {canEdit && (
        <Form method="post" className="admin-form" aria-label="Новый промокод">
          <input type="hidden" name="intent" value="create" />
          <label className="admin-field">
            Код
            <input name="code" required maxLength={32} />
          </label>
          <label className="admin-field">
            Вид
            <select name="type" defaultValue="BALANCE">
              <option value="BALANCE">Деньги на баланс</option>
              <option value="ITEM">Товар</option>
            </select>
          </label>
          <label className="admin-field">
            Сумма, ₽ (для денег)
            <input name="value" inputMode="decimal" />
          </label>
          <label className="admin-field">
            № товара (для товара)
            <input name="itemId" inputMode="numeric" />
          </label>
          <label className="admin-field">
            Тип сервера товара
            <select name="serverType" defaultValue="">
              <option value="">Как у товара</option>
              {serverTypes.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          </label>
          <label className="admin-field">
            Срок товара, дней
            <input name="days" inputMode="numeric" placeholder="навсегда" />
          </label>
          <label className="admin-field">
            Лимит использований
            <input name="maxUses" inputMode="numeric" required />
          </label>
          <label className="admin-field">
            Действует до (МСК)
            <input type="datetime-local" name="endsAt" />
          </label>
          <button type="submit" className="button">
            Создать промокод
          </button>
        </Form>
      )}
      <div className="admin-scroll admin-section">
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">Код</th>
              <th scope="col">Награда</th>
              <th scope="col" className="admin-table__num">
                Использован
              </th>
              <th scope="col">Действует до</th>
              <th scope="col">Кто использовал</th>
              {canEdit && <th scope="col" />}
            </tr>
          </thead>
          <tbody>
            {promos.map((promo) => {
              const active = promo.endsAt == null || promo.endsAt > now;
              return (
                <tr key={promo.id} data-testid="admin-promo-row">
                  <td className="admin-table__mono">{promo.code}</td>
                  <td>{reward(promo)}</td>
                  <td className="admin-table__num">
                    {promo.usedCount} / {promo.maxUses}
                  </td>
                  <td>{promo.endsAt == null ? "бессрочно" : formatMoment(promo.endsAt)}</td>
                  <td>
                    <Link to={`/admin/promos?used=${promo.id}`}>Показать</Link>
                  </td>
                  {canEdit && (
                    <td>
                      {active && (
                        <PostButton fields={{ intent: "disable", promoId: promo.id }} label="Отключить" ghost />
                      )}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {used && redeemers && (
        <section className="admin-section" aria-labelledby="redeemers-title">
          <h2 id="redeemers-title">Кто использовал {promos.find((promo) => promo.id === used)?.code}</h2>
          {redeemers.length === 0 ? (
            <p className="muted">Никто</p>
          ) : (
            <ul data-testid="promo-redeemers">
              {redeemers.map((redeemer) => (
                <li key={redeemer.steamId}>
                  <Link to={`/admin/players/${redeemer.steamId}`}>{redeemer.nickname}</Link> ·{" "}
                  {formatMoment(redeemer.at)}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </section>
  );
}
