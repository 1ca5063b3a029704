import { data, Form, useSubmit } from "react-router";
import { z } from "zod";
import { dispatchIntent, invalidForm, refused } from "#app/lib/admin/console-answers.server.ts";
import { requireOperator } from "#app/lib/admin/operator.server.ts";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { doorbellText, SERVER_TEXT, serverRemovedText, unservedTypeText } from "#core/messages/admin.ts";
import { FAIR_PLAY_TEXT, WIPE_FORM_TEXT, WIPE_TEXT } from "#core/messages/wipe.ts";
import { WIPE_CONSOLE_TEXT } from "#core/messages/wipe-console.ts";
import { positiveIdText } from "#core/schemas/common.ts";
import { wipeScheduleFormSchema } from "#core/schemas/wipe-schedule.ts";
import { SERVER_TYPES } from "#core/shop/server-types.ts";
import { fairPlayState } from "#core/wipe/fair-play-state.ts";
import {
  minuteText,
  moscowDate,
  nextWipe,
  scheduleText,
  WIPE_KINDS,
  type WipeKind,
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

/** The type whose targets the fair-play form lists (a GET choice, so it works without JavaScript). */
const fairPlayTypeSchema = z.enum(SERVER_TYPES).catch(SERVER_TYPES[0]);

export async function loader({ context, request }: Route.LoaderArgs) {
  await requireOperator(context, request, "servers");
  const deps = context.get(depsContext);
  const [servers, fairPlay] = await Promise.all([listServers(deps), listFairPlay(deps)]);
  const fairPlayType = fairPlayTypeSchema.parse(new URL(request.url).searchParams.get("fairPlayType") ?? undefined);
  return { ...servers, fairPlay, fairPlayType, serverTypes: SERVER_TYPES, now: deps.now().getTime() };
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
  const { servers, unserved, serverTypes, now, fairPlay, fairPlayType } = loaderData;
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
                  {server.online && (
                    <div className="muted" data-testid="server-doorbell">
                      {doorbellText(server.doorbell)}
                    </div>
                  )}
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
      <FairPlaySection
        fairPlay={fairPlay}
        serverTypes={serverTypes}
        chosenType={fairPlayType}
        servers={servers}
        now={now}
      />
    </section>
  );
}

/**
 * One server's wipe schedule (decision 128): one plain form per kind, each with only its own fields
 * (issue 46), so nothing asks for a weekday the kind ignores, with or without JavaScript. The kind in
 * force is open; the others are a click away.
 */
function WipeScheduleForm({
  server,
  now,
}: {
  server: { id: number; name: string; wipe: WipeSchedule; lastWipeAt: number | null; countedWipeAt: number | null };
  now: number;
}) {
  const { wipe } = server;
  const next = nextWipe(wipe, now);
  const weekday = wipe.kind === "weekly" ? wipe.weekday : 4;
  const minute = wipe.kind === "weekly" || wipe.kind === "every_weeks" ? wipe.minute : 14 * 60;
  const from = wipe.kind === "every_weeks" ? wipe.from : moscowDate(now);
  const time = (
    <label className="admin-field">
      {WIPE_TEXT.timeLabel}
      <input name="time" type="time" defaultValue={minuteText(minute)} required />
    </label>
  );
  const fields: Record<WipeKind, React.ReactNode> = {
    none: null,
    forced: null,
    weekly: (
      <>
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
        {time}
      </>
    ),
    every_weeks: (
      <>
        <label className="admin-field">
          {WIPE_TEXT.weeksLabel}
          <input
            name="weeks"
            type="number"
            min={2}
            max={8}
            defaultValue={wipe.kind === "every_weeks" ? wipe.weeks : 2}
            required
          />
        </label>
        <label className="admin-field">
          {WIPE_TEXT.fromLabel}
          <input name="from" type="date" defaultValue={from} required />
        </label>
        {time}
      </>
    ),
  };
  return (
    <div className="admin-wipe-schedule" data-testid="wipe-schedule">
      <p>
        <strong>
          №{server.id} {server.name}
        </strong>{" "}
        <span className="muted" data-testid="wipe-schedule-now">
          {scheduleText(wipe)}
          {next ? ` · ${WIPE_TEXT.nextLabel} ${wipeDate(next.at)}${next.forced ? ` (${WIPE_TEXT.forced})` : ""}` : ""}
          {server.lastWipeAt != null ? ` · ${WIPE_TEXT.lastLabel} ${formatMoment(server.lastWipeAt)}` : ""}
          {" · "}
          {server.countedWipeAt != null
            ? WIPE_CONSOLE_TEXT.countedWipe(formatMoment(server.countedWipeAt))
            : WIPE_CONSOLE_TEXT.noCountedWipe}
        </span>
      </p>
      {WIPE_KINDS.map((kind) => (
        <details key={kind} className="admin-wipe-kind" open={kind === wipe.kind}>
          <summary>
            {WIPE_TEXT.kindLabels[kind]}
            {kind === wipe.kind ? ` · ${WIPE_CONSOLE_TEXT.current}` : ""}
          </summary>
          <Form
            method="post"
            className="admin-form"
            aria-label={WIPE_CONSOLE_TEXT.kindFormLabel(server.id, WIPE_TEXT.kindLabels[kind])}
            data-testid="wipe-schedule-form"
          >
            <input type="hidden" name="intent" value="wipe" />
            <input type="hidden" name="serverId" value={server.id} />
            <input type="hidden" name="wipeKind" value={kind} />
            {fields[kind]}
            <button type="submit" className="button button--small">
              {WIPE_TEXT.save}
            </button>
          </Form>
        </details>
      ))}
    </div>
  );
}

