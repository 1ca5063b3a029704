import { Form, redirect } from "react-router";
import { z } from "zod";
import { invalidForm, refused } from "#app/lib/admin/console-answers.server.ts";
import { requireOperator } from "#app/lib/admin/operator.server.ts";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { DELIVERY_FILTERS } from "#core/admin/filters.ts";
import { COMMAND_STATE_LABEL, RESYNC_TEXT } from "#core/messages/admin.ts";
import { POSSIBLE_DUPLICATE } from "#core/messages/game.ts";
import { SERVER_TYPES } from "#core/shop/server-types.ts";
import {
  cancelDelivery,
  deliveryActionSchema,
  listDeliveries,
  retryDelivery,
  serversAwaitingResync,
  skipResync,
} from "#worker/services/admin/deliveries.ts";
import { ActionNotice } from "../components/admin/action-notice.tsx";
import { formatMoment } from "../components/admin/format.ts";
import { Badge, DELIVERY_KIND, DELIVERY_STATUS } from "../components/admin/labels.tsx";
import { PostButton } from "../components/admin/post-button.tsx";
import type { Route } from "./+types/admin.deliveries";

// /admin/deliveries: failed and stuck deliveries with the plugin's error (an interrupted one says
// «Доставка прервана, проверьте вручную»), and those a server acknowledged after their hand-off
// («возможна повторная выдача», decision 104); retry or cancel. Each delivery lists its commands
// with what each did and where, why a pending one waits, and what «Повторить» will run and where
// (decision 124).

const FILTER_LABEL: Record<(typeof DELIVERY_FILTERS)[number], string> = {
  problems: "Ошибки и зависшие",
  failed: "С ошибкой",
  stuck: "Зависшие",
  pending: "Ожидают",
  done: "Доставлены",
  cancelled: "Отменены",
};

const DONE = {
  retry: "Доставка снова в очереди",
  cancel: "Доставка отменена",
  "skip-resync": RESYNC_TEXT.done,
} as const;

const querySchema = z.object({
  status: z.enum(DELIVERY_FILTERS).catch("problems"),
  type: z.enum(SERVER_TYPES).nullable().catch(null),
  done: z.enum(["retry", "cancel", "skip-resync"]).nullable().catch(null),
});

export async function loader({ context, request, url }: Route.LoaderArgs) {
  await requireOperator(context, request, "deliveries");
  const params = url.searchParams;
  const query = querySchema.parse({ status: params.get("status"), type: params.get("type"), done: params.get("done") });
  const deps = context.get(depsContext);
  const [rows, awaited] = await Promise.all([
    listDeliveries(deps, { status: query.status, serverType: query.type }),
    serversAwaitingResync(deps),
  ]);
  return { ...query, rows, awaited, serverTypes: SERVER_TYPES, done: query.done ? DONE[query.done] : null };
}

export async function action({ context, request }: Route.ActionArgs) {
  const operator = await requireOperator(context, request, "deliveries");
  const deps = context.get(depsContext);
  const input = deliveryActionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!input.success) return invalidForm(input.error);
  const result =
    input.data.intent === "retry"
      ? await retryDelivery(deps, operator, input.data.deliveryId)
      : input.data.intent === "skip-resync"
        ? await skipResync(deps, operator, input.data.serverId)
        : await cancelDelivery(deps, operator, input.data.deliveryId, input.data.reason);
  if (!result.ok) return refused(result.error, result.status);
  return redirect(`/admin/deliveries?done=${input.data.intent}`);
}

