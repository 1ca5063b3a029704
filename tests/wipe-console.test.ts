// Issue 46 item 10: the console's wipe forms. Each schedule kind has its own plain form with only its
// fields; a fair-play row says whether it holds now, until when and from which wipe, and «Серверы»
// shows that wipe; the fair-play target list holds the chosen type's items; a wipe sale says its next
// window. Pages as the server renders them (no JavaScript).
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { scheduleToColumns } from "#core/wipe/schedule.ts";
import { fairPlayWindows, servers } from "#db/schema.ts";
import { actionResult, consoleArgs, createOperator } from "#tests/support/admin-fixtures.ts";
import { testClock, testDeps } from "#tests/support/deps.ts";
import { createGameServer, uniqueServerType } from "#tests/support/game-fixtures.ts";
import { createCategory, createItem } from "#tests/support/shop-fixtures.ts";
import AdminSales, { action as salesAction, loader as salesLoader } from "../app/routes/admin.sales.tsx";
import AdminServers, { action, loader } from "../app/routes/admin.servers.tsx";

// Tuesday 1 December 2026, 10:00 in Moscow; December's forced wipe is Thursday the 3rd, 22:00.
const START = Date.parse("2026-12-01T07:00:00Z");
const HOUR = 3_600_000;

function render(component: unknown, loaderData: unknown) {
  return renderToStaticMarkup(
    createElement(RouterProvider, {
      router: createMemoryRouter([
        // biome-ignore lint/suspicious/noExplicitAny: the route's generated props, filled by hand
        { path: "/", element: createElement(component as any, { loaderData } as any) },
      ]),
    }),
  );
}

/** The form `label` names, as markup. */
function form(html: string, label: string): string {
  const start = html.indexOf(`aria-label="${label}"`);
  expect(start, label).toBeGreaterThan(-1);
  return html.slice(html.lastIndexOf("<form", start), html.indexOf("</form>", start));
}

const fieldsOf = (markup: string) => [...markup.matchAll(/<(?:input|select)[^>]* name="([^"]+)"/g)].map((m) => m[1]);

describe("Серверы: a wipe schedule form per kind", () => {
  it("each holds only its own fields, the kind in force is open, and a kind saves with nothing else", async () => {
    const deps = testDeps({ now: testClock(START).now });
    const admin = await createOperator(deps, "admin");
    const server = await createGameServer(deps);
    await deps.db.orm
      .update(servers)
      .set(scheduleToColumns({ kind: "weekly", weekday: 3, minute: 18 * 60 }) as never)
      .where(eq(servers.id, server.id));
    const html = render(AdminServers, await loader(consoleArgs(deps, "/admin/servers", { token: admin.token })));
    const label = (kind: string) => `Расписание вайпов сервера №${server.id}: ${kind}`;
    const fixed = ["intent", "serverId", "wipeKind"];
    expect(fieldsOf(form(html, label("Не задано")))).toEqual(fixed);
    expect(fieldsOf(form(html, label("Только глобальный вайп")))).toEqual(fixed);
    expect(fieldsOf(form(html, label("Каждую неделю")))).toEqual([...fixed, "weekday", "time"]);
    expect(fieldsOf(form(html, label("Раз в N недель")))).toEqual([...fixed, "weeks", "from", "time"]);
    expect(html).toContain('<details class="admin-wipe-kind" open=""><summary>Каждую неделю · сейчас</summary>');

    const saved = await action(
      consoleArgs(deps, "/admin/servers", {
        token: admin.token,
        form: { intent: "wipe", serverId: String(server.id), wipeKind: "forced" },
      }),
    ).then(actionResult);
    expect(saved.status).toBe(200);
    const [row] = await deps.db.orm.select({ kind: servers.wipeKind }).from(servers).where(eq(servers.id, server.id));
    expect(row?.kind).toBe("forced");
  });
});

