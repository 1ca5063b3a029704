// Decision 128: an operator sets a server's wipe schedule in «Серверы» with a plain form; each change
// is journaled with the schedule before and after; refusals say what to fix, in Russian.
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { WIPE_FORM_TEXT } from "#core/messages/wipe.ts";
import { servers, serverWipes } from "#db/schema.ts";
import {
  actionResult,
  auditRowsFor,
  consoleArgs,
  createOperator,
  thrownStatus,
} from "#tests/support/admin-fixtures.ts";
import { testClock, testDeps } from "#tests/support/deps.ts";
import { clockedTransport, createGameServer } from "#tests/support/game-fixtures.ts";
import { PluginSimulator } from "#tests/support/plugin-simulator.ts";
import { routeArgs } from "#tests/support/routes.ts";
import { createItem } from "#tests/support/shop-fixtures.ts";
import { STATUS_KEY } from "#worker/services/server-status.ts";
import { formatMoment } from "../app/components/admin/format.ts";
import AdminServers, { action, loader } from "../app/routes/admin.servers.tsx";
import { loader as itemLoader } from "../app/routes/shop.item.tsx";
import { loader as wipesLoader } from "../app/routes/wipes.tsx";

// Tuesday 1 December 2026, 10:00 in Moscow; December's forced wipe is Thursday the 3rd, 22:00.
const clock = testClock(Date.parse("2026-12-01T07:00:00Z"));
const deps = testDeps({ now: clock.now });

const post = (token: string, form: Record<string, string>) =>
  action(consoleArgs(deps, "/admin/servers", { token, form })).then(actionResult);

/** What a plain form posts: every field, whichever kind is chosen. */
const plainForm = (serverId: number, fields: Record<string, string>) => ({
  intent: "wipe",
  serverId: String(serverId),
  wipeKind: "none",
  weekday: "4",
  time: "14:00",
  weeks: "2",
  from: "2026-12-01",
  ...fields,
});

async function columns(serverId: number) {
  const [row] = await deps.db.orm
    .select({
      kind: servers.wipeKind,
      weekday: servers.wipeWeekday,
      minute: servers.wipeMinute,
      weeks: servers.wipeEveryWeeks,
      from: servers.wipeFrom,
    })
    .from(servers)
    .where(eq(servers.id, serverId));
  return row;
}

function page(loaderData: unknown, actionData?: unknown) {
  return renderToStaticMarkup(
    createElement(RouterProvider, {
      router: createMemoryRouter([
        // biome-ignore lint/suspicious/noExplicitAny: the route's generated props, filled by hand
        { path: "/", element: createElement(AdminServers, { loaderData, actionData } as any) },
      ]),
    }),
  );
}

