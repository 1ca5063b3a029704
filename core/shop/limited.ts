// Limited offer states and the countdown format.

import { saleRefusal } from "./eligibility.ts";

export type LimitedState = "upcoming" | "active" | "urgent" | "unavailable";

export interface LimitedFields {
  is_limited: boolean;
  start_time: string | null;
  end_time: string | null;
  max_quantity: number | null;
  sold_quantity: number;
}

export const URGENT_MS = 24 * 60 * 60 * 1000;
export const URGENT_SHARE = 0.1;

function time(value: string | null): number | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** The state of a limited item at `now` (ms), or null for a regular item. */
export function limitedState(item: LimitedFields, now: number): LimitedState | null {
  if (!item.is_limited) return null;
  const end = time(item.end_time);
  // Whether the item is listed at all is not a limited offer's state: is_available says that.
  const sale = saleRefusal(
    {
      isAvailable: true,
      startTime: time(item.start_time),
      endTime: end,
      maxQuantity: item.max_quantity,
      soldQuantity: item.sold_quantity,
    },
    now,
  );
  if (sale === "ended" || sale === "soldOut") return "unavailable";
  if (sale === "notStarted") return "upcoming";
  const remaining = item.max_quantity == null ? null : item.max_quantity - item.sold_quantity;
  if (end != null && end - now < URGENT_MS) return "urgent";
  if (remaining != null && item.max_quantity != null && remaining <= item.max_quantity * URGENT_SHARE) return "urgent";
  return "active";
}

/** The countdown target: the start for an upcoming offer, the end otherwise. */
export function countdownTarget(item: LimitedFields, state: LimitedState | null): number | null {
  if (state === "upcoming") return time(item.start_time);
  if (state === "active" || state === "urgent") return time(item.end_time);
  return null;
}

/** Days and hours, hours and minutes, or minutes and seconds: "2 д 5 ч", "5 ч 12 мин", "12 мин 05 с". */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (days > 0) return `${days} д ${hours} ч`;
  if (hours > 0) return `${hours} ч ${minutes} мин`;
  return `${minutes} мин ${String(seconds).padStart(2, "0")} с`;
}

/** The quantity bar: percent remaining and the "remaining/max" label. */
export function quantityInfo(item: LimitedFields): { percent: number; label: string } | null {
  if (item.max_quantity == null || item.max_quantity <= 0) return null;
  const remaining = Math.max(0, item.max_quantity - item.sold_quantity);
  return {
    percent: Math.round((remaining / item.max_quantity) * 100),
    label: `${remaining}/${item.max_quantity}`,
  };
}
