// Operator-side promo code creation: validated input → one SQL statement, run by
// `npm run promo` through wrangler (local or remote D1) and by the seed.
// Kept free of the schema and the Worker's bindings so the Node scripts' project can type-check it;
// the code format itself is the redemption service's (worker/services/promos/code.ts).
import { z } from "zod";
import { formatDate } from "../../core/format/dates.ts";
import { formatRubles } from "../../core/format/money.ts";
import { formatDays } from "../../core/format/plural.ts";
import { isWellFormedPromoCode, normalizePromoCode } from "../../core/promos/code.ts";
import { SERVER_TYPES } from "../../core/shop/server-types.ts";
import { sqlLiteral } from "./sql.ts";

/** A calendar day means midnight Moscow time; anything else must be a full ISO 8601 time. */
export function parseOperatorTime(value: string): number {
  const text = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00+03:00` : value;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new Error(`Неверная дата: ${value}`);
  return ms;
}

const time = z
  .union([z.string(), z.number()])
  .transform((value, ctx) => {
    try {
      return typeof value === "number" ? value : parseOperatorTime(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: String((error as Error).message) });
      return z.NEVER;
    }
  })
  .optional();

export const promoInputSchema = z
  .object({
    code: z.string().transform(normalizePromoCode).refine(isWellFormedPromoCode, "Код: 3–32 символа A–Z, 0–9, _ или -"),
    type: z.enum(["BALANCE", "ITEM"]),
    /** Rubles, for BALANCE. */
    value: z.coerce.number().positive().multipleOf(0.01).optional(),
    itemId: z.coerce.number().int().positive().optional(),
    serverType: z.enum(SERVER_TYPES).optional(),
    days: z.coerce.number().int().positive().optional(),
    maxUses: z.coerce.number().int().positive(),
    startsAt: time,
    endsAt: time,
  })
  .superRefine((input, ctx) => {
    if (input.type === "BALANCE" && input.value === undefined) {
      ctx.addIssue({ code: "custom", path: ["value"], message: "BALANCE требует --value (рубли)" });
    }
    if (input.type === "ITEM" && input.itemId === undefined) {
      ctx.addIssue({ code: "custom", path: ["itemId"], message: "ITEM требует --item (id товара)" });
    }
    if (input.startsAt !== undefined && input.endsAt !== undefined && input.endsAt <= input.startsAt) {
      ctx.addIssue({ code: "custom", path: ["endsAt"], message: "Конец должен быть позже начала" });
    }
  });

export type PromoInput = z.input<typeof promoInputSchema>;

/**
 * The INSERT for one promo code. With `upsert`, an existing code with the same text gets the new
 * settings but keeps its use counter (the seed runs repeatedly); with `returning`, a taken code is left
 * as it is and the statement returns no row (`npm run promo` says so); otherwise a duplicate code fails.
 */
export function promoInsertSql(raw: PromoInput, { upsert = false, returning = false } = {}): string {
  const input = promoInputSchema.parse(raw);
  const row = {
    code: input.code,
    type: input.type,
    value: input.type === "BALANCE" && input.value !== undefined ? Math.round(input.value * 100) : null,
    item_id: input.type === "ITEM" ? (input.itemId ?? null) : null,
    item_server_type: input.type === "ITEM" ? (input.serverType ?? null) : null,
    item_duration_days: input.type === "ITEM" ? (input.days ?? null) : null,
    starts_at: input.startsAt ?? null,
    ends_at: input.endsAt ?? null,
    max_uses: input.maxUses,
  };
  const columns = Object.keys(row) as (keyof typeof row)[];
  const insert = `INSERT INTO promo_codes (${columns.join(", ")}) VALUES (${columns.map((column) => sqlLiteral(row[column])).join(", ")})`;
  if (returning) return `${insert} ON CONFLICT(code) DO NOTHING RETURNING id;`;
  if (!upsert) return `${insert};`;
  const updates = columns.filter((column) => column !== "code").map((column) => `${column} = excluded.${column}`);
  return `${insert} ON CONFLICT(code) DO UPDATE SET ${updates.join(", ")};`;
}

/**
 * The code as an operator reads it back: «WINTER: 100 ₽ на баланс, использований: 50, без срока»,
 * «VIPWEEK: товар #101 на SOLO, 7 дней, использований: 10, по 10.01.2027, 00:00 (МСК)».
 */
export function describePromo(raw: PromoInput): string {
  const input = promoInputSchema.parse(raw);
  const what =
    input.type === "BALANCE"
      ? `${formatRubles(input.value ?? 0)} на баланс`
      : `товар #${input.itemId}${input.serverType ? ` на ${input.serverType}` : ""}, ${input.days ? formatDays(input.days) : "навсегда"}`;
  const period = [
    input.startsAt === undefined ? null : `с ${formatDate(input.startsAt)}`,
    input.endsAt === undefined ? null : `по ${formatDate(input.endsAt)}`,
  ].filter((part) => part !== null);
  const when = period.length === 0 ? "без срока" : `${period.join(" ")} (МСК)`;
  return `${input.code}: ${what}, использований: ${input.maxUses}, ${when}`;
}
