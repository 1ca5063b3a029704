import { Hono } from "hono";
import { z } from "zod";
import { GIFT_ERRORS } from "#core/messages/gifts.ts";
import type { AppEnv } from "../hono-env.ts";
import { clientAddress } from "../services/promos/client-address.ts";
import { findGiftRecipient } from "../services/shop/gift-recipient.ts";
import { requireUser } from "./require-user.ts";

export const giftsApi = new Hono<AppEnv>();

const query = z.string().trim().min(1).max(200);

// Who a gift would go to (issue 24): {steam_id, nickname, avatar} for the buyer to check before paying,
// or {error}: 400 (not a SteamID64 or profile address, or oneself), 403 (blocked), 404, 429 (the player's,
// the address's or the site's Steam budget is used up, with when to try again), 502 (Steam).
giftsApi.get("/gifts/recipient", requireUser, async (c) => {
  const q = query.safeParse(c.req.query("q") ?? "");
  c.header("Cache-Control", "private, no-store");
  if (!q.success) return c.json({ error: GIFT_ERRORS.badFriend }, 400);
  const source = { steamId: c.get("user").steamId, address: clientAddress(c.req.raw) };
  const found = await findGiftRecipient(c.get("deps"), source, q.data);
  if (!found.ok) return c.json({ error: found.error }, found.status);
  const { steamId, nickname, avatarUrl } = found.recipient;
  return c.json({ steam_id: steamId, nickname, avatar: avatarUrl });
});
