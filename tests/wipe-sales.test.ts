// Decision 144: a wipe sale is a percent off for some hours after each wipe of a server type. The cron
// adds each coming wipe's window as an ordinary sale, once; a window whose wipe left the schedule goes
// before it starts; ending the wipe sale ends its windows. Prices follow decision 113 unchanged.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { WIPE_SALE_TEXT } from "#core/messages/wipe.ts";
import { scheduleToColumns, type WipeSchedule } from "#core/wipe/schedule.ts";
import { servers } from "#db/schema.ts";
import { auditRowsFor, consoleArgs, createOperator, thrownStatus } from "#tests/support/admin-fixtures.ts";
import { testClock, testDeps } from "#tests/support/deps.ts";
import { createGameServer } from "#tests/support/game-fixtures.ts";
import { scheduleWipeSales } from "#worker/services/admin/wipe-sales.ts";
import { getItem } from "#worker/services/shop/catalog.ts";
import { action, loader } from "../app/routes/admin.sales.tsx";
import { createCategory, createItem } from "./support/shop-fixtures.ts";

const HOUR = 60 * 60 * 1000;
// Tuesday 1 December 2026, 10:00 in Moscow; December's forced wipe is Thursday the 3rd, 22:00.
const TUESDAY_10_MSK = Date.parse("2026-12-01T07:00:00Z");
/** An instant in Moscow time, "2026-12-01T20:00". */
const msk = (local: string) => Date.parse(`${local}:00Z`) - 3 * HOUR;

function world() {
  const clock = testClock(TUESDAY_10_MSK);
  return { clock, deps: testDeps({ now: clock.now }) };
}

type Deps = ReturnType<typeof testDeps>;

async function postForm(deps: Deps, token: string, form: [string, string][]) {
  return action(consoleArgs(deps, "/admin/sales", { token, form }));
}

async function setSchedule(deps: Deps, serverId: number, schedule: WipeSchedule) {
  await deps.db.orm
    .update(servers)
    .set(scheduleToColumns(schedule) as never)
    .where(eq(servers.id, serverId));
}

async function windows(deps: Deps, wipeSaleId: number) {
  return deps.db.orm.all<{
    title: string;
    percent: number;
    starts_at: number;
    ends_at: number;
    server_types: string;
    cancelled: number;
  }>(
    sql`SELECT title, percent, starts_at, ends_at, server_types, cancelled_at IS NOT NULL AS cancelled
        FROM sales WHERE wipe_sale_id = ${wipeSaleId} ORDER BY starts_at`,
  );
}

