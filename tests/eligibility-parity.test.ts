// The purchase SQL guard and core/shop/eligibility.ts state the same rule twice: the SQL because
// money rules must hold inside the transaction, the TypeScript because the pages and the
// diagnosis of a refusal need it without a database. This runs the real purchase against the
// real D1 for many item states and checks that the two agree on every one.
import { describe, expect, it } from "vitest";
import { PURCHASE_ERRORS } from "#core/messages/shop.ts";
import { type ItemFacts, type PurchaseRequest, purchaseRefusal } from "#core/shop/eligibility.ts";
import { purchaseItem } from "#worker/services/shop/purchase.ts";
import { testClock, testDeps } from "./support/deps.ts";
import { createPlayer } from "./support/players.ts";
import { createItem, type ItemOptions } from "./support/shop-fixtures.ts";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const HOUR = 60 * 60 * 1000;

const windows: Pick<ItemOptions, "startTime" | "endTime">[] = [
  {},
  { startTime: NOW + HOUR },
  { startTime: NOW },
  { startTime: NOW - HOUR, endTime: NOW + HOUR },
  { endTime: NOW },
  { endTime: NOW - HOUR },
];
const stocks: Pick<ItemOptions, "maxQuantity" | "soldQuantity">[] = [
  {},
  { maxQuantity: 5, soldQuantity: 4 },
  { maxQuantity: 5, soldQuantity: 5 },
];
const requests: PurchaseRequest[] = [
  { serverType: "SOLO", durationDays: null },
  { serverType: "SOLO", durationDays: 30 },
  { serverType: "SOLO", durationDays: 7 },
  { serverType: "MAX2", durationDays: null },
  { serverType: "MAX2", durationDays: 30 },
];

interface Case {
  item: ItemOptions;
  request: PurchaseRequest;
}

/** A server type with no game server (decision 122): its items are refused whatever else holds. */
const UNSERVED = `UNSERVED_${Math.floor(Math.random() * 1e9)}`;

function cases(): Case[] {
  const all: Case[] = [];
  // Items of a type without a server, for every window and stock and the requests that fit the type.
  for (const window of windows) {
    for (const stock of stocks) {
      for (const isOneTime of [false, true]) {
        for (const durations of [[], [[30, null]]] as [number, number | null][][]) {
          for (const durationDays of [null, 30, 7]) {
            all.push({
              item: {
                isOneTime,
                durations,
                ...window,
                ...stock,
                price: 100,
                serverType: UNSERVED,
                withoutServer: true,
              },
              request: { serverType: UNSERVED, durationDays },
            });
          }
        }
      }
    }
  }
  for (const isAvailable of [true, false]) {
    for (const window of windows) {
      for (const stock of stocks) {
        for (const isOneTime of [false, true]) {
          for (const durations of [[], [[30, null]]] as [number, number | null][][]) {
            for (const request of requests) {
              all.push({ item: { isAvailable, isOneTime, durations, ...window, ...stock, price: 100 }, request });
            }
          }
        }
      }
    }
  }
  // «До вайпа» (decision 130): 0 days, offered by the item's own price, beside days or alone.
  for (const window of [{}, { endTime: NOW }]) {
    for (const isOneTime of [false, true]) {
      for (const durations of [[], [[30, null]]] as [number, number | null][][]) {
        for (const durationDays of [null, 0, 30]) {
          all.push({
            item: { isOneTime, durations, untilWipePrice: 5_000, ...window, price: 100 },
            request: { serverType: "SOLO", durationDays },
          });
        }
      }
    }
  }
  for (const durationDays of [0, null]) {
    all.push({ item: { durations: [[30, null]], price: 100 }, request: { serverType: "SOLO", durationDays } });
  }
  return all;
}

function facts(item: ItemOptions): ItemFacts {
  return {
    serverType: item.serverType ?? "SOLO",
    isAvailable: item.isAvailable !== false,
    isOneTime: item.isOneTime === true,
    startTime: item.startTime ?? null,
    endTime: item.endTime ?? null,
    maxQuantity: item.maxQuantity ?? null,
    soldQuantity: item.soldQuantity ?? 0,
    hasServer: item.withoutServer !== true,
    offeredDays: [...(item.durations ?? []).map(([days]) => days), ...(item.untilWipePrice == null ? [] : [0])],
  };
}

describe("purchase eligibility: the SQL guard and the TypeScript rule", () => {
  it("agree on every combination of availability, window, stock, one-time, durations, server type and its servers", async () => {
    const clock = testClock(NOW);
    const deps = testDeps({ now: clock.now });
    const player = await createPlayer({ balance: 10_000_000 });
    const all = cases();
    const outcomes = await Promise.all(
      all.map(async ({ item, request }) => {
        const itemId = await createItem(item);
        const result = await purchaseItem(deps, player.id, {
          itemId,
          ...request,
          idempotencyKey: crypto.randomUUID(),
        });
        return { item, request, result, refusal: purchaseRefusal(facts(item), request, NOW) };
      }),
    );
    const refused = outcomes.filter(({ refusal }) => refusal !== null).length;
    // The matrix must exercise both answers, or agreement would prove nothing.
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThan(outcomes.length);
    for (const { item, request, result, refusal } of outcomes) {
      const label = JSON.stringify({ item, request });
      // Bought exactly when the TypeScript rule allows it: the SQL guard let it through.
      expect(result.ok, label).toBe(refusal === null);
      // Refused for the rule's reason, not a 409 "try again" that means the SQL refused what TS allowed.
      if (!result.ok && refusal) expect(result.error, label).toBe(PURCHASE_ERRORS[refusal]);
    }
    // The type without a server is refused for that reason where nothing else refuses first.
    expect(outcomes.some(({ refusal }) => refusal === "noServer")).toBe(true);
    // 962 real purchases: D1 runs them one after another.
  }, 90_000);
});
