// Decision 128: players see the wipe. The status cron carries each server's schedule to the server
// list, whose card names the next wipe; /wipes lists every server's next wipes, linked from the list
// and the footer. Pages as the server renders them (no JavaScript).
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { scheduleToColumns, type WipeSchedule } from "#core/wipe/schedule.ts";
import { servers } from "#db/schema.ts";
import { depsFor, testClock } from "#tests/support/deps.ts";
import { createGameServer } from "#tests/support/game-fixtures.ts";
import { routeArgs } from "#tests/support/routes.ts";
import { createItem } from "#tests/support/shop-fixtures.ts";
import { type PublicServer, refreshServerStatus, STATUS_KEY } from "#worker/services/server-status.ts";
import { ServerList } from "../app/components/server-list.tsx";
import { ItemWipeNote } from "../app/components/shop/item-wipe-note.tsx";
import { SiteFooter } from "../app/components/site-footer.tsx";
import Home, { loader as homeLoader } from "../app/routes/home.tsx";
import { loader as itemLoader } from "../app/routes/shop.item.tsx";
import Wipes, { loader as wipesLoader } from "../app/routes/wipes.tsx";
import routes from "../app/routes.ts";
import { FakeSteamWebApi } from "./fakes/steam-webapi.ts";

// Tuesday 1 December 2026, 10:00 in Moscow; December's forced wipe is Thursday the 3rd, 22:00.
const TUESDAY_10_MSK = Date.parse("2026-12-01T07:00:00Z");
const HOUR = 3_600_000;

function render(element: ReturnType<typeof createElement>) {
  return renderToStaticMarkup(createElement(RouterProvider, { router: createMemoryRouter([{ path: "/", element }]) }));
}

async function scheduled(deps: ReturnType<typeof depsFor>, schedule: WipeSchedule) {
  const server = await createGameServer(deps, { name: `Вайп ${Math.random().toString(36).slice(2)}` });
  await deps.db.orm
    .update(servers)
    .set(scheduleToColumns(schedule) as never)
    .where(eq(servers.id, server.id));
  return server;
}

describe("the server card names the next wipe", () => {
  it("from the schedule the cron put in the status document, on the server and after the browser's refresh", async () => {
    const clock = testClock(TUESDAY_10_MSK);
    const steam = new FakeSteamWebApi();
    const deps = depsFor({ ...env, STEAM_WEBAPI_BASE: steam.base }, { fetch: steam.fetch, now: clock.now });
    const tonight = await scheduled(deps, { kind: "weekly", weekday: 2, minute: 20 * 60 });
    const thursday = await scheduled(deps, { kind: "weekly", weekday: 4, minute: 14 * 60 });
    const plain = await createGameServer(deps);
    const { document } = await refreshServerStatus(deps, { steamTimeoutMs: 1000 });
    const byName = (name: string) => document.servers.find((server) => server.name === name);
    expect(byName(tonight.name)?.wipe).toEqual({ kind: "weekly", weekday: 2, minute: 1200 });
    // A server without a schedule reads as before: no `wipe` in the document or the API.
    expect(byName(plain.name)).not.toHaveProperty("wipe");
    await deps.kv.put(STATUS_KEY, JSON.stringify(document));

    const data = await homeLoader(routeArgs(deps, "http://localhost/"));
    const html = renderToStaticMarkup(
      createElement(ServerList, { initial: data.servers, renderedAt: data.renderedAt }),
    );
    const card = (name: string) => {
      const start = html.indexOf(name);
      return html.slice(html.lastIndexOf("<li", start), html.indexOf("</li>", start));
    };
    expect(card(tonight.name)).toContain('<span class="server-card__wipe">вайп сегодня в 20:00\u00a0МСК</span>');
    // Thursday the 3rd is the forced wipe's day: it replaces the 14:00 wipe.
    expect(card(thursday.name)).toContain('<span class="server-card__wipe">вайп через 2 дня, чт 22:00\u00a0МСК</span>');
    expect(card(plain.name)).not.toContain("вайп");

    // At Moscow midnight the same document reads on: the phrase is computed at each render, not stored.
    // Tuesday's 20:00 has passed, and Thursday's forced wipe comes before next Tuesday's.
    const later = renderToStaticMarkup(
      createElement(ServerList, { initial: data.servers, renderedAt: TUESDAY_10_MSK + 14 * HOUR }),
    );
    expect(later.match(/<span class="server-card__wipe">вайп завтра в 22:00\u00a0МСК<\/span>/g)).toHaveLength(2);
  });

  it("ignores a schedule in the document that is not one, instead of promising a wrong wipe", async () => {
    const clock = testClock(TUESDAY_10_MSK);
    const deps = depsFor(env, { now: clock.now });
    const broken = {
      name: "Сломанный",
      server_type: "SOLO",
      status: "online",
      players: { current: 1, max: 10 },
      ip_port: "192.0.2.1:28015",
      wipe: { kind: "weekly", weekday: 9, minute: 0 },
    };
    await deps.kv.put(STATUS_KEY, JSON.stringify({ updated_at: TUESDAY_10_MSK, servers: [broken] }));
    const [listed] = (await homeLoader(routeArgs(deps, "http://localhost/"))).servers ?? [];
    expect(listed?.name).toBe("Сломанный");
    expect(listed?.wipe).toBeUndefined();
    const html = renderToStaticMarkup(
      createElement(ServerList, { initial: [listed as PublicServer], renderedAt: TUESDAY_10_MSK }),
    );
    expect(html).toContain("Сломанный");
    expect(html).not.toContain("вайп");
  });
});

