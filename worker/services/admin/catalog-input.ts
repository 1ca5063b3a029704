import { z } from "zod";
import { CATALOG_TEXT } from "#core/messages/admin.ts";
import { SERVER_TYPES } from "#core/shop/server-types.ts";

// The item form as the console posts it, checked with Russian messages. Money is typed in rubles
// and stored in kopecks; times are typed in Moscow time.

const MSK = "+03:00";

const rubles = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,7}([.,]\d{1,2})?$/, message)
    .transform((value) => Math.round(Number(value.replace(",", ".")) * 100));

/** A datetime-local field read as Moscow time (ms since the epoch), null when empty; `message` when malformed. */
export const moscowMoment = (message: string) =>
  z
    .string()
    .trim()
    .transform((value, context) => {
      if (value === "") return null;
      const ms = Date.parse(`${value.length === 16 ? `${value}:00` : value}${MSK}`);
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) || Number.isNaN(ms)) {
        context.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return ms;
    });

const optionalMoment = moscowMoment(CATALOG_TEXT.date);

const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

// «до вайпа = 150» (decision 130): its own price, never pro-rated; any case, «до вайпа» or «вайп».
const UNTIL_WIPE_LINE = /^(?:до\s+)?вайп[а]?\s*(?:=\s*(\d{1,7}(?:[.,]\d{1,2})?))?$/iu;

const durationsSchema = z.string().transform((text, context) => {
  const parsed: { days: number; price: number | null }[] = [];
  let untilWipePrice: number | null = null;
  for (const line of lines(text)) {
    const wipe = UNTIL_WIPE_LINE.exec(line);
    if (wipe) {
      if (untilWipePrice !== null) {
        context.addIssue({ code: "custom", message: CATALOG_TEXT.duplicateDuration });
        return z.NEVER;
      }
      if (wipe[1] === undefined) {
        context.addIssue({ code: "custom", message: CATALOG_TEXT.untilWipePrice });
        return z.NEVER;
      }
      untilWipePrice = Math.round(Number(wipe[1].replace(",", ".")) * 100);
      continue;
    }
    const match = /^(\d{1,4})\s*(?:=\s*(\d{1,7}(?:[.,]\d{1,2})?))?$/.exec(line);
    const days = Number(match?.[1]);
    if (!match || days <= 0) {
      context.addIssue({ code: "custom", message: CATALOG_TEXT.durations });
      return z.NEVER;
    }
    const price = match[2] === undefined ? null : Math.round(Number(match[2].replace(",", ".")) * 100);
    if (parsed.some((duration) => duration.days === days)) {
      context.addIssue({ code: "custom", message: CATALOG_TEXT.duplicateDuration });
      return z.NEVER;
    }
    parsed.push({ days, price });
  }
  return { days: parsed.sort((a, b) => a.days - b.days), untilWipePrice };
});

/**
 * A player's nickname is display text they choose: it may only fill a chat message (`say …`), never
 * an argument of a command that changes something (the plugin also refuses other players' SteamIDs).
 */
const CHAT_COMMAND = /^\s*say\s/i;
const commandTemplate = z
  .string()
  .max(300, CATALOG_TEXT.command)
  .refine(
    (template) => !template.includes("{nickname}") || CHAT_COMMAND.test(template),
    CATALOG_TEXT.nicknameOutsideChat,
  );

const commandsSchema = z.string().transform(lines).pipe(z.array(commandTemplate).max(20));

/** A checkbox as a form sends it: «on» (or «1») when checked, absent when not. */
export const checkbox = z
  .string()
  .optional()
  .transform((value) => value === "on" || value === "1");

export const itemFormSchema = z
  .object({
    name: z.string().trim().min(1, CATALOG_TEXT.name).max(100, CATALOG_TEXT.name),
    description: z.string().trim().max(1000).prefault(""),
    price: rubles(CATALOG_TEXT.price),
    discount: z
      .string()
      .trim()
      .regex(/^\d{1,3}$/, CATALOG_TEXT.discount)
      .transform(Number)
      .refine((value) => value <= 100, CATALOG_TEXT.discount),
    img: z
      .string()
      .trim()
      .max(500, CATALOG_TEXT.img)
      .regex(/^(https:\/\/[^\s"'<>]+|\/[^\s"'<>]*)$/, CATALOG_TEXT.img),
    serverType: z.enum(SERVER_TYPES, { error: CATALOG_TEXT.serverType }),
    categoryId: z.coerce.number({ error: CATALOG_TEXT.category }).int().positive(CATALOG_TEXT.category),
    isOneTime: checkbox,
    isAvailable: checkbox,
    durations: durationsSchema.prefault(""),
    startTime: optionalMoment.prefault(""),
    endTime: optionalMoment.prefault(""),
    maxQuantity: z
      .string()
      .trim()
      .regex(/^(\d{1,7})?$/, CATALOG_TEXT.maxQuantity)
      .transform((value) => (value === "" ? null : Number(value)))
      .refine((value) => value === null || value >= 1, CATALOG_TEXT.maxQuantity)
      .prefault(""),
    grantCommands: commandsSchema.prefault(""),
    revokeCommands: commandsSchema.prefault(""),
  })
  .refine((item) => !(item.isOneTime && (item.durations.days.length > 0 || item.durations.untilWipePrice !== null)), {
    message: CATALOG_TEXT.oneTimeDurations,
    path: ["durations"],
  })
  // «До вайпа» ends by its revoke commands at the wipe, and has no count of days to fill {days} with.
  .refine((item) => item.durations.untilWipePrice === null || item.revokeCommands.length > 0, {
    message: CATALOG_TEXT.untilWipeRevoke,
    path: ["revokeCommands"],
  })
  .refine(
    (item) =>
      item.durations.untilWipePrice === null || !item.grantCommands.some((template) => template.includes("{days}")),
    { message: CATALOG_TEXT.untilWipeDays, path: ["grantCommands"] },
  )
  .refine((item) => item.startTime === null || item.endTime === null || item.endTime > item.startTime, {
    message: CATALOG_TEXT.window,
    path: ["endTime"],
  });

export type ItemInput = z.infer<typeof itemFormSchema>;
