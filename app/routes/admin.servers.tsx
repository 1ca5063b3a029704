import { data, Form } from "react-router";
import { dispatchIntent, invalidForm, refused } from "#app/lib/admin/console-answers.server.ts";
import { requireOperator } from "#app/lib/admin/operator.server.ts";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { SERVER_TEXT, serverRemovedText, unservedTypeText } from "#core/messages/admin.ts";
import { FAIR_PLAY_TEXT, WIPE_FORM_TEXT, WIPE_TEXT } from "#core/messages/wipe.ts";
import { positiveIdText } from "#core/schemas/common.ts";
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
import {
  type FairPlayRow,
  fairPlayFormSchema,
  listFairPlay,
  removeFairPlay,
  setFairPlay,
} from "#worker/services/admin/fair-play.ts";
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
  const [servers, fairPlay] = await Promise.all([listServers(deps), listFairPlay(deps)]);
  return { ...servers, fairPlay, serverTypes: SERVER_TYPES, now: deps.now().getTime() };
}

/** The operator's form as posted: its fields by name. */
type ServerForm = Record<string, FormDataEntryValue>;
type ServerRefusal = Extract<ServerActionData, { ok: false }>;

export async function action({ context, request }: Route.ActionArgs) {
  const operator = await requireOperator(context, request, "servers");
  const deps = context.get(depsContext);
  return dispatchIntent(Object.fromEntries(await request.formData()), {
    add: (form) => add(deps, operator, form),
    remove: (form) => remove(deps, operator, form),
    rotate: (form) => rotate(deps, operator, form),
    wipe: (form) => wipe(deps, operator, form),
    fairPlay: (form) => fairPlay(deps, operator, form),
    fairPlayRemove: (form) => fairPlayRemove(deps, operator, form),
  });
}

// A new key is in this one answer only: never kept by a cache.
const noStore = { "Cache-Control": "private, no-store" };

/** «Удалить»: after its confirmation, and for the last server of a type with a queue, the warning's own. */
async function remove(deps: Deps, operator: Operator, form: ServerForm) {
  const id = positiveIdText.safeParse(form.serverId);
  if (!id.success) return refused<ServerRefusal>(SERVER_TEXT.notFound, 400);
  if (form.confirm !== "yes") return refused<ServerRefusal>(SERVER_TEXT.confirmRemoval, 400);
  // The last server of a type with a queue: removed only when the warning's own form confirms it.
  const result = await removeServer(deps, operator, id.data, { confirmQueued: form.confirmQueued === "yes" });
  if (!result.ok) {
    const queued = "queued" in result ? { queued: result.queued } : {};
    return refused<ServerRefusal>(result.error, result.status, undefined, queued);
  }
  return data<ServerActionData>({
    ok: true,
    message: serverRemovedText(result.serverId, result.strandedRevokes, result.lastOfType),
    serverId: result.serverId,
  });
}

/** «Новый ключ»: the old key stops working at once. */
async function rotate(deps: Deps, operator: Operator, form: ServerForm) {
  const id = positiveIdText.safeParse(form.serverId);
  if (!id.success) return refused<ServerRefusal>(SERVER_TEXT.notFound, 400);
  const result = await rotateServerKey(deps, operator, id.data);
  if (!result.ok) return refused<ServerRefusal>(result.error, result.status);
  return data<ServerActionData>(
    { ok: true, message: SERVER_TEXT.keyRotated(result.serverId), serverId: result.serverId, key: result.key },
    { headers: noStore },
  );
}

/** The wipe schedule (decision 128): its fields read by one schema, the change journaled. */
async function wipe(deps: Deps, operator: Operator, form: ServerForm) {
  const id = positiveIdText.safeParse(form.serverId);
  if (!id.success) return refused<ServerRefusal>(SERVER_TEXT.notFound, 400);
  const input = wipeScheduleFormSchema.safeParse(form);
  if (!input.success) return invalidForm<ServerRefusal>(input.error);
  const result = await setWipeSchedule(deps, operator, id.data, input.data);
  if (!result.ok) return refused<ServerRefusal>(result.error, result.status);
  return data<ServerActionData>({
    ok: true,
    message: WIPE_FORM_TEXT.saved(result.serverId, scheduleText(input.data)),
    serverId: result.serverId,
  });
}

/** The fair-play window after a wipe (decision 129): one schema, the change journaled. */
async function fairPlay(deps: Deps, operator: Operator, form: ServerForm) {
  const input = fairPlayFormSchema.safeParse(form);
  if (!input.success) return invalidForm<ServerRefusal>(input.error);
  const result = await setFairPlay(deps, operator, input.data);
  if (!result.ok) return refused<ServerRefusal>(result.error, result.status);
  return data<ServerActionData>({ ok: true, message: FAIR_PLAY_TEXT.saved, serverId: 0 });
}

