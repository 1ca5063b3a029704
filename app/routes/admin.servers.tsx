import { data, Form } from "react-router";
import { z } from "zod";
import { invalidForm } from "#app/lib/admin/invalid-form.server.ts";
import { requireOperator } from "#app/lib/admin/operator.server.ts";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { lastServerRemovedText, SERVER_TEXT, unservedTypeText } from "#core/messages/admin.ts";
import { WIPE_FORM_TEXT, WIPE_TEXT } from "#core/messages/wipe.ts";
import { wipeScheduleFormSchema } from "#core/schemas/wipe-schedule.ts";
import { SERVER_TYPES } from "#core/shop/server-types.ts";
import {
  minuteText,
  moscowDate,
  nextWipe,
  scheduleText,
  WIPE_KINDS,
  type WipeSchedule,
  wipeDate,
} from "#core/wipe/schedule.ts";
import type { Deps } from "#worker/deps.ts";
import type { Operator } from "#worker/services/admin/roles.ts";
import {
  addServer,
  listServers,
  removeServer,
  rotateServerKey,
  serverFormSchema,
  setWipeSchedule,
} from "#worker/services/admin/servers.ts";
import { ActionNotice } from "../components/admin/action-notice.tsx";
import { formatMoment } from "../components/admin/format.ts";
import { PostButton } from "../components/admin/post-button.tsx";
import type { Route } from "./+types/admin.servers";

// /admin/servers (admin only): servers, their plugin heartbeat and waiting deliveries; add one,
// replace its key or remove it. A new key is in this one answer only, like `npm run servers` prints it once.

export type ServerActionData =
  | { ok: true; message: string; serverId: number; key: string }
  | { ok: true; message: string; serverId: number; key?: undefined }
  | { ok: false; error: string; queued?: { serverId: number; serverType: string; waiting: number } };

export async function loader({ context, request }: Route.LoaderArgs) {
  await requireOperator(context, request, "servers");
  const deps = context.get(depsContext);
  return { ...(await listServers(deps)), serverTypes: SERVER_TYPES, now: deps.now().getTime() };
}

/** The operator's form as posted: its fields by name. */
type ServerForm = Record<string, FormDataEntryValue>;

export async function action({ context, request }: Route.ActionArgs) {
  const operator = await requireOperator(context, request, "servers");
  const deps = context.get(depsContext);
  const form = Object.fromEntries(await request.formData());
  if (form.intent === "remove") return remove(deps, operator, form);
  if (form.intent === "rotate") return rotate(deps, operator, form);
  if (form.intent === "wipe") return wipe(deps, operator, form);
  return add(deps, operator, form);
}

// A new key is in this one answer only: never kept by a cache.
const noStore = { "Cache-Control": "private, no-store" };

/** «Удалить»: after its confirmation, and for the last server of a type with a queue, the warning's own. */
async function remove(deps: Deps, operator: Operator, form: ServerForm) {
  const id = z.coerce.number().int().positive().safeParse(form.serverId);
  if (!id.success) return data<ServerActionData>({ ok: false, error: SERVER_TEXT.notFound }, { status: 400 });
  if (form.confirm !== "yes") {
    return data<ServerActionData>({ ok: false, error: SERVER_TEXT.confirmRemoval }, { status: 400 });
  }
  // The last server of a type with a queue: removed only when the warning's own form confirms it.
  const result = await removeServer(deps, operator, id.data, { confirmQueued: form.confirmQueued === "yes" });
  if (!result.ok) {
    const queued = "queued" in result ? { queued: result.queued } : {};
    return data<ServerActionData>({ ok: false, error: result.error, ...queued }, { status: result.status });
  }
  const stranded =
    result.strandedRevokes > 0
      ? `; снятий привилегий, выданных на нём, осталось без сервера: ${result.strandedRevokes} — они в разделе «Доставки»`
      : "";
  const last = result.lastOfType
    ? `. ${lastServerRemovedText(result.lastOfType.serverType, result.lastOfType.waiting)}`
    : "";
  return data<ServerActionData>({
    ok: true,
    message: `Сервер №${result.serverId} удалён${stranded}${last}`,
    serverId: result.serverId,
  });
}

/** «Новый ключ»: the old key stops working at once. */
async function rotate(deps: Deps, operator: Operator, form: ServerForm) {
  const id = z.coerce.number().int().positive().safeParse(form.serverId);
  if (!id.success) return data<ServerActionData>({ ok: false, error: "Сервер не найден" }, { status: 400 });
  const result = await rotateServerKey(deps, operator, id.data);
  if (!result.ok) return data<ServerActionData>({ ok: false, error: result.error }, { status: result.status });
  return data<ServerActionData>(
    {
      ok: true,
      message: `Новый ключ сервера №${result.serverId}; старый больше не действует`,
      serverId: result.serverId,
      key: result.key,
    },
    { headers: noStore },
  );
}

