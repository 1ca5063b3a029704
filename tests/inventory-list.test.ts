import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { InventoryItem } from "#core/profile/types.ts";
import { untilWipeText } from "#core/shop/until-wipe.ts";
import { InventoryFilters, InventoryList } from "../app/components/profile/inventory-list.tsx";

const now = "2026-11-22T12:00:00.000Z";

function entry(overrides: Partial<InventoryItem>): InventoryItem {
  return {
    id: 1,
    item_name: "VIP",
    item_image: "/images/items/vip.svg",
    server_type: "SOLO",
    duration: 30,
    is_permanent: false,
    is_one_time: false,
    status: "not_used",
    created_at: "2026-11-01T10:00:00.000Z",
    used_at: null,
    expires_at: null,
    last_error: null,
    purchase_id: 1,
    price: 100,
    return_until: null,
    returnable: false,
    gift_from: null,
    delivering: false,
    fair_play: null,
    until_wipe: false,
    wipe_at: null,
    ...overrides,
  };
}

/** The Корзина as the page prints it, reduced to its visible text. */
function renderedText(items: InventoryItem[]): string {
  const router = createMemoryRouter([{ path: "/profile", element: createElement(InventoryList, { items, now }) }], {
    initialEntries: ["/profile"],
  });
  return renderToStaticMarkup(createElement(RouterProvider, { router }))
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}

describe("the Корзина card", () => {
  it("shows why a delivery stopped: an interrupted one asks for a manual check", () => {
    expect(renderedText([entry({ last_error: "Доставка прервана, проверьте вручную" })])).toContain(
      "Доставка прервана, проверьте вручную",
    );
  });

  it("shows until when a delivered rank lasts and how long is left", () => {
    const text = renderedText([
      entry({ status: "used", used_at: "2026-11-15T12:00:00.000Z", expires_at: "2026-12-15T12:00:00.000Z" }),
    ]);
    expect(text).toContain("Действует");
    expect(text).not.toContain("Использован");
    expect(text).toContain("30 дней");
    expect(text).toContain("Действует до 15.12.2026, 15:00 МСК · осталось 23 дня");
  });

  it("says when a rank's term is over", () => {
    const text = renderedText([entry({ status: "used", expires_at: "2026-11-20T12:00:00.000Z" })]);
    expect(text).toContain("Срок истёк 20.11.2026, 15:00");
    expect(text).not.toContain("Действует до");
  });

  it("waits for delivery with the server type to join and each of its servers to connect to", () => {
    const router = createMemoryRouter(
      [
        {
          path: "/profile",
          element: createElement(InventoryList, {
            items: [entry({ server_type: "NO_LIMIT" })],
            now,
            servers: { NO_LIMIT: [{ name: "Свобода #5 | NO LIMIT", ip_port: "203.0.113.5:28015" }] },
          }),
        },
      ],
      { initialEntries: ["/profile"] },
    );
    const html = renderToStaticMarkup(createElement(RouterProvider, { router }));
    expect(html).toContain("Ждёт выдачи");
    expect(html).toContain("Зайдите на сервер NO LIMIT x5 Loot — предмет придёт автоматически.");
    expect(html).toContain('href="steam://connect/203.0.113.5:28015"');
    expect(html).toContain("Подключиться: Свобода #5 | NO LIMIT");
  });

  it("shows why a delivery failed and that it will be retried", () => {
    const text = renderedText([entry({ last_error: "Сервер не смог выдать предмет." })]);
    expect(text).toContain("Не удалось выдать");
    expect(text).toContain("Сервер не смог выдать предмет.");
    expect(text).toContain("Выдача будет повторена");
    expect(text).not.toContain("Действует до");
  });

  it("says a one-off item was received, and a refunded one's money went back", () => {
    const text = renderedText([
      entry({
        id: 1,
        duration: null,
        is_permanent: true,
        is_one_time: true,
        status: "used",
        used_at: "2026-11-15T12:00:00.000Z",
      }),
      entry({ id: 2, status: "refunded" }),
    ]);
    // A one-off pack has no term, and «Получен» is said once, with when (issue 36).
    expect(text).toContain("SOLO · Разовая выдача");
    expect(text).not.toContain("Навсегда");
    expect(text).toContain("Получен Выдан в игре 15.11.2026, 15:00");
    expect(text).toContain("Возвращён");
    expect(text).toContain("Покупка отменена, деньги вернулись на баланс.");
  });

  describe("«до вайпа» (decision 130)", () => {
    const untilWipe = { duration: 0, until_wipe: true };

    it("runs until its server's next wipe: the weekday within a week, with the time left", () => {
      // Thursday 26 November 2026, 22:00 MSK; `now` is Sunday 22 November.
      const text = renderedText([
        entry({
          ...untilWipe,
          status: "used",
          used_at: "2026-11-20T12:00:00.000Z",
          wipe_at: "2026-11-26T19:00:00.000Z",
        }),
      ]);
      expect(text).toContain("SOLO · до вайпа, чт 22:00 МСК");
      // The day and its time keep one line on a narrow card.
      expect(untilWipeText(Date.parse("2026-11-26T19:00:00.000Z"), Date.parse(now))).toBe(
        "до вайпа, чт\u00a022:00\u00a0МСК",
      );
      expect(text).toContain("Действует Действует до 26.11.2026, 22:00 МСК · осталось 4 дня 7 часов");
      expect(text).not.toContain("0 дней");
    });

    it("names the date of a wipe a week or more away, and says so when none is announced", () => {
      const far = renderedText([entry({ ...untilWipe, status: "used", wipe_at: "2026-12-03T19:00:00.000Z" })]);
      expect(far).toContain("до вайпа, чт, 3 декабря в 22:00 МСК");
      const unknown = renderedText([entry({ ...untilWipe, status: "used" })]);
      expect(unknown).toContain("SOLO · до вайпа");
      expect(unknown).toContain("до вайпа сервера: дата не объявлена");
    });

    it("says, while it waits, that it will last until the wipe of the server it is delivered on", () => {
      const text = renderedText([entry({ ...untilWipe, wipe_at: "2026-11-26T19:00:00.000Z" })]);
      expect(text).toContain("Ждёт выдачи");
      expect(text).toContain("Будет действовать до вайпа сервера, на котором вы его получите.");
    });

    it("says the wipe ended it", () => {
      const text = renderedText([entry({ ...untilWipe, status: "used", expires_at: "2026-11-19T19:00:00.000Z" })]);
      expect(text).toContain("SOLO · до вайпа Срок истёк Закончилось с вайпом 19.11.2026, 22:00 МСК");
    });
  });

  it("says Нет предметов when the Корзина is empty", () => {
    expect(renderedText([])).toContain("Нет предметов");
  });
});

describe("the Корзина's filter", () => {
  it("names what the entries mean to the player: waiting, or given out (issue 36)", () => {
    const router = createMemoryRouter(
      [{ path: "/profile", element: createElement(InventoryFilters, { current: "used" }) }],
      { initialEntries: ["/profile"] },
    );
    const html = renderToStaticMarkup(createElement(RouterProvider, { router }));
    const links = [...html.matchAll(/<a[^>]*>([^<]*)<\/a>/g)].map((match) => match[1]);
    expect(links).toEqual(["Все", "Ждут выдачи", "Выданные"]);
    expect(html).not.toContain("Использованные");
  });
});
