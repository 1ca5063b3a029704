import { data, Link } from "react-router";
import { z } from "zod";
import { refused } from "#app/lib/admin/console-answers.server.ts";
import { requireOperator } from "#app/lib/admin/operator.server.ts";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { PAYMENT_FILTERS } from "#core/admin/filters.ts";
import { PAYMENT_ADMIN_TEXT } from "#core/messages/admin.ts";
import { listPayments, recheckPayment, recheckSchema } from "#worker/services/admin/payments.ts";
import { ActionNotice, type AdminActionData } from "../components/admin/action-notice.tsx";
import { formatKopecks, formatMoment } from "../components/admin/format.ts";
import { Badge, PAYMENT_STATUS } from "../components/admin/labels.tsx";
import { PostButton } from "../components/admin/post-button.tsx";
import type { Route } from "./+types/admin.payments";

// /admin/payments: top-ups with status and provider id; «Проверить у провайдера» settles a
// payment whose notification never came, through the webhook's own path.

const FILTER_LABEL: Record<(typeof PAYMENT_FILTERS)[number], string> = {
  all: "Все",
  pending: "В обработке",
  completed: "Успешно",
  cancelled: "Отменено",
  failed: "Ошибка",
};

export async function loader({ context, request, url }: Route.LoaderArgs) {
  await requireOperator(context, request, "payments");
  const status = z.enum(PAYMENT_FILTERS).catch("all").parse(url.searchParams.get("status"));
  return { status, payments: await listPayments(context.get(depsContext), status) };
}

export async function action({ context, request }: Route.ActionArgs) {
  const operator = await requireOperator(context, request, "payments");
  const input = recheckSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!input.success) return refused(PAYMENT_ADMIN_TEXT.notFound, 400);
  const result = await recheckPayment(context.get(depsContext), operator, input.data.paymentId);
  if (!result.ok) return refused(result.error, result.status);
  // Not a redirect: asking again is harmless (the credit happens once) and the answer is this one's.
  return data<AdminActionData>({ ok: true, message: result.message });
}

export default function AdminPayments({ loaderData, actionData }: Route.ComponentProps) {
  const { status, payments } = loaderData;
  return (
    <section className="admin-section" aria-labelledby="payments-title">
      <h2 id="payments-title">Платежи</h2>
      <ActionNotice result={actionData} />
      <nav className="admin-nav" aria-label="Статус платежей">
        {PAYMENT_FILTERS.map((filter) => (
          <Link
            key={filter}
            to={filter === "all" ? "/admin/payments" : `/admin/payments?status=${filter}`}
            className="admin-nav__link"
            aria-current={status === filter ? "page" : undefined}
          >
            {FILTER_LABEL[filter]}
          </Link>
        ))}
      </nav>
      {payments.length === 0 ? (
        <p className="muted">История пополнений пуста</p>
      ) : (
        <div className="admin-scroll">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Создан</th>
                <th scope="col">Игрок</th>
                <th scope="col" className="admin-table__num">
                  Сумма
                </th>
                <th scope="col">Статус</th>
                <th scope="col">ID у провайдера</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {payments.map((payment) => (
                <tr key={payment.id} data-testid="admin-payment-row">
                  <td>{formatMoment(payment.createdAt)}</td>
                  <td>
                    <Link to={`/admin/players/${payment.steamId}`}>{payment.nickname}</Link>
                  </td>
                  <td className="admin-table__num">{formatKopecks(payment.amount)}</td>
                  <td>
                    <Badge status={payment.status} labels={PAYMENT_STATUS} />
                    {payment.completedAt != null && <div className="muted">{formatMoment(payment.completedAt)}</div>}
                  </td>
                  <td className="admin-table__mono">
                    {payment.provider}: {payment.providerPaymentId ?? "—"}
                  </td>
                  <td>
                    {payment.status === "pending" && payment.providerPaymentId && (
                      <PostButton fields={{ paymentId: payment.id }} label="Проверить у провайдера" />
                    )}
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
