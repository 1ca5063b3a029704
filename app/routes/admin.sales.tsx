import { Form, redirect } from "react-router";
import { dispatchIntent, invalidForm, refused } from "#app/lib/admin/console-answers.server.ts";
import { requireOperator } from "#app/lib/admin/operator.server.ts";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { serverTypeLabel } from "#core/format/server-type.ts";
import { SALES_TEXT } from "#core/messages/admin.ts";
import { WIPE_SALE_TEXT } from "#core/messages/wipe.ts";
import { WIPE_CONSOLE_TEXT } from "#core/messages/wipe-console.ts";
import { positiveIdText } from "#core/schemas/common.ts";
import { saleState } from "#core/shop/sales.ts";
import type { Deps } from "#worker/deps.ts";
import { listCategories } from "#worker/services/admin/catalog.ts";
import type { Operator } from "#worker/services/admin/roles.ts";
import { createSale, endSale, listSales, saleFormInput } from "#worker/services/admin/sales.ts";
import {
  createWipeSale,
  endWipeSale,
  listWipeSales,
  wipeSaleFormInput,
  wipeSaleWindows,
} from "#worker/services/admin/wipe-sales.ts";
import { ActionNotice, type AdminActionData } from "../components/admin/action-notice.tsx";
import { formatMoment } from "../components/admin/format.ts";
import { SaleScopeFields } from "../components/admin/sale-scope-fields.tsx";
import type { Route } from "./+types/admin.sales";

// /admin/sales: a percent off for a period, for the whole store or chosen categories and server types
// (decision 113). Admin only; plain forms, every change journaled.

export async function loader({ context, request, url }: Route.LoaderArgs) {
  await requireOperator(context, request, "sales");
  const deps = context.get(depsContext);
  const [sales, categories, wipeSales] = await Promise.all([
    listSales(deps),
    listCategories(deps),
    listWipeSales(deps),
  ]);
  const wipeWindows = await wipeSaleWindows(deps, wipeSales);
  const done = url.searchParams.get("done");
  const notice: AdminActionData | null =
    done === "created"
      ? { ok: true, message: SALES_TEXT.created }
      : done === "ended"
        ? { ok: true, message: SALES_TEXT.ended }
        : done === "wipe-created"
          ? { ok: true, message: WIPE_SALE_TEXT.created }
          : done === "wipe-ended"
            ? { ok: true, message: WIPE_SALE_TEXT.ended }
            : null;
  return { sales, categories, wipeSales, wipeWindows, now: deps.now().getTime(), notice };
}

export async function action({ context, request }: Route.ActionArgs) {
  const operator = await requireOperator(context, request, "sales");
  const deps = context.get(depsContext);
  return dispatchIntent(await request.formData(), {
    create: (form) => create(deps, operator, form),
    end: (form) => end(deps, operator, form),
    "wipe-create": (form) => createWipe(deps, operator, form),
    "wipe-end": (form) => endWipe(deps, operator, form),
  });
}

/** «Завершить» a running sale. */
async function end(deps: Deps, operator: Operator, form: FormData) {
  const id = positiveIdText.safeParse(form.get("id"));
  const ended = id.success
    ? await endSale(deps, operator, id.data)
    : { ok: false as const, error: SALES_TEXT.notRunning };
  if (!ended.ok) return refused(ended.error, 409);
  // Back by GET, so a reload never repeats the post.
  return redirect("/admin/sales?done=ended", 303);
}

/** «Завершить» a wipe sale (decision 144): no more windows after the wipes to come. */
async function endWipe(deps: Deps, operator: Operator, form: FormData) {
  const id = positiveIdText.safeParse(form.get("id"));
  const ended = id.success
    ? await endWipeSale(deps, operator, id.data)
    : { ok: false as const, error: WIPE_SALE_TEXT.notRunning };
  if (!ended.ok) return refused(ended.error, 409);
  return redirect("/admin/sales?done=wipe-ended", 303);
}

/** A wipe sale (decision 144): a percent off for some hours after each wipe of the chosen types. */
async function createWipe(deps: Deps, operator: Operator, form: FormData) {
  const input = wipeSaleFormInput(form);
  if (!input.success) return invalidForm(input.error);
  const created = await createWipeSale(deps, operator, input.data);
  if (!created.ok) return refused(created.error, 400);
  return redirect("/admin/sales?done=wipe-created", 303);
}

/** «Создать распродажу». */
async function create(deps: Deps, operator: Operator, form: FormData) {
  const input = saleFormInput(form);
  if (!input.success) return invalidForm(input.error);
  const created = await createSale(deps, operator, input.data);
  if (!created.ok) return refused(created.error, 400);
  return redirect("/admin/sales?done=created", 303);
}

