// No one can shut gifts for everyone (issue 47, item 1; decision 141): a friend the site knows costs
// no Steam call, an IPv6 address counts by its /64, and accounts that never topped up share a part of
// the site's hour, so many new accounts from many addresses can't spend it.
import { describe, expect, it } from "vitest";
import { findGiftRecipient } from "#worker/services/shop/gift-recipient.ts";
import { addressBucket } from "#worker/services/steam/address-bucket.ts";
import { testClock, testDeps } from "./support/deps.ts";
import { formAnswer, postItemForm } from "./support/item-form.ts";
import { balanceAndLedger } from "./support/money.ts";
import { createPlayer, uniqueSteamId } from "./support/players.ts";
import { createItem } from "./support/shop-fixtures.ts";
import { raw, rows, runBatch } from "./support/sql.ts";

const SITE_BUSY = /^Сейчас на сайте слишком много проверок получателей\. Попробуйте через \d+ мин\.$/;

/** Calls Steam was asked in the hour starting at `hour`, by the whole site. */
const siteCalls = async (hour: number) =>
  (
    await rows<{ calls: number }>(
      "SELECT calls FROM steam_call_budget WHERE scope = 'site' AND subject = '' AND window_start = ?",
      hour,
    )
  )[0]?.calls ?? 0;

describe("the attack: many new accounts from many addresses", () => {
  it("can't stop a gift to a friend the site knows, nor a lookup by a player who topped up", async () => {
    const hour = Date.parse("2026-12-20T08:00:00Z");
    const timed = testDeps({ now: testClock(hour + 5 * 60_000).now });
    // 40 new accounts: two on each of 10 IPv4 addresses, 20 on 20 addresses of one IPv6 /64.
    const attackers = await Promise.all(Array.from({ length: 40 }, () => createPlayer({ deps: timed })));
    for (const [index, attacker] of attackers.entries()) {
      const address = index < 20 ? `198.51.100.${120 + (index % 10)}` : `2001:db8:47:1:${index.toString(16)}::1`;
      for (;;) {
        const found = await findGiftRecipient(timed, { steamId: attacker.steamId, address }, uniqueSteamId());
        if (!found.ok) {
          expect(found.status).toBe(429);
          break;
        }
      }
    }
    // A new player on a new address: an unknown friend must wait…
    const newcomer = await createPlayer({ deps: timed, balance: 10_000 });
    const from = { steamId: newcomer.steamId, address: "203.0.113.47" };
    const unknown = await findGiftRecipient(timed, from, uniqueSteamId());
    expect(unknown).toMatchObject({ ok: false, status: 429 });
    expect(!unknown.ok && unknown.error).toMatch(SITE_BUSY);
    // …a friend who signed in here is shown and given to, with no call to Steam.
    const friend = await createPlayer({ nickname: "Друг Вася" });
    const itemId = await createItem({ price: 5_000, isOneTime: true });
    const before = await siteCalls(hour);
    const shown = formAnswer(
      await postItemForm(
        timed,
        itemId,
        { intent: "gift-check", gift_to: friend.steamId },
        newcomer.token,
        from.address,
      ),
    );
    expect(shown).toMatchObject({
      status: 200,
      body: { ok: "gift", recipient: { steamId: friend.steamId, nickname: "Друг Вася" } },
    });
    const gift = formAnswer(
      await postItemForm(
        timed,
        itemId,
        {
          server_type: "SOLO",
          expected_price: "50",
          idempotency_key: crypto.randomUUID(),
          gift_to: friend.steamId,
          gift_checked: friend.steamId,
          gift_steam_id: friend.steamId,
        },
        newcomer.token,
        from.address,
      ),
    );
    expect(gift.status).toBe(302);
    expect(await balanceAndLedger(newcomer.id)).toEqual({ balance: 5_000, ledger: 5_000 });
    expect(await siteCalls(hour)).toBe(before);

    // A player who topped up still looks up a friend Steam has to tell about.
    const paying = await createPlayer({ deps: timed });
    await runBatch([raw("INSERT INTO ledger (user_id, amount, kind) VALUES (?, 10000, 'deposit')", paying.id)]);
    await runBatch([raw("UPDATE users SET balance = 10000 WHERE id = ?", paying.id)]);
    const paid = await findGiftRecipient(timed, { steamId: paying.steamId, address: "203.0.113.48" }, uniqueSteamId());
    expect(paid.ok).toBe(true);
    // The new accounts took their share of the hour and no more.
    expect(await siteCalls(hour)).toBeLessThan(1_000);
    // About 300 lookups, each a real batch and a call to the Steam stand-in.
  }, 120_000);
});

describe("an IPv6 address counts by its /64", () => {
  it("sixty calls from addresses of one /64, whoever signs in there; another /64 goes ahead", async () => {
    const timed = testDeps({ now: testClock(Date.parse("2026-12-21T09:02:00Z")).now });
    let host = 0;
    const inNetwork = () => `2001:db8:47:2:${(++host).toString(16)}:0:0:1`;
    for (const _ of [1, 2]) {
      const player = await createPlayer({ deps: timed });
      for (let lookup = 0; lookup < 30; lookup++) {
        const found = await findGiftRecipient(
          timed,
          { steamId: player.steamId, address: inNetwork() },
          uniqueSteamId(),
        );
        expect(found.ok).toBe(true);
      }
    }
    const third = await createPlayer({ deps: timed });
    expect(await findGiftRecipient(timed, { steamId: third.steamId, address: inNetwork() }, uniqueSteamId())).toEqual({
      ok: false,
      status: 429,
      error: "Слишком много проверок получателя. Попробуйте через 8 мин.",
    });
    const elsewhere = { steamId: third.steamId, address: "2001:db8:47:3::1" };
    expect((await findGiftRecipient(timed, elsewhere, uniqueSteamId())).ok).toBe(true);
  });

  it("writes the same bucket for every spelling of an address", () => {
    expect(addressBucket("2001:0db8:0047:0002:ffff::1")).toBe("2001:db8:47:2::/64");
    expect(addressBucket("2001:db8:47:2::")).toBe("2001:db8:47:2::/64");
    expect(addressBucket("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(addressBucket("192.0.2.7")).toBe("192.0.2.7");
    expect(addressBucket("unknown")).toBe("unknown");
  });
});

describe("a paying player's hour", () => {
  it("takes at most 60 of the site's 1 000 calls, however the ten-minute windows fall", async () => {
    const clock = testClock(Date.parse("2026-12-24T11:00:00Z"));
    const timed = testDeps({ now: clock.now });
    const paying = await createPlayer({ deps: timed });
    await runBatch([raw("INSERT INTO ledger (user_id, amount, kind) VALUES (?, 10000, 'deposit')", paying.id)]);
    await runBatch([raw("UPDATE users SET balance = 10000 WHERE id = ?", paying.id)]);
    const from = { steamId: paying.steamId, address: "203.0.113.49" };
    for (const _ of [1, 2]) {
      for (let lookup = 0; lookup < 30; lookup++)
        expect((await findGiftRecipient(timed, from, uniqueSteamId())).ok).toBe(true);
      clock.advance(10 * 60_000);
    }
    expect(await findGiftRecipient(timed, from, uniqueSteamId())).toEqual({
      ok: false,
      status: 429,
      error: "Слишком много проверок получателя. Попробуйте через 40 мин.",
    });
  });
});
