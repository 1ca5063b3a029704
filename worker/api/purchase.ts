import { Hono } from "hono";
import { AUTH_REQUIRED } from "#core/messages/common.ts";
import { PURCHASE_ERRORS } from "#core/messages/shop.ts";
import { idempotencyKey, positiveIdText } from "#core/schemas/common.ts";
import { purchaseBodySchema, rublesToKopecks } from "#core/schemas/purchase.ts";
import { parseFriend } from "#core/shop/gift.ts";
import type { AppEnv } from "../hono-env.ts";
import { getSessionUser, readSessionToken, verifySessionToken } from "../services/auth/sessions.ts";
import { clientAddress } from "../services/promos/client-address.ts";
import { findGiftRecipient, type GiftRecipient } from "../services/shop/gift-recipient.ts";
import { earlierGift, missingFor, purchaseItem } from "../services/shop/purchase.ts";

export const purchaseApi = new Hono<AppEnv>();

purchaseApi.post("/purchase/items/:id", async (c) => {
  // Only the token's signature is checked here: whether its session is live is checked by the
  // purchase's own SQL, which saves a database round trip on every purchase (decision 100).
  const token = readSessionToken(c.req.raw, c.get("deps").config);
  const sessionId = token ? await verifySessionToken(c.get("deps"), token) : null;
  if (!sessionId) return c.json({ error: AUTH_REQUIRED }, 401);
  const id = positiveIdText.safeParse(c.req.param("id"));
  if (!id.success) return c.json({ error: PURCHASE_ERRORS.badId }, 400);
  const raw = await c.req.json().catch(() => undefined);
  const body = purchaseBodySchema.safeParse(raw);
  if (!body.success) return c.json({ error: PURCHASE_ERRORS.badBody }, 400);
  const header = c.req.header("Idempotency-Key");
  let key = body.data.idempotency_key;
  if (!key && header !== undefined) {
    const parsed = idempotencyKey.safeParse(header);
    if (!parsed.success) return c.json({ error: PURCHASE_ERRORS.badBody }, 400);
    key = parsed.data;
  }

  // A gift names its friend, resolved (and refused for oneself or a blocked player) before the batch,
  // which checks both again.
  let giftTo: GiftRecipient | null = null;
  if (body.data.gift_to) {
    const buyer = await getSessionUser(c.get("deps"), c.req.raw);
    if (!buyer) return c.json({ error: AUTH_REQUIRED }, 401);
    // A retried key answers as it did the first time, before money or Steam can refuse it (issue 47).
    const friend = parseFriend(body.data.gift_to);
    if (key && friend) {
      const terms = { itemId: id.data, serverType: body.data.server_type, durationDays: body.data.duration ?? null };
      const earlier = await earlierGift(c.get("deps"), buyer.id, key, { ...terms, friend });
      if (earlier && !earlier.ok) return c.json({ error: earlier.error }, earlier.status);
      if (earlier) {
        c.header("Cache-Control", "no-store");
        const { purchase, balance, giftTo: to } = earlier;
        return c.json({ purchase, balance, gift_to: { steam_id: to.steamId, nickname: to.nickname } }, 200);
      }
    }
    // Short of money: said before the friend is asked of Steam, which spends the site's budget (issue 36).
    if ((await missingFor(c.get("deps"), buyer.balance, id.data, body.data.duration ?? null)) > 0) {
      return c.json({ error: PURCHASE_ERRORS.insufficientFunds }, 402);
    }
    const source = { steamId: buyer.steamId, address: clientAddress(c.req.raw) };
    const found = await findGiftRecipient(c.get("deps"), source, body.data.gift_to);
    if (!found.ok) return c.json({ error: found.error }, found.status);
    giftTo = found.recipient;
  }

  const result = await purchaseItem(
    c.get("deps"),
    { sessionId },
    {
      itemId: id.data,
      serverType: body.data.server_type,
      durationDays: body.data.duration ?? null,
      // Without a key every request is a new purchase.
      idempotencyKey: key ?? crypto.randomUUID(),
      expectedPrice: body.data.expected_price == null ? null : rublesToKopecks(body.data.expected_price),
      giftTo,
    },
  );
  if (!result.ok) {
    // A changed price says what it is now, so the client can show it and ask again (decision 112).
    return c.json(
      result.price == null ? { error: result.error } : { error: result.error, price: result.price },
      result.status,
    );
  }
  c.header("Cache-Control", "no-store");
  const gift = giftTo ? { gift_to: { steam_id: giftTo.steamId, nickname: giftTo.nickname } } : {};
  return c.json({ purchase: result.purchase, balance: result.balance, ...gift }, result.replayed ? 200 : 201);
});