describe("Серверы: the wipe schedule", () => {
  it("starts as «не задано» and saves a weekly schedule, journaled with before and after", async () => {
    const admin = await createOperator(deps, "admin");
    const server = await createGameServer(deps);
    const before = await loader(consoleArgs(deps, "/admin/servers", { token: admin.token }));
    expect(before.servers.find((row) => row.id === server.id)?.wipe).toEqual({ kind: "none" });

    const saved = await post(admin.token, plainForm(server.id, { wipeKind: "weekly", weekday: "3", time: "18:30" }));
    expect(saved.status).toBe(200);
    expect(saved.data.message).toBe(
      `Расписание вайпов сервера №${server.id} сохранено — каждую неделю: ср 18:30\u00a0МСК`,
    );
    expect(await columns(server.id)).toEqual({
      kind: "weekly",
      weekday: 3,
      minute: 18 * 60 + 30,
      weeks: null,
      from: null,
    });

    const [row] = await auditRowsFor(deps, "server", server.id);
    expect(row?.action).toBe("server.wipe_schedule");
    expect(row?.operator_steam_id).toBe(admin.steamId);
    expect(JSON.parse(row?.before ?? "null")).toEqual({
      kind: "none",
      weekday: null,
      minute: null,
      weeks: null,
      from: null,
    });
    expect(JSON.parse(row?.after ?? "null")).toEqual({ kind: "weekly", weekday: 3, minute: 1110 });

    // The page, as rendered without JavaScript: a plain post form with the schedule and the next wipe.
    const after = await loader(consoleArgs(deps, "/admin/servers", { token: admin.token }));
    const html = page(after);
    // One plain form per kind (issue 46): the kind in force is the open one.
    expect(html).toMatch(
      new RegExp(`<form [^>]*aria-label="Расписание вайпов сервера №${server.id}: Каждую неделю"[^>]*method="post"`),
    );
    expect(html).toContain('<details class="admin-wipe-kind" open=""><summary>Каждую неделю · сейчас</summary>');
    expect(html).toContain("каждую неделю: ср 18:30\u00a0МСК · следующий: ср, 2 декабря в 18:30");
  });

  it("every N weeks keeps its date and period; forced-only and none clear what they don't use", async () => {
    const admin = await createOperator(deps, "admin");
    const server = await createGameServer(deps);
    expect(
      (
        await post(
          admin.token,
          plainForm(server.id, { wipeKind: "every_weeks", weeks: "3", from: "2026-12-10", time: "9:05" }),
        )
      ).data.message,
    ).toBe(`Расписание вайпов сервера №${server.id} сохранено — раз в 3 недели: чт 09:05\u00a0МСК, с 10.12.2026`);
    expect(await columns(server.id)).toEqual({
      kind: "every_weeks",
      weekday: null,
      minute: 545,
      weeks: 3,
      from: "2026-12-10",
    });
    const listed = await loader(consoleArgs(deps, "/admin/servers", { token: admin.token }));
    // Before its first date only the forced wipe counts.
    expect(page(listed)).toContain("с 10.12.2026 · следующий: чт, 3 декабря в 22:00 (глобальный вайп)");

    await post(admin.token, plainForm(server.id, { wipeKind: "forced" }));
    expect(await columns(server.id)).toEqual({ kind: "forced", weekday: null, minute: null, weeks: null, from: null });
    await post(admin.token, plainForm(server.id, { wipeKind: "none" }));
    expect(await columns(server.id)).toEqual({ kind: "none", weekday: null, minute: null, weeks: null, from: null });
    expect((await auditRowsFor(deps, "server", server.id)).map((row) => JSON.parse(row.after ?? "null").kind)).toEqual([
      "every_weeks",
      "forced",
      "none",
    ]);
  });

  it("refuses what is not a schedule with the field's Russian text, changing and journaling nothing", async () => {
    const admin = await createOperator(deps, "admin");
    const server = await createGameServer(deps);
    const cases: [Record<string, string>, string][] = [
      [{ wipeKind: "monthly" }, WIPE_FORM_TEXT.kind],
      [{ wipeKind: "weekly", time: "25:00" }, "Время вайпа в виде 14:00 (по Москве)"],
      [{ wipeKind: "weekly", time: "" }, WIPE_FORM_TEXT.time],
      [{ wipeKind: "weekly", weekday: "8" }, "Выберите день недели вайпа"],
      [{ wipeKind: "every_weeks", weeks: "1" }, "Раз в сколько недель: от 2 до 8 (каждую неделю — «Каждую неделю»)"],
      [{ wipeKind: "every_weeks", weeks: "9" }, WIPE_FORM_TEXT.weeks],
      [{ wipeKind: "every_weeks", from: "2026-02-30" }, "Дата первого вайпа в виде 2026-12-03"],
    ];
    for (const [fields, error] of cases) {
      const refused = await post(admin.token, plainForm(server.id, fields));
      expect(refused).toEqual({ status: 400, data: { ok: false, error } });
    }
    expect(await columns(server.id)).toMatchObject({ kind: "none" });
    expect(await auditRowsFor(deps, "server", server.id)).toEqual([]);
    expect(await post(admin.token, plainForm(999_999, { wipeKind: "forced" }))).toEqual({
      status: 404,
      data: { ok: false, error: "Сервер не найден" },
    });
  });

  it("is the admin's: support can't read the page or post a schedule", async () => {
    const support = await createOperator(deps, "support");
    const server = await createGameServer(deps);
    const refused = await thrownStatus(
      action(
        consoleArgs(deps, "/admin/servers", {
          token: support.token,
          form: plainForm(server.id, { wipeKind: "forced" }),
        }),
      ),
    );
    expect(refused.status).toBe(403);
    expect(await columns(server.id)).toMatchObject({ kind: "none" });
    expect(await auditRowsFor(deps, "server", server.id)).toEqual([]);
  });
});