/** «Убрать» a fair-play window. */
async function fairPlayRemove(deps: Deps, operator: Operator, form: ServerForm) {
  const id = positiveIdText.safeParse(form.windowId);
  if (!id.success) return refused<ServerRefusal>(FAIR_PLAY_TEXT.notFound, 400);
  const result = await removeFairPlay(deps, operator, id.data);
  if (!result.ok) return refused<ServerRefusal>(result.error, result.status);
  return data<ServerActionData>({ ok: true, message: FAIR_PLAY_TEXT.removed, serverId: 0 });
}

/** «Добавить сервер». */
async function add(deps: Deps, operator: Operator, form: ServerForm) {
  const input = serverFormSchema.safeParse(form);
  if (!input.success) return invalidForm<ServerRefusal>(input.error);
  const result = await addServer(deps, operator, input.data);
  if (!result.ok) return refused<ServerRefusal>(result.error, result.status);
  return data<ServerActionData>(
    { ok: true, message: SERVER_TEXT.added(result.serverId), serverId: result.serverId, key: result.key },
    { headers: noStore },
  );
}

export default function AdminServers({ loaderData, actionData }: Route.ComponentProps) {
  const { servers, unserved, serverTypes, now, fairPlay } = loaderData;
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
      ) : actionData?.ok === false && "queued" in actionData && actionData.queued ? (
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
      <FairPlaySection fairPlay={fairPlay} serverTypes={serverTypes} />
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
 * The fair-play windows after a wipe (decision 129): the list with a remove button each, and a plain
 * form that sets one (a type's category or item; setting it again replaces it).
 */
function FairPlaySection({
  fairPlay,
  serverTypes,
}: {
  fairPlay: {
    windows: (Omit<FairPlayRow, "purchasesOpen"> & { purchasesOpen: boolean })[];
    categories: { id: number; name: string }[];
    items: { id: number; name: string; serverType: string }[];
  };
  serverTypes: readonly string[];
}) {
  return (
    <section className="admin-section" aria-labelledby="fair-play-title">
      <h3 id="fair-play-title">{FAIR_PLAY_TEXT.consoleTitle}</h3>
      <p className="muted">{FAIR_PLAY_TEXT.consoleHint}</p>
      {fairPlay.windows.length === 0 ? (
        <p className="muted">{FAIR_PLAY_TEXT.none}</p>
      ) : (
        <ul data-testid="fair-play-windows">
          {fairPlay.windows.map((window) => (
            <li key={window.id}>
              {window.serverType} ·{" "}
              {window.categoryId !== null
                ? FAIR_PLAY_TEXT.categoryOption(window.name)
                : FAIR_PLAY_TEXT.itemOption(window.name)}{" "}
              · {FAIR_PLAY_TEXT.rule(window.hours, window.purchasesOpen)}{" "}
              <PostButton
                fields={{ intent: "fairPlayRemove", windowId: window.id }}
                label={FAIR_PLAY_TEXT.remove}
                ghost
              />
            </li>
          ))}
        </ul>
      )}
      <Form method="post" className="admin-form" aria-label={FAIR_PLAY_TEXT.consoleTitle} data-testid="fair-play-form">
        <input type="hidden" name="intent" value="fairPlay" />
        <label className="admin-field">
          {FAIR_PLAY_TEXT.serverType}
          <select name="serverType" required>
            {serverTypes.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label className="admin-field">
          {FAIR_PLAY_TEXT.target}
          <select name="target" required>
            {fairPlay.categories.map((category) => (
              <option key={`c${category.id}`} value={`category:${category.id}`}>
                {FAIR_PLAY_TEXT.categoryOption(category.name)}
              </option>
            ))}
            {fairPlay.items.map((item) => (
              <option key={`i${item.id}`} value={`item:${item.id}`}>
                {FAIR_PLAY_TEXT.itemOption(item.name)} ({item.serverType})
              </option>
            ))}
          </select>
        </label>
        <label className="admin-field">
          {FAIR_PLAY_TEXT.hours}
          <input name="hours" type="number" min={1} max={72} defaultValue={3} required />
        </label>
        <label className="admin-field">
          {FAIR_PLAY_TEXT.purchasesOpen}
          <select name="purchasesOpen" defaultValue="yes">
            <option value="yes">{FAIR_PLAY_TEXT.open}</option>
            <option value="no">{FAIR_PLAY_TEXT.closedLabel}</option>
          </select>
        </label>
        <button type="submit" className="button button--small">
          {FAIR_PLAY_TEXT.save}
        </button>
      </Form>
    </section>
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