export default function AdminDeliveries({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, status, type, serverTypes, done, awaited } = loaderData;
  return (
    <section className="admin-section" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Доставки</h2>
      <ActionNotice result={actionData ?? (done ? { ok: true, message: done } : undefined)} />
      {awaited.length > 0 && (
        <div className="admin-notice admin-notice--bad" role="status" data-testid="resync-awaited">
          <p>
            <strong>{RESYNC_TEXT.title}</strong>
          </p>
          {awaited.map((server) => (
            <div key={server.id}>
              <p>{RESYNC_TEXT.waiting(server.id, server.name, server.serverType)}</p>
              <p className="muted">{RESYNC_TEXT.skipWarning}</p>
              <PostButton
                fields={{ intent: "skip-resync", serverId: server.id }}
                label={RESYNC_TEXT.skip(server.id)}
                ghost
              />
            </div>
          ))}
        </div>
      )}
      <Form method="get" className="admin-form" aria-label="Фильтр доставок">
        <label className="admin-field">
          Статус
          <select name="status" defaultValue={status}>
            {DELIVERY_FILTERS.map((filter) => (
              <option key={filter} value={filter}>
                {FILTER_LABEL[filter]}
              </option>
            ))}
          </select>
        </label>
        <label className="admin-field">
          Сервер
          <select name="type" defaultValue={type ?? ""}>
            <option value="">Все</option>
            {serverTypes.map((serverType) => (
              <option key={serverType} value={serverType}>
                {serverType}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button">
          Показать
        </button>
      </Form>
      {rows.length === 0 ? (
        <p className="muted">Доставок нет</p>
      ) : (
        <div className="admin-scroll admin-section">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Создана</th>
                <th scope="col">Игрок</th>
                <th scope="col">Предмет</th>
                <th scope="col">Сервер</th>
                <th scope="col">Статус</th>
                <th scope="col">Команды</th>
                <th scope="col">Ошибка плагина</th>
                <th scope="col">Действия</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} data-testid="admin-delivery-row">
                  <td>{formatMoment(row.createdAt)}</td>
                  <td>
                    {row.nickname}
                    <div className="muted admin-table__mono">{row.steamId}</div>
                  </td>
                  <td>
                    {row.itemName} · {DELIVERY_KIND[row.kind] ?? row.kind}
                  </td>
                  <td>{row.serverType}</td>
                  <td>
                    <Badge status={row.status} labels={DELIVERY_STATUS} />{" "}
                    <span className="muted">попыток: {row.attempts}</span>
                    {row.ackRefusedAt != null && (
                      <div className="admin-badge admin-badge--bad" data-testid="possible-duplicate">
                        {POSSIBLE_DUPLICATE}: сервер №{row.ackRefusedServerId}, {formatMoment(row.ackRefusedAt)}
                      </div>
                    )}
                    {row.waitReason && (
                      <div className="muted" data-testid="delivery-wait">
                        {row.waitReason}
                      </div>
                    )}
                  </td>
                  <td>
                    {row.commandProgress.length === 0 ? (
                      <span className="muted">ещё не выдавалась</span>
                    ) : (
                      <ol className="admin-commands" data-testid="delivery-commands">
                        {row.commandProgress.map((command) => (
                          <li key={command.number}>
                            <span className="admin-table__mono">{command.command}</span> —{" "}
                            {COMMAND_STATE_LABEL[command.state]}
                            {command.serverId !== null && command.state !== "pending" && (
                              <span className="muted">
                                {" "}
                                (сервер №{command.serverId}, {formatMoment(command.at)})
                              </span>
                            )}
                          </li>
                        ))}
                      </ol>
                    )}
                  </td>
                  <td>{row.lastError ?? "—"}</td>
                  <td>
                    {row.retryPlan && (
                      <>
                        <p className="muted" data-testid="retry-plan">
                          {row.retryPlan}
                        </p>
                        <PostButton fields={{ intent: "retry", deliveryId: row.id }} label="Повторить" />
                        <Form method="post" className="admin-form admin-form--inline">
                          <input type="hidden" name="intent" value="cancel" />
                          <input type="hidden" name="deliveryId" value={row.id} />
                          <label className="admin-field">
                            Причина отмены
                            <input name="reason" required minLength={3} maxLength={500} />
                          </label>
                          <button type="submit" className="button button--small button--ghost">
                            Отменить
                          </button>
                        </Form>
                      </>
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