describe("what players read follows the console at once (issue 45)", () => {
  it("/wipes shows a schedule as soon as it is saved, and the item page drops a removed server's wipe", async () => {
    const admin = await createOperator(deps, "admin");
    const server = await createGameServer(deps, { name: `Сразу ${Date.now()}` });
    const itemId = await createItem({ serverType: server.serverType });
    // The cron's last document, written a moment before the save: the next write is minutes away.
    await deps.kv.put(STATUS_KEY, JSON.stringify({ updated_at: clock.now().getTime(), servers: [] }));
    const wipes = () => wipesLoader(routeArgs<Parameters<typeof wipesLoader>[0]>(deps, "http://localhost/wipes"));
    const itemWipe = async () =>
      (
        await itemLoader(
          routeArgs<Parameters<typeof itemLoader>[0]>(
            deps,
            `http://localhost/shop/items/${itemId}`,
            {},
            { params: { id: String(itemId) } },
          ),
        )
      ).wipe;

    await post(admin.token, plainForm(server.id, { wipeKind: "weekly", weekday: "3", time: "18:30" }));
    const listed = (await wipes()).servers?.find((row) => row.name === server.name);
    expect(listed?.wipe).toEqual({ kind: "weekly", weekday: 3, minute: 18 * 60 + 30 });
    expect(await itemWipe()).toMatchObject({ server: server.name, phrase: "вайп завтра в 18:30\u00a0МСК" });

    const removed = await post(admin.token, { intent: "remove", serverId: String(server.id), confirm: "yes" });
    expect(removed.status).toBe(200);
    expect((await wipes()).servers?.some((row) => row.name === server.name)).toBe(false);
    expect(await itemWipe()).toBeNull();
  });
});

describe("wipes that actually happened", () => {
  it("are recorded once from the plugin's heartbeat, and «Серверы» shows the last", async () => {
    const admin = await createOperator(deps, "admin");
    const server = await createGameServer(deps);
    const plugin = new PluginSimulator({
      transport: clockedTransport(clock.now),
      serverId: server.id,
      serverKey: server.key,
      now: clock.now,
    });
    const seconds = (ms: number) => Math.floor(ms / 1000);
    const recorded = async () =>
      (
        await deps.db.orm
          .select({ wipedAt: serverWipes.wipedAt })
          .from(serverWipes)
          .where(eq(serverWipes.serverId, server.id))
          .orderBy(serverWipes.wipedAt)
      ).map((row) => row.wipedAt);
    const firstWipe = clock.now().getTime() - 3 * 3_600_000;
    const beat = async (wipedAt: number | undefined) => {
      clock.advance(1000);
      expect(
        (await plugin.heartbeat([], { wiped_at: wipedAt === undefined ? undefined : seconds(wipedAt) })).status,
      ).toBe(200);
    };
    await beat(undefined);
    expect(await recorded()).toEqual([]);
    await beat(firstWipe);
    await beat(firstWipe);
    // The same wipe a few minutes off (a restart, a clock) is still that wipe.
    await beat(firstWipe + 5 * 60_000);
    expect(await recorded()).toEqual([seconds(firstWipe) * 1000]);
    const nextWipe = clock.now().getTime() - 60_000;
    await beat(nextWipe);
    expect(await recorded()).toEqual([seconds(firstWipe) * 1000, seconds(nextWipe) * 1000]);

    const listed = await loader(consoleArgs(deps, "/admin/servers", { token: admin.token }));
    expect(listed.servers.find((row) => row.id === server.id)?.lastWipeAt).toBe(seconds(nextWipe) * 1000);
    expect(page(listed)).toContain(`не задано · последний по плагину: ${formatMoment(seconds(nextWipe) * 1000)} · `);
  });
});