export default function AdminSales({ loaderData, actionData }: Route.ComponentProps) {
  const { sales, categories, wipeSales, wipeWindows, now, notice } = loaderData;
  const categoryName = new Map(categories.map((category) => [category.id, category.name]));
  return (
    <section className="admin-section" aria-labelledby="sales-title">
      <h2 id="sales-title">{SALES_TEXT.title}</h2>
      <p className="muted">{SALES_TEXT.help}</p>
      <ActionNotice result={actionData ?? notice ?? undefined} />
      <Form method="post" className="admin-form" aria-label="Новая распродажа">
        <input type="hidden" name="intent" value="create" />
        <label className="admin-field">
          Название
          <input name="title" required maxLength={60} placeholder="Чёрная пятница" />
        </label>
        <label className="admin-field">
          Скидка, %
          <input name="percent" type="number" min={1} max={90} step={1} inputMode="numeric" required />
        </label>
        <label className="admin-field">
          Начало (МСК)
          <input name="startsAt" type="datetime-local" required />
        </label>
        <label className="admin-field">
          Окончание (МСК)
          <input name="endsAt" type="datetime-local" required />
        </label>
        <SaleScopeFields categories={categories} />
        <button type="submit" className="button">
          Создать распродажу
        </button>
      </Form>
      {sales.length === 0 ? (
        <p className="muted">Распродаж ещё не было</p>
      ) : (
        <div className="admin-scroll">
          <table className="admin-table" data-testid="sales">
            <thead>
              <tr>
                <th scope="col">Название</th>
                <th scope="col">Скидка</th>
                <th scope="col">На что</th>
                <th scope="col">Когда (МСК)</th>
                <th scope="col">Состояние</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {sales.map((sale) => {
                const state = saleState(sale, now);
                const scope = [
                  sale.categoryIds?.map((id) => categoryName.get(id) ?? `№${id}`).join(", ") ?? SALES_TEXT.everything,
                  sale.serverTypes?.map(serverTypeLabel).join(", ") ?? SALES_TEXT.allTypes,
                ].join("; ");
                return (
                  <tr key={sale.id}>
                    <td>{sale.title}</td>
                    <td>−{sale.percent}%</td>
                    <td>{scope}</td>
                    <td>
                      {formatMoment(sale.startsAt)} — {formatMoment(sale.cancelledAt ?? sale.endsAt)}
                    </td>
                    <td>{SALES_TEXT.state[state]}</td>
                    <td>
                      {state === "planned" || state === "running" ? (
                        <Form method="post">
                          <input type="hidden" name="intent" value="end" />
                          <input type="hidden" name="id" value={sale.id} />
                          <button type="submit" className="button button--ghost button--small">
                            Завершить
                          </button>
                        </Form>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <WipeSales wipeSales={wipeSales} categories={categories} windows={wipeWindows} now={now} />
    </section>
  );
}

/** Wipe sales (decision 144): the form and the list, plain forms that work without JavaScript. */
function WipeSales({
  wipeSales,
  categories,
  windows,
  now,
}: {
  windows: Record<number, { startsAt: number; endsAt: number } | null>;
  now: number;
  wipeSales: {
    id: number;
    title: string;
    percent: number;
    hours: number;
    categoryIds: number[] | null;
    serverTypes: string[] | null;
    cancelledAt: number | null;
  }[];
  categories: { id: number; name: string }[];
}) {
  const categoryName = new Map(categories.map((category) => [category.id, category.name]));
  return (
    <section className="admin-section" aria-labelledby="wipe-sales-title">
      <h3 id="wipe-sales-title">{WIPE_SALE_TEXT.title}</h3>
      <p className="muted">{WIPE_SALE_TEXT.help}</p>
      <Form method="post" className="admin-form" aria-label={WIPE_SALE_TEXT.title}>
        <input type="hidden" name="intent" value="wipe-create" />
        <label className="admin-field">
          Название
          <input name="title" required maxLength={60} placeholder="Скидки на вайп" />
        </label>
        <label className="admin-field">
          Скидка, %
          <input name="percent" type="number" min={1} max={90} step={1} inputMode="numeric" required />
        </label>
        <label className="admin-field">
          {WIPE_SALE_TEXT.hours}
          <input name="hours" type="number" min={1} max={72} step={1} inputMode="numeric" required />
        </label>
        <SaleScopeFields categories={categories} />
        <button type="submit" className="button">
          {WIPE_SALE_TEXT.create}
        </button>
      </Form>
      {wipeSales.length === 0 ? (
        <p className="muted">{WIPE_SALE_TEXT.none}</p>
      ) : (
        <div className="admin-scroll">
          <table className="admin-table" data-testid="wipe-sales">
            <thead>
              <tr>
                <th scope="col">Название</th>
                <th scope="col">Скидка</th>
                <th scope="col">На что</th>
                <th scope="col">Состояние</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {wipeSales.map((sale) => (
                <tr key={sale.id}>
                  <td>{sale.title}</td>
                  <td>{WIPE_SALE_TEXT.rule(sale.percent, sale.hours)}</td>
                  <td>
                    {[
                      sale.categoryIds?.map((id) => categoryName.get(id) ?? `№${id}`).join(", ") ??
                        SALES_TEXT.everything,
                      sale.serverTypes?.map(serverTypeLabel).join(", ") ?? SALES_TEXT.allTypes,
                    ].join("; ")}
                  </td>
                  <td>
                    {sale.cancelledAt === null ? (
                      <>
                        {WIPE_SALE_TEXT.running}
                        <div className="muted" data-testid="wipe-sale-window">
                          {wipeSaleWindowText(windows[sale.id] ?? null, now)}
                        </div>
                      </>
                    ) : (
                      WIPE_SALE_TEXT.cancelled
                    )}
                  </td>
                  <td>
                    {sale.cancelledAt === null ? (
                      <Form method="post">
                        <input type="hidden" name="intent" value="wipe-end" />
                        <input type="hidden" name="id" value={sale.id} />
                        <button type="submit" className="button button--ghost button--small">
                          {WIPE_SALE_TEXT.end}
                        </button>
                      </Form>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** «Следующее окно: с 03.12.2026, 22:00 (МСК)», «Идёт окно: до …», or that none is on the schedule. */
function wipeSaleWindowText(window: { startsAt: number; endsAt: number } | null, now: number): string {
  if (!window) return WIPE_CONSOLE_TEXT.saleNoWindow;
  return window.startsAt <= now
    ? WIPE_CONSOLE_TEXT.saleWindowNow(formatMoment(window.endsAt))
    : WIPE_CONSOLE_TEXT.saleNextWindow(formatMoment(window.startsAt));
}
