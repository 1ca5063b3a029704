import { z } from "zod";
import { WIPE_FORM_TEXT } from "../messages/wipe.ts";
import {
  dayOfDate,
  MAX_EVERY_WEEKS,
  MIN_EVERY_WEEKS,
  parseMinute,
  WIPE_KINDS,
  type WipeSchedule,
} from "../wipe/schedule.ts";

/**
 * The console's wipe schedule form (decision 128), read into a schedule: each kind needs only its
 * own fields, and the others are ignored, so a form that still carries them (a plain form posts
 * every input) is accepted. Refusals in Russian, one per field.
 */
export const wipeScheduleFormSchema = z
  .object({
    wipeKind: z.enum(WIPE_KINDS, { error: WIPE_FORM_TEXT.kind }),
    weekday: z.string().optional(),
    time: z.string().optional(),
    weeks: z.string().optional(),
    from: z.string().optional(),
  })
  .transform((form, context): WipeSchedule => {
    const fail = (message: string, path: string) => {
      context.addIssue({ code: "custom", message, path: [path] });
      return z.NEVER;
    };
    if (form.wipeKind === "none" || form.wipeKind === "forced") return { kind: form.wipeKind };
    const minute = parseMinute(form.time ?? "");
    if (minute === null) return fail(WIPE_FORM_TEXT.time, "time");
    if (form.wipeKind === "weekly") {
      const weekday = Number(form.weekday);
      if (!/^[1-7]$/.test(form.weekday ?? "")) return fail(WIPE_FORM_TEXT.weekday, "weekday");
      return { kind: "weekly", weekday, minute };
    }
    const weeks = Number(form.weeks?.trim());
    if (!Number.isInteger(weeks) || weeks < MIN_EVERY_WEEKS || weeks > MAX_EVERY_WEEKS) {
      return fail(WIPE_FORM_TEXT.weeks, "weeks");
    }
    const from = form.from?.trim() ?? "";
    if (dayOfDate(from) === null) return fail(WIPE_FORM_TEXT.from, "from");
    return { kind: "every_weeks", weeks, from, minute };
  });