/**
 * The fair-play windows after a wipe (decision 129): the list, each saying whether it holds now, until
 * when and from which wipe (issue 46), with a remove button; a plain form that sets one (a type's
 * category or item; setting it again replaces it). The type is chosen first by a GET form, so the
 * target list holds only that type's items, with or without JavaScript.
 */
function FairPlaySection({
  fairPlay,
  serverTypes,
  chosenType,
  servers,
  now,
}: {
  fairPlay: {
    windows: (Omit<FairPlayRow, "purchasesOpen"> & { purchasesOpen: boolean })[];
    categories: { id: number; name: string }[];
    items: { id: number; name: string; serverType: string }[];
  };
  serverTypes: readonly string[];
  chosenType: string;
  servers: readonly { serverType: string; countedWipeAt: number | null }[];
  now: number;
}) {
  const submit = useSubmit();
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
              · {FAIR_PLAY_TEXT.rule(window.hours, window.purchasesOpen)} ·{" "}
              <span data-testid="fair-play-state">{fairPlayStateText(window, servers, now)}</span>{" "}
              <PostButton
                fields={{ intent: "fairPlayRemove", windowId: window.id }}
                label={FAIR_PLAY_TEXT.remove}
                ghost
              />
            </li>
          ))}
        </ul>
      )}
      <Form method="get" className="admin-form" aria-label={WIPE_CONSOLE_TEXT.showType}>
        <label className="admin-field">
          {FAIR_PLAY_TEXT.serverType}
          <select
            name="fairPlayType"
            defaultValue={chosenType}
            onChange={(event) => submit(event.currentTarget.form, { preventScrollReset: true, replace: true })}
          >
            {serverTypes.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button--small button--ghost">
          {WIPE_CONSOLE_TEXT.showType}
        </button>
      </Form>
      <Form method="post" className="admin-form" aria-label={FAIR_PLAY_TEXT.consoleTitle} data-testid="fair-play-form">
        <input type="hidden" name="intent" value="fairPlay" />
        <input type="hidden" name="serverType" value={chosenType} />
        <p className="admin-field">
          {FAIR_PLAY_TEXT.serverType}: <strong>{chosenType}</strong>
        </p>
        <label className="admin-field">
          {FAIR_PLAY_TEXT.target}
          <select name="target" required key={chosenType}>
            {fairPlay.categories.map((category) => (
              <option key={`c${category.id}`} value={`category:${category.id}`}>
                {FAIR_PLAY_TEXT.categoryOption(category.name)}
              </option>
            ))}
            {fairPlay.items
              .filter((item) => item.serverType === chosenType)
              .map((item) => (
                <option key={`i${item.id}`} value={`item:${item.id}`}>
                  {FAIR_PLAY_TEXT.itemOption(item.name)}
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

/** «действует сейчас, до 28.11.2026, 21:00 (МСК), от вайпа 27.11.2026, 18:00», or why it doesn't. */
function fairPlayStateText(
  window: { serverType: string; hours: number },
  servers: readonly { serverType: string; countedWipeAt: number | null }[],
  now: number,
): string {
  const state = fairPlayState(window, servers, now);
  if (state.kind === "no-wipe") return WIPE_CONSOLE_TEXT.noWipeYet;
  const text = state.kind === "holds" ? WIPE_CONSOLE_TEXT.holdsNow : WIPE_CONSOLE_TEXT.endedAt;
  return text(formatMoment(state.until), formatMoment(state.from));
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