/** The wipe schedule (decision 128): its fields read by one schema, the change journaled. */
async function wipe(deps: Deps, operator: Operator, form: ServerForm) {
  const id = z.coerce.number().int().positive().safeParse(form.serverId);
  if (!id.success) return data<ServerActionData>({ ok: false, error: SERVER_TEXT.notFound }, { status: 400 });
  const input = wipeScheduleFormSchema.safeParse(form);
  if (!input.success) {
    return data<ServerActionData>(
      { ok: false, error: input.error.issues[0]?.message ?? WIPE_FORM_TEXT.kind },
      { status: 400 },
    );
  }
  const result = await setWipeSchedule(deps, operator, id.data, input.data);
  if (!result.ok) return data<ServerActionData>({ ok: false, error: result.error }, { status: result.status });
  return data<ServerActionData>({
    ok: true,
    message: WIPE_FORM_TEXT.saved(result.serverId, scheduleText(input.data)),
    serverId: result.serverId,
  });
}

/** «Добавить сервер». */
async function add(deps: Deps, operator: Operator, form: ServerForm) {
  const input = serverFormSchema.safeParse(form);
  if (!input.success) {
    return invalidForm<Extract<ServerActionData, { ok: false }>>(input.error);
  }
  const result = await addServer(deps, operator, input.data);
  if (!result.ok) return data<ServerActionData>({ ok: false, error: result.error }, { status: result.status });
  return data<ServerActionData>(
    { ok: true, message: `Сервер №${result.serverId} добавлен`, serverId: result.serverId, key: result.key },
    { headers: noStore },
  );
}