describe("wipe sales", () => {
  it("put a sale on each wipe of the chosen type for its hours, once, following the schedule, until ended", async () => {
    const { clock, deps } = world();
    const admin = await createOperator(deps, "admin");
    const categoryId = await createCategory("Распродажа на вайп");
    const item = await createItem({ categoryId, price: 20_000, serverType: "VANILLA" });
    const other = await createItem({ categoryId, price: 20_000, serverType: "MAX3" });
    const server = await createGameServer(deps, { serverType: "VANILLA" });
    await setSchedule(deps, server.id, { kind: "weekly", weekday: 2, minute: 20 * 60 });

    const created = await postForm(deps, admin.token, [
      ["intent", "wipe-create"],
      ["title", "Скидки на вайп"],
      ["percent", "20"],
      ["hours", "6"],
      ["categoryIds", String(categoryId)],
      ["serverTypes", "VANILLA"],
    ]);
    expect((created as Response).status).toBe(303);
    const page = await loader(
      consoleArgs(deps, (created as Response).headers.get("Location") ?? "", { token: admin.token }),
    );
    expect(page.notice).toEqual({ ok: true, message: "Распродажа на вайп создана" });
    const [sale] = page.wipeSales;
    expect(sale).toMatchObject({ title: "Скидки на вайп", percent: 20, hours: 6, serverTypes: ["VANILLA"] });
    const id = sale?.id ?? 0;
    expect(await auditRowsFor(deps, "sale", `wipe-${id}`)).toMatchObject([
      { action: "sale.wipe_create", operator_steam_id: admin.steamId },
    ]);

    // Tonight's wipe is within a day: its window is added, once.
    expect(await scheduleWipeSales(deps)).toEqual({ added: 1, removed: 0 });
    expect(await scheduleWipeSales(deps)).toEqual({ added: 0, removed: 0 });
    expect(await windows(deps, id)).toEqual([
      {
        title: "Скидки на вайп",
        percent: 20,
        starts_at: msk("2026-12-01T20:00"),
        ends_at: msk("2026-12-02T02:00"),
        server_types: '["VANILLA"]',
        cancelled: 0,
      },
    ]);
    expect(await getItem(deps, item)).toMatchObject({ discount_price: 200, sale: null });

    // The operator moves the wipe to Wednesday 09:00: the planned window follows it.
    await setSchedule(deps, server.id, { kind: "weekly", weekday: 3, minute: 9 * 60 });
    expect(await scheduleWipeSales(deps)).toEqual({ added: 1, removed: 1 });
    expect((await windows(deps, id)).map((row) => row.starts_at)).toEqual([msk("2026-12-02T09:00")]);

    // During the window the covered item is 20% off; another type's item is not.
    clock.set(msk("2026-12-02T09:30"));
    expect(await getItem(deps, item)).toMatchObject({
      discount_price: 160,
      sale: { title: "Скидки на вайп", percent: 20, ends_at: new Date(msk("2026-12-02T15:00")).toISOString() },
    });
    expect(await getItem(deps, other)).toMatchObject({ discount_price: 200, sale: null });
    // A started window stays, whatever happens to the schedule.
    await setSchedule(deps, server.id, { kind: "forced" });
    expect(await scheduleWipeSales(deps)).toEqual({ added: 0, removed: 0 });
    clock.set(msk("2026-12-02T15:30"));
    expect(await getItem(deps, item)).toMatchObject({ discount_price: 200, sale: null });

    // Thursday's forced wipe comes within a day: its window is added; ending the wipe sale ends it.
    clock.set(msk("2026-12-03T00:00"));
    expect(await scheduleWipeSales(deps)).toEqual({ added: 1, removed: 0 });
    const ended = await postForm(deps, admin.token, [
      ["intent", "wipe-end"],
      ["id", String(id)],
    ]);
    expect((ended as Response).headers.get("Location")).toBe("/admin/sales?done=wipe-ended");
    expect((await windows(deps, id)).map((row) => [row.starts_at, row.cancelled])).toEqual([
      [msk("2026-12-02T09:00"), 0],
      [msk("2026-12-03T22:00"), 1],
    ]);
    clock.set(msk("2026-12-03T22:30"));
    expect(await scheduleWipeSales(deps)).toEqual({ added: 0, removed: 0 });
    expect(await getItem(deps, item)).toMatchObject({ discount_price: 200, sale: null });
    expect((await auditRowsFor(deps, "sale", `wipe-${id}`)).map((row) => row.action)).toEqual([
      "sale.wipe_create",
      "sale.wipe_end",
    ]);
    const again = await postForm(deps, admin.token, [
      ["intent", "wipe-end"],
      ["id", String(id)],
    ]);
    expect(again).toMatchObject({
      data: { ok: false, error: "Эта распродажа на вайп уже завершена" },
      init: { status: 409 },
    });
  });

  it("refuses hours outside 1–72 and a stranger's post, creating and journaling nothing", async () => {
    const { deps } = world();
    const admin = await createOperator(deps, "admin");
    const before = (await loader(consoleArgs(deps, "/admin/sales", { token: admin.token }))).wipeSales.length;
    const form = (hours: string): [string, string][] => [
      ["intent", "wipe-create"],
      ["title", "Скидки на вайп"],
      ["percent", "20"],
      ["hours", hours],
    ];
    for (const hours of ["0", "73", "", "1.5"]) {
      expect(await postForm(deps, admin.token, form(hours))).toMatchObject({
        data: { ok: false, error: WIPE_SALE_TEXT.badHours },
        init: { status: 400 },
      });
    }
    expect(WIPE_SALE_TEXT.badHours).toBe("Укажите целое число часов от 1 до 72");
    const support = await createOperator(deps, "support");
    expect((await thrownStatus(postForm(deps, support.token, form("6")))).status).toBe(403);
    expect((await loader(consoleArgs(deps, "/admin/sales", { token: admin.token }))).wipeSales).toHaveLength(before);
  });
});
