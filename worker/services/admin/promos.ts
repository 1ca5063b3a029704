import { desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { PROMO_ADMIN_TEXT } from "#core/messages/admin.ts";
import { isWellFormedPromoCode, normalizePromoCode } from "#core/promos/code.ts";
import { SERVER_TYPES } from "#core/shop/server-types.ts";
import { items, promoCodes, promoRedemptions, users } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { constraintViolation, statement } from "../../ports/database.ts";
import { auditStatement } from "./audit.ts";
import type { AdminResult } from "./balance.ts";
import type { Operator } from "./roles.ts";

const MSK = "+03:00";

export const promoFormSchema = z
  .object({
    code: z.string().transform(normalizePromoCode).refine(isWellFormedPromoCode, PROMO_ADMIN_TEXT.code),
    type: z.enum(["BALANCE", "ITEM"]),
    value: z.string().trim().prefault(""),
    itemId: z.string().trim().prefault(""),
    serverType: z.union([z.enum(SERVER_TYPES), z.literal("")]).prefault(""),
    days: z
      .string()
      .trim()
      .regex(/^(\d{1,4})?$/, PROMO_ADMIN_TEXT.days)
      .transform((value) => (value === "" ? null : Number(value)))
      .refine((value) => value === null || value > 0, PROMO_ADMIN_TEXT.days)
      .prefault(""),
    maxUses: z
      .string()
      .trim()
      .regex(/^\d{1,7}$/, PROMO_ADMIN_TEXT.maxUses)
      .transform(Number)
      .refine((value) => value >= 1, PROMO_ADMIN_TEXT.maxUses),
    endsAt: z
      .string()
      .trim()
      .transform((value, context) => {
        if (value === "") return null;
        const ms = Date.parse(`${value.length === 16 ? `${value}:00` : value}${MSK}`);
        if (Number.isNaN(ms)) {
          context.addIssue({ code: "custom", message: PROMO_ADMIN_TEXT.endsAt });
          return z.NEVER;
        }
        return ms;
      })
      .prefault(""),
  })
  .transform((input, context) => {
    if (input.type === "BALANCE") {
      if (!/^\d{1,7}([.,]\d{1,2})?$/.test(input.value) || Number(input.value.replace(",", ".")) <= 0) {
        context.addIssue({ code: "custom", message: PROMO_ADMIN_TEXT.value, path: ["value"] });
        return z.NEVER;
      }
      return {
        ...base(input),
        type: "BALANCE" as const,
        value: Math.round(Number(input.value.replace(",", ".")) * 100),
      };
    }
    if (!/^\d{1,9}$/.test(input.itemId)) {
      context.addIssue({ code: "custom", message: PROMO_ADMIN_TEXT.item, path: ["itemId"] });
      return z.NEVER;
    }
    return {
      ...base(input),
      type: "ITEM" as const,
      itemId: Number(input.itemId),
      serverType: input.serverType || null,
      days: input.days,
    };
  });

const base = (input: { code: string; maxUses: number; endsAt: number | null }) => ({
  code: input.code,
  maxUses: input.maxUses,
  endsAt: input.endsAt,
});

export type PromoFormInput = z.infer<typeof promoFormSchema>;

export async function listPromos(deps: Pick<Deps, "db">) {
  return deps.db.orm
    .select({
      id: promoCodes.id,
      code: promoCodes.code,
      type: promoCodes.type,
      value: promoCodes.value,
      itemName: items.name,
      itemServerType: promoCodes.itemServerType,
      itemDurationDays: promoCodes.itemDurationDays,
      startsAt: promoCodes.startsAt,
      endsAt: promoCodes.endsAt,
      maxUses: promoCodes.maxUses,
      usedCount: promoCodes.usedCount,
      createdAt: promoCodes.createdAt,
    })
    .from(promoCodes)
    .leftJoin(items, eq(items.id, promoCodes.itemId))
    .orderBy(desc(promoCodes.id))
    .limit(200);
}

/** Who redeemed a code, newest first. */
export async function promoRedeemers(deps: Pick<Deps, "db">, promoId: number) {
  return deps.db.orm
    .select({ steamId: users.steamId, nickname: users.nickname, at: promoRedemptions.createdAt })
    .from(promoRedemptions)
    .innerJoin(users, eq(users.id, promoRedemptions.userId))
    .where(eq(promoRedemptions.promoId, promoId))
    .orderBy(desc(promoRedemptions.id))
    .limit(500);
}

export async function createPromoCode(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  input: PromoFormInput,
): Promise<AdminResult> {
  const now = deps.now().getTime();
  if (input.endsAt !== null && input.endsAt <= now) return { ok: false, status: 400, error: PROMO_ADMIN_TEXT.endsAt };
  const row =
    input.type === "BALANCE"
      ? { code: input.code, type: input.type, value: input.value, maxUses: input.maxUses, endsAt: input.endsAt }
      : {
          code: input.code,
          type: input.type,
          itemId: input.itemId,
          itemServerType: input.serverType,
          itemDurationDays: input.days,
          maxUses: input.maxUses,
          endsAt: input.endsAt,
        };
  try {
    await deps.db.batch([
      statement(deps.db.orm.insert(promoCodes).values({ ...row, createdAt: now })),
      auditStatement({
        operator,
        action: "promo.create",
        targetType: "promo",
        targetId: sql`(SELECT id FROM promo_codes WHERE code = ${input.code})`,
        before: null,
        after: { ...row },
        now,
      }),
    ]);
    return { ok: true };
  } catch (error) {
    const violation = constraintViolation(error);
    if (violation?.kind === "UNIQUE") return { ok: false, status: 409, error: PROMO_ADMIN_TEXT.duplicate };
    if (violation?.kind === "FOREIGN KEY") return { ok: false, status: 400, error: PROMO_ADMIN_TEXT.itemNotFound };
    throw error;
  }
}

/** Ends a code now: players then get «Срок действия промокода истёк». */
export async function disablePromoCode(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  promoId: number,
): Promise<AdminResult> {
  const now = deps.now().getTime();
  const open = sql`EXISTS (SELECT 1 FROM promo_codes WHERE id = ${promoId} AND (ends_at IS NULL OR ends_at > ${now}))`;
  const [audit] = await deps.db.batch([
    auditStatement(
      {
        operator,
        action: "promo.disable",
        targetType: "promo",
        targetId: promoId,
        before: sql`(SELECT json_object('ends_at', ends_at) FROM promo_codes WHERE id = ${promoId})`,
        after: { ends_at: now },
        now,
      },
      open,
    ),
    statement(
      sql`UPDATE promo_codes SET ends_at = ${now} WHERE id = ${promoId} AND (ends_at IS NULL OR ends_at > ${now})`,
    ),
  ]);
  return audit?.changes === 1 ? { ok: true } : { ok: false, status: 409, error: PROMO_ADMIN_TEXT.alreadyDisabled };
}
