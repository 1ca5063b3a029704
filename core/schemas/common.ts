import { z } from "zod";

/** A database id as it travels in an address or a form: 1 to 10 digits, no leading zero. */
export const POSITIVE_ID_PATTERN = /^[1-9]\d{0,9}$/;

/** A positive id given as text, read as a number. */
export const positiveIdText = z.string().regex(POSITIVE_ID_PATTERN).transform(Number);

/** A whole number from 1 to `max` as a form field types it (two digits at most), one text for every fault. */
export function smallCountText(max: number, message: string) {
  return z
    .string(message)
    .trim()
    .regex(/^\d{1,2}$/, message)
    .transform(Number)
    .pipe(z.number().min(1, message).max(max, message));
}

/** The key that makes a repeated submit buy once. */
export const idempotencyKey = z.string().trim().min(8).max(100);
