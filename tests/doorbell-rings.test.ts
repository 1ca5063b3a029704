// Where the doorbell rings (decision 146), on both runtimes: after the write that made a delivery or a
// revoke due, for that delivery's server type, and never to the harm of the answer: a doorbell that
// is down fails no purchase. The sockets themselves: tests/game-doorbell.test.ts (Workers) and
// tests/server/doorbell.test.ts (the Node server). Here the upgrade's refusals, which are the poll's.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { GAME_ERRORS } from "#core/messages/game.ts";
import type { Deps } from "#worker/deps.ts";
import type { Doorbell } from "#worker/ports/doorbell.ts";
import { runGameMaintenance } from "#worker/services/game/maintenance.ts";
import { redeemPromo } from "#worker/services/promos/redeem.ts";
import { purchaseItem } from "#worker/services/shop/purchase.ts";
import { returnPurchase } from "#worker/services/shop/return.ts";
import { testDeps } from "./support/deps.ts";
import { DOORBELL_PATH, doorbellHeaders } from "./support/doorbell.ts";
import { createEntry, createGameServer } from "./support/game-fixtures.ts";
import { balanceAndLedger } from "./support/money.ts";
import { createPlayer } from "./support/players.ts";
import { createPromo } from "./support/profile-fixtures.ts";
import { createItem } from "./support/shop-fixtures.ts";
import { raw, runBatch } from "./support/sql.ts";
import { uniqueIp } from "./support/unique.ts";

/** Deps whose doorbell notes each type it is asked to ring; `down`: every ring fails, as an unreachable object would. */
function ringing({ down = false } = {}) {
  const rang: string[] = [];
  const background: Promise<unknown>[] = [];
  const doorbell: Doorbell = {
    connect: async () => new Response(null, { status: 426 }),
    ring: async (serverType) => {
      rang.push(serverType);
      if (down) throw new Error("the doorbell is down");
    },
  };
  const deps: Deps = { ...testDeps(), doorbell, waitUntil: (promise) => void background.push(promise) };
  return { deps, rang, settled: () => Promise.all(background) };
}

const order = (itemId: number, serverType: string) => ({
  itemId,
  serverType,
  durationDays: null,
  idempotencyKey: crypto.randomUUID(),
});

describe("the doorbell rings", () => {
  it("for a purchase's type once it is paid for, and a doorbell that is down fails nothing", async () => {
    const { deps, rang, settled } = ringing({ down: true });
    const itemId = await createItem({ serverType: "MAX3", price: 5_000 });
    const poor = await createPlayer({ balance: 100 });
    expect((await purchaseItem(deps, poor.id, order(itemId, "MAX3"))).ok).toBe(false);
    expect(rang).toEqual([]);

    const player = await createPlayer({ balance: 20_000 });
    const bought = await purchaseItem(deps, player.id, order(itemId, "MAX3"));
    expect(bought).toMatchObject({ ok: true, balance: 150 });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 15_000, ledger: 15_000 });
    expect(rang).toEqual(["MAX3"]);
    // The failed ring was caught and logged in the background: nothing rejects.
    await expect(settled()).resolves.toBeDefined();
  });

  it("for a return that cancels the grant", async () => {
    const { deps, rang } = ringing();
    const itemId = await createItem({ serverType: "SOLO", price: 5_000 });
    const player = await createPlayer({ balance: 20_000 });
    const bought = await purchaseItem(deps, player.id, order(itemId, "SOLO"));
    if (!bought.ok) throw new Error(bought.error);
    expect(await returnPurchase(deps, player.id, bought.purchase.id)).toMatchObject({ ok: true });
    expect(rang).toEqual(["SOLO", "SOLO"]);
  });

  it("for an item promo code's entry, and not for a balance code", async () => {
    const { deps, rang } = ringing();
    const itemId = await createItem({ serverType: "VANILLA" });
    const player = await createPlayer();
    const money = await createPromo(deps, { type: "BALANCE", value: 1_000 });
    expect((await redeemPromo(deps, { userId: player.id, ip: uniqueIp(), code: money.code })).ok).toBe(true);
    expect(rang).toEqual([]);
    const item = await createPromo(deps, { type: "ITEM", itemId });
    expect((await redeemPromo(deps, { userId: player.id, ip: uniqueIp(), code: item.code })).ok).toBe(true);
    expect(rang).toEqual(["VANILLA"]);
  });

  it("from the minutely job for a revoke that came due in its minute, not for one due later", async () => {
    const { deps, rang } = ringing();
    const now = deps.now().getTime();
    const serverType = `RING_${crypto.randomUUID().slice(0, 8)}`;
    const later = `LATER_${crypto.randomUUID().slice(0, 8)}`;
    const player = await createPlayer();
    const itemId = await createItem({ serverType });
    for (const [type, notBefore] of [
      [serverType, now - 20_000],
      [later, now + 120_000],
    ] as const) {
      // Granted by a server of the type, which is still there to revoke it.
      const server = await createGameServer(deps, { serverType: type });
      const entry = await createEntry(deps, { userId: player.id, itemId, serverType: type });
      await runBatch([
        raw("UPDATE inventory_entries SET status = 'used', used_server_id = ? WHERE id = ?", server.id, entry.id),
        raw(
          `INSERT INTO deliveries (id, inventory_entry_id, kind, server_type, steam_id, requires_online, status, attempts, not_before, created_at)
           VALUES (?, ?, 'revoke', ?, ?, 0, 'pending', 0, ?, ?)`,
          crypto.randomUUID(),
          entry.id,
          type,
          player.steamId,
          notBefore,
          now,
        ),
      ]);
    }
    await runGameMaintenance(deps);
    expect(rang).toContain(serverType);
    expect(rang).not.toContain(later);
  });
});

describe("the doorbell's upgrade", () => {
  const open = (headers: Record<string, string>) =>
    SELF.fetch(`http://localhost${DOORBELL_PATH}`, { headers: { Upgrade: "websocket", ...headers } });

  it("is refused as a poll is: no signature, a wrong one, a stale one", async () => {
    const server = await createGameServer(testDeps());
    const refusals = [
      [await open({}), 400, GAME_ERRORS.signatureHeadersMissing],
      [await open(await doorbellHeaders(server.id, `${server.key}x`)), 401, GAME_ERRORS.badSignature],
      [
        await open(await doorbellHeaders(server.id, server.key, Math.floor(Date.now() / 1000) - 600)),
        401,
        GAME_ERRORS.timestampOutOfWindow,
      ],
    ] as const;
    for (const [answer, status, error] of refusals) {
      expect(answer.status).toBe(status);
      expect(answer.webSocket ?? null).toBeNull();
      expect(await answer.json()).toEqual({ error });
    }
  });

  it("without Upgrade: websocket is 426", async () => {
    const server = await createGameServer(testDeps());
    const answer = await SELF.fetch(`http://localhost${DOORBELL_PATH}`, {
      headers: await doorbellHeaders(server.id, server.key),
    });
    expect(answer.status).toBe(426);
    expect(await answer.json()).toEqual({ error: GAME_ERRORS.doorbellNeedsUpgrade });
  });
});