export default function AdminServers({ loaderData, actionData }: Route.ComponentProps) {
  const { servers, unserved, serverTypes, now } = loaderData;
  return (
    <section className="admin-section" aria-labelledby="servers-title">
      <h2 id="servers-title">Серверы</h2>
      {actionData?.ok && actionData.key !== undefined ? (
        <div className="admin-notice admin-notice--success" role="status">
          <p>{actionData.message}</p>
          <p>Ключ показан только сейчас — впишите его в конфиг плагина («Server id»: {actionData.serverId}):</p>
          <code className="admin-table__mono" data-testid="server-key">
            {actionData.key}
          </code>
        </div>
      ) : actionData?.ok === false && actionData.queued ? (
        <QueueWarning warning={actionData.error} queued={actionData.queued} />
      ) : (
        <ActionNotice result={actionData} />
      )}
      {unserved.length > 0 ? (
        <div className="admin-notice admin-notice--error" data-testid="unserved-types">
          <p>{SERVER_TEXT.unservedTitle}</p>
          <ul>
            {unserved.map((type) => (
              <li key={type.serverType}>{unservedTypeText(type.serverType, type.waiting)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <Form method="post" className="admin-form" aria-label="Новый сервер">
        <input type="hidden" name="intent" value="add" />
        <label className="admin-field admin-field--wide">
          Название
          <input name="name" required maxLength={100} />
        </label>
        <label className="admin-field">
          Тип
          <select name="serverType" defaultValue="SOLO">
            {serverTypes.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label className="admin-field">
          Адрес (IP:порт)
          <input name="ipPort" required placeholder="1.2.3.4:28015" />
        </label>
        <button type="submit" className="button">
          Добавить сервер
        </button>
      </Form>
      <div className="admin-scroll admin-section">
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">№</th>
              <th scope="col">Сервер</th>
              <th scope="col">Тип</th>
              <th scope="col">Адрес</th>
              <th scope="col">Плагин</th>
              <th scope="col" className="admin-table__num">
                Ждут доставки
              </th>
              <th scope="col">Ключ</th>
            </tr>
          </thead>
          <tbody>
            {servers.map((server) => (
              <tr key={server.id} data-testid="admin-server-row">
                <td>{server.id}</td>
                <td>{server.name}</td>
                <td>{server.serverType}</td>
                <td className="admin-table__mono">{server.ipPort}</td>
                <td>
                  <span className={`admin-badge admin-badge--${server.online ? "good" : "bad"}`}>
                    {server.online ? "На связи" : "Нет связи"}
                  </span>
                  <div className="muted">
                    {formatMoment(server.heartbeatAt)}
                    {server.players != null && ` · ${server.players}/${server.maxPlayers}`}
                  </div>
                </td>
                <td className="admin-table__num">{server.pending}</td>
                <td>
                  <div className="muted">{server.hasKey ? `с ${formatMoment(server.keyRotatedAt)}` : "нет"}</div>
                  {server.legacyKey && (
                    <div className="admin-badge admin-badge--bad" data-testid="legacy-key">
                      {SERVER_TEXT.legacyKey}
                    </div>
                  )}
                  <PostButton fields={{ intent: "rotate", serverId: server.id }} label="Новый ключ" ghost />
                  <Form
                    method="post"
                    className="admin-form admin-form--inline"
                    aria-label={`Удалить сервер №${server.id}`}
                  >
                    <input type="hidden" name="intent" value="remove" />
                    <input type="hidden" name="serverId" value={server.id} />
                    <label>
                      <input type="checkbox" name="confirm" value="yes" required /> Удалить навсегда
                    </label>
                    <button type="submit" className="button button--small button--ghost">
                      Удалить
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <section className="admin-section" aria-labelledby="wipe-title">
        <h3 id="wipe-title">{WIPE_TEXT.consoleTitle}</h3>
        <p className="muted">{WIPE_TEXT.consoleHint}</p>
        {servers.map((server) => (
          <WipeScheduleForm key={server.id} server={server} now={now} />
        ))}
      </section>
    </section>
  );
}

/**
 * One server's wipe schedule (decision 128): every field shown, the kind picks the ones that count,
 * so it is a plain form that works without JavaScript.
 */
function WipeScheduleForm({
  server,
  now,
}: {
  server: { id: number; name: string; wipe: WipeSchedule; lastWipeAt: number | null };
  now: number;
}) {
  const { wipe } = server;
  const next = nextWipe(wipe, now);
  const weekday = wipe.kind === "weekly" ? wipe.weekday : 4;
  const minute = wipe.kind === "weekly" || wipe.kind === "every_weeks" ? wipe.minute : 14 * 60;
  const from = wipe.kind === "every_weeks" ? wipe.from : moscowDate(now);
  return (
    <Form
      method="post"
      className="admin-form"
      aria-label={WIPE_TEXT.formLabel(server.id)}
      data-testid="wipe-schedule-form"
    >
      <input type="hidden" name="intent" value="wipe" />
      <input type="hidden" name="serverId" value={server.id} />
      <p className="admin-field admin-field--wide">
        <strong>
          №{server.id} {server.name}
        </strong>
        <span className="muted" data-testid="wipe-schedule-now">
          {scheduleText(wipe)}
          {next ? ` · ${WIPE_TEXT.nextLabel} ${wipeDate(next.at)}${next.forced ? ` (${WIPE_TEXT.forced})` : ""}` : ""}
          {server.lastWipeAt != null ? ` · ${WIPE_TEXT.lastLabel} ${formatMoment(server.lastWipeAt)}` : ""}
        </span>
      </p>
      <label className="admin-field">
        {WIPE_TEXT.kindLabel}
        <select name="wipeKind" defaultValue={wipe.kind}>
          {WIPE_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {WIPE_TEXT.kindLabels[kind]}
            </option>
          ))}
        </select>
      </label>
      <label className="admin-field">
        {WIPE_TEXT.weekdayLabel}
        <select name="weekday" defaultValue={String(weekday)}>
          {WIPE_TEXT.weekdayNames.map((name, index) => (
            <option key={name} value={String(index + 1)}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label className="admin-field">
        {WIPE_TEXT.timeLabel}
        <input name="time" type="time" defaultValue={minuteText(minute)} />
      </label>
      <label className="admin-field">
        {WIPE_TEXT.weeksLabel}
        <input name="weeks" type="number" min={2} max={8} defaultValue={wipe.kind === "every_weeks" ? wipe.weeks : 2} />
      </label>
      <label className="admin-field">
        {WIPE_TEXT.fromLabel}
        <input name="from" type="date" defaultValue={from} />
      </label>
      <button type="submit" className="button button--small">
        {WIPE_TEXT.save}
      </button>
    </Form>
  );
}

/**
 * The last server of a type has grants waiting (decision 122): the count, and a second form that
 * removes it anyway. A plain form post, so it works without JavaScript.
 */
function QueueWarning({
  warning,
  queued,
}: {
  warning: string;
  queued: { serverId: number; serverType: string; waiting: number };
}) {
  return (
    <div className="admin-notice admin-notice--error" role="alert" data-testid="server-queue-warning">
      <p>{warning}</p>
      <Form method="post" className="admin-form admin-form--inline" aria-label={`Удалить сервер №${queued.serverId}`}>
        <input type="hidden" name="intent" value="remove" />
        <input type="hidden" name="serverId" value={queued.serverId} />
        <input type="hidden" name="confirm" value="yes" />
        <input type="hidden" name="confirmQueued" value="yes" />
        <button type="submit" className="button button--small">
          {SERVER_TEXT.confirmQueued}
        </button>
      </Form>
    </div>
  );
}