describe("Серверы: fair-play windows", () => {
  it("say whether they hold now, until when, from the wipe «Серверы» shows", async () => {
    const clock = testClock(START);
    const deps = testDeps({ now: clock.now });
    const admin = await createOperator(deps, "admin");
    const serverType = uniqueServerType();
    const server = await createGameServer(deps, { serverType });
    await deps.db.orm
      .update(servers)
      .set({ lastWipeAt: START - HOUR })
      .where(eq(servers.id, server.id));
    const categoryId = await createCategory(`Наборы ${serverType}`);
    await deps.db.orm.insert(fairPlayWindows).values({ serverType, categoryId, hours: 3, createdAt: START });
    const unwiped = uniqueServerType();
    await deps.db.orm.insert(fairPlayWindows).values({ serverType: unwiped, categoryId, hours: 3, createdAt: START });

    const row = async (type: string) => {
      const html = render(AdminServers, await loader(consoleArgs(deps, "/admin/servers", { token: admin.token })));
      const start = html.indexOf(`<li>${type} ·`);
      return { html, row: html.slice(start, html.indexOf("</li>", start)).replace(/<[^>]+>/g, "") };
    };
    const now = await row(serverType);
    expect(now.row).toContain(
      "3 ч после вайпа, покупка открыта · действует сейчас, до 01.12.2026, 12:00 (МСК), от вайпа 01.12.2026, 09:00",
    );
    expect(now.html).toContain("окна честной игры считаются от вайпа 01.12.2026, 09:00 (МСК)");
    expect((await row(unwiped)).row).toContain("сейчас не действует: у серверов этого типа ещё не было вайпа");

    clock.advance(2 * HOUR);
    expect((await row(serverType)).row).toContain(
      "сейчас не действует: закончилось 01.12.2026, 12:00 (МСК), от вайпа 01.12.2026, 09:00",
    );
  });

  it("are set on the type chosen first: the target list holds that type's items only", async () => {
    const deps = testDeps({ now: testClock(START).now });
    const admin = await createOperator(deps, "admin");
    await createItem({ name: "Набор для MAX2", serverType: "MAX2" });
    await createItem({ name: "Набор для SOLO", serverType: "SOLO" });
    const targets = async (path: string) => {
      const html = render(AdminServers, await loader(consoleArgs(deps, path, { token: admin.token })));
      return form(html, "Честная игра после вайпа");
    };
    const max2 = await targets("/admin/servers?fairPlayType=MAX2");
    expect(max2).toContain('<input type="hidden" name="serverType" value="MAX2"/>');
    expect(max2).toContain("Товар «Набор для MAX2»");
    expect(max2).not.toContain("Набор для SOLO");
    const solo = await targets("/admin/servers");
    expect(solo).toContain('<input type="hidden" name="serverType" value="SOLO"/>');
    expect(solo).toContain("Товар «Набор для SOLO»");
    expect(solo).not.toContain("Набор для MAX2");
  });
});

describe("Распродажи: a wipe sale", () => {
  it("says when its next window starts, and that it is on while it is", async () => {
    const clock = testClock(START);
    const deps = testDeps({ now: clock.now });
    const admin = await createOperator(deps, "admin");
    const server = await createGameServer(deps, { serverType: "MAX3" });
    await deps.db.orm
      .update(servers)
      .set(scheduleToColumns({ kind: "weekly", weekday: 3, minute: 18 * 60 }) as never)
      .where(eq(servers.id, server.id));
    const created = await salesAction(
      consoleArgs(deps, "/admin/sales", {
        token: admin.token,
        form: [
          ["intent", "wipe-create"],
          ["title", "Скидки на вайп MAX3"],
          ["percent", "20"],
          ["hours", "6"],
          ["serverTypes", "MAX3"],
        ],
      }),
    );
    expect((created as Response).status).toBe(303);
    const state = async () => {
      const html = render(AdminSales, await salesLoader(consoleArgs(deps, "/admin/sales", { token: admin.token })));
      const start = html.indexOf("Скидки на вайп MAX3");
      return html.slice(start, html.indexOf("</tr>", start)).replace(/<[^>]+>/g, " ");
    };
    expect(await state()).toContain("Действует Следующее окно: с 02.12.2026, 18:00 (МСК)");
    clock.set(Date.parse("2026-12-02T17:00:00Z"));
    expect(await state()).toContain("Действует Идёт окно: до 03.12.2026, 00:00 (МСК)");
  });
});
