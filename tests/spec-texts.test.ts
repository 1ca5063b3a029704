// Spec texts the security review found missing or shown wrong: the buy dialog's server type,
// the item page for an item it can't show.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { ShopCardItem } from "#core/shop/types.ts";
import { BuyDialog } from "../app/components/shop/buy-dialog.tsx";
import { ErrorBoundary, loader } from "../app/routes/shop.item.tsx";
import { testDeps } from "./support/deps.ts";
import { routeArgs } from "./support/routes.ts";

function visibleText(element: ReturnType<typeof createElement>, path = "/shop"): string {
  const router = createMemoryRouter([{ path, element }], { initialEntries: [path] });
  return renderToStaticMarkup(createElement(RouterProvider, { router }))
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}

const item: ShopCardItem = {
  id: 7,
  name: "Набор строителя",
  price: 100,
  discount: 0,
  discount_price: 100,
  img: "/images/shop/vip.svg",
  server_type: "NO_LIMIT",
  category_name: "Наборы",
  is_one_time: true,
  is_limited: false,
  is_available: true,
  no_server: false,
  durations: [],
  start_time: null,
  end_time: null,
  max_quantity: null,
  sold_quantity: 0,
  sale: null,
};

describe("spec texts", () => {
  it("the buy dialog names the NO_LIMIT server type «NO LIMIT x5 Loot»", () => {
    const text = visibleText(
      createElement(BuyDialog, { item, balance: 500, returnTo: "/shop", onClose: () => {}, onPurchased: () => {} }),
    );
    expect(text).toContain("Набор строителя");
    expect(text).toContain("Для сервера NO LIMIT x5 Loot");
    expect(text).not.toContain("NO_LIMIT");
  });

  it("/shop/items/<unknown id> answers 404 «Не удалось получить информацию о товаре»", async () => {
    type Args = Parameters<typeof loader>[0];
    for (const id of ["987654321", "abc"]) {
      const thrown = await loader(
        routeArgs<Args>(testDeps(), `http://localhost/shop/items/${id}`, {}, { params: { id } }),
      ).catch((error: unknown) => error);
      expect(thrown).toMatchObject({ data: "Не удалось получить информацию о товаре", init: { status: 404 } });
    }
    expect(visibleText(createElement(ErrorBoundary), "/shop/items/1")).toContain(
      "Не удалось получить информацию о товаре",
    );
  });
});