describe("/wipes, the wipe calendar", () => {
  const documentServers: PublicServer[] = [
    {
      name: "Свобода #2 | VANILLA",
      server_type: "VANILLA",
      status: "online",
      players: { current: 10, max: 100 },
      ip_port: "192.0.2.2:28015",
      wipe: { kind: "weekly", weekday: 4, minute: 14 * 60 },
    },
    {
      name: "Свобода #3 | MAX 2",
      server_type: "MAX2",
      status: "online",
      players: { current: 10, max: 100 },
      ip_port: "192.0.2.3:28015",
      wipe: { kind: "every_weeks", weeks: 2, from: "2026-11-23", minute: 18 * 60 },
    },
    {
      name: "Свобода #1 | SOLO",
      server_type: "SOLO",
      status: "offline",
      players: { current: 0, max: 100 },
      ip_port: "192.0.2.1:28015",
      wiped_at: TUESDAY_10_MSK - 3 * HOUR,
    },
  ];

  async function page() {
    const deps = depsFor(env, { now: testClock(TUESDAY_10_MSK).now });
    await deps.kv.put(STATUS_KEY, JSON.stringify({ updated_at: TUESDAY_10_MSK, servers: documentServers }));
    const loaderData = await wipesLoader(routeArgs(deps, "http://localhost/wipes"));
    // biome-ignore lint/suspicious/noExplicitAny: the route's generated props, filled by hand
    return render(createElement(Wipes, { loaderData } as any));
  }

  it("lists every scheduled server's next wipes in time order, the forced wipe marked", async () => {
    const html = await page();
    const rows = [...html.matchAll(/<tr data-testid="wipe-row">(.*?)<\/tr>/g)].map((row) =>
      [...(row[1] ?? "").matchAll(/<td>(?:<time[^>]*>)?(.*?)(?:<\/time>)?<\/td>/g)].map((cell) => cell[1]),
    );
    expect(rows.slice(0, 5)).toEqual([
      ["чт, 3 декабря в 22:00", "Свобода #2 | VANILLA", "глобальный вайп"],
      ["чт, 3 декабря в 22:00", "Свобода #3 | MAX 2", "глобальный вайп"],
      ["пн, 7 декабря в 18:00", "Свобода #3 | MAX 2", "по расписанию"],
      ["чт, 10 декабря в 14:00", "Свобода #2 | VANILLA", "по расписанию"],
      ["чт, 17 декабря в 14:00", "Свобода #2 | VANILLA", "по расписанию"],
    ]);
    // Every scheduled server's wipes to the first forced wipe two weeks or more away (issue 46): it ends
    // the list, with every scheduled server on it; none of the one without a schedule.
    expect(rows).toHaveLength(11);
    expect(rows.slice(-2)).toEqual([
      ["чт, 7 января в 22:00", "Свобода #2 | VANILLA", "глобальный вайп"],
      ["чт, 7 января в 22:00", "Свобода #3 | MAX 2", "глобальный вайп"],
    ]);
    expect(html).toContain(
      "Все вайпы серверов с расписанием до глобального вайпа чт, 7 января в 22:00\u00a0МСК включительно.",
    );
    expect(html).not.toMatch(/<td>Свобода #1 \| SOLO<\/td>/);
  });

  it("says each server's schedule in words, with its card's phrase and the last reported wipe", async () => {
    const html = await page();
    expect(html).toContain("<h1>Календарь вайпов</h1>");
    const phrase = (text: string) => `<span class="wipe-schedules__phrase"> · ${text}</span>`;
    expect(html).toContain(`каждую неделю: чт 14:00\u00a0МСК${phrase("вайп через 2 дня, чт 22:00\u00a0МСК")}`);
    expect(html).toContain(
      `раз в 2 недели: пн 18:00\u00a0МСК, с 23.11.2026${phrase("вайп через 2 дня, чт 22:00\u00a0МСК")}`,
    );
    expect(html).toContain(`Сервер не объявил расписание${phrase("вайп был 3 ч назад")}`);
    expect(html).toContain("Последний вайп: 01.12.2026, 07:00\u00a0МСК");
  });

  it("says so when the status store can't be read, instead of failing", async () => {
    // The key-value port itself failing, on either runtime.
    const brokenKv = { ...depsFor(env).kv, get: () => Promise.reject(new Error("KV is down")) };
    const deps = { ...depsFor(env, { now: testClock(TUESDAY_10_MSK).now }), kv: brokenKv };
    const loaderData = await wipesLoader(routeArgs(deps, "http://localhost/wipes"));
    expect(loaderData.servers).toBeNull();
    // biome-ignore lint/suspicious/noExplicitAny: the route's generated props, filled by hand
    const html = render(createElement(Wipes, { loaderData } as any));
    expect(html).toContain("Не удалось загрузить расписание вайпов. Попробуйте позже.");
  });

  it("is a route, linked from the server list and the footer", async () => {
    expect(routes).toContainEqual(expect.objectContaining({ path: "wipes", file: "routes/wipes.tsx" }));
    const footer = renderToStaticMarkup(
      createElement(SiteFooter, { discordUrl: "https://discord.gg/x", seller: null, year: 2026 }),
    );
    expect(footer).toContain('href="/wipes"');
    expect(footer).toContain(">Календарь вайпов</a>");
    const deps = depsFor(env, { now: testClock(TUESDAY_10_MSK).now });
    const loaderData = await homeLoader(routeArgs(deps, "http://localhost/"));
    // biome-ignore lint/suspicious/noExplicitAny: the route's generated props, filled by hand
    const home = render(createElement(Home, { loaderData } as any));
    expect(home).toMatch(/<a href="\/wipes"[^>]*>Календарь вайпов всех серверов →<\/a>/);
  });
});

describe("the item page says what the next wipe means", () => {
  it("names the earliest next wipe among its type's servers, and what a wipe takes away", async () => {
    const deps = depsFor(env, { now: testClock(TUESDAY_10_MSK).now });
    const [scheduledType, plainType] = [`WIPE_${Date.now()}`, `PLAIN_${Date.now()}`];
    const server = (name: string, serverType: string, wipe?: WipeSchedule): PublicServer => ({
      name,
      server_type: serverType,
      status: "online",
      players: { current: 1, max: 10 },
      ip_port: `192.0.2.${Math.floor(Math.random() * 250)}:28015`,
      ...(wipe ? { wipe } : {}),
    });
    await deps.kv.put(
      STATUS_KEY,
      JSON.stringify({
        updated_at: TUESDAY_10_MSK,
        servers: [
          server("Поздний", scheduledType, { kind: "forced" }),
          server("Ранний", scheduledType, { kind: "weekly", weekday: 3, minute: 18 * 60 }),
          server("Без расписания", plainType),
        ],
      }),
    );
    const load = async (serverType: string) => {
      const id = await createItem({ serverType });
      return itemLoader(
        routeArgs<Parameters<typeof itemLoader>[0]>(
          deps,
          `http://localhost/shop/items/${id}`,
          {},
          {
            params: { id: String(id) },
          },
        ),
      );
    };
    const page = await load(scheduledType);
    expect(page.wipe).toEqual({
      server: "Ранний",
      phrase: "вайп завтра в 18:00\u00a0МСК",
      at: Date.parse("2026-12-02T15:00:00Z"),
    });
    expect(renderToStaticMarkup(createElement(ItemWipeNote, { wipe: page.wipe }))).toBe(
      '<p class="item-wipe" data-testid="item-wipe"><strong>Вайп.</strong> «Ранний»: вайп завтра в 18:00\u00a0МСК. ' +
        '<span class="muted">Вайп сбрасывает карту: постройки и полученные в игре вещи пропадают. Привилегии и то, ' +
        "что ещё лежит в Корзине, вайп не затрагивает — получите их после вайпа.</span></p>",
    );
    // No server of the type announced a schedule: the page promises nothing.
    const plain = await load(plainType);
    expect(plain.wipe).toBeNull();
    expect(renderToStaticMarkup(createElement(ItemWipeNote, { wipe: plain.wipe }))).toBe("");
    // An item also sold «до вайпа» says that this term is what a wipe does end (decision 130).
    expect(renderToStaticMarkup(createElement(ItemWipeNote, { wipe: plain.wipe, untilWipe: true }))).toContain(
      "вайп не затрагивает — получите их после вайпа. Кроме срока «до вайпа»: он заканчивается с ближайшим вайпом " +
        "сервера, на котором вы получите покупку, и снимается сам.</span>",
    );
  });
});
