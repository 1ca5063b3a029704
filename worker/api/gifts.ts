import { Hono } from "hono";
import { z } from "zod";
import { GIFT_ERRORS } from "#core/messages/gifts.ts";
import type { AppEnv } from "../hono-env.ts";
import { findGiftRecipient } from "../services/shop/gift-recipient.ts";
import { requireUser } from "./require-user.ts";

export const giftsApi = new Hono<AppEnv>();

const query = z.string().trim().min(1).max(200);

// Who a gift would go to (issue 24): {steam_id, nickname, avatar} for the buyer to check before paying,
// or {error}: 400 (not a SteamID64 or profile address, or oneself), 403 (blocked), 404, 502 (Steam).
giftsApi.get("/gifts/recipient", requireUser, async (c) => {
  const q = query.safeParse(c.req.query("q") ?? "");
  c.header("Cache-Control", "private, no-store");
  if (!q.success) return c.json({ error: GIFT_ERRORS.badFriend }, 400);
  const found = await findGiftRecipient(c.get("deps"), c.get("user").steamId, q.data);
  if (!found.ok) return c.json({ error: found.error }, found.status);
  const { steamId, nickname, avatarUrl } = found.recipient;
  return c.json({ steam_id: steamId, nickname, avatar: avatarUrl });
});
