// The Russian status labels the profile pages show; the API sends the codes.

import type { InventoryState } from "#core/profile/inventory-state.ts";

export const INVENTORY_STATUS_LABEL: Record<string, string> = {
  not_used: "Не использован",
  used: "Использован",
  refunded: "Возвращено",
  returned: "Возвращено",
};

export const PURCHASE_STATUS_LABEL: Record<string, string> = {
  pending: "В обработке",
  completed: "Завершено",
  failed: "Ошибка",
  refunded: "Возврат",
  // Both are a «Возврат» (the spec's word for a refund): this one the player's own, before delivery (issue 36).
  returned: "Возврат до выдачи",
};

const DEPOSIT_STATUS_LABEL: Record<string, string> = {
  completed: "Успешно",
  pending: "В обработке",
  failed: "Ошибка",
  cancelled: "Отменено",
  refunded: "Возврат",
};

export function depositStatusLabel(status: string): string {
  return DEPOSIT_STATUS_LABEL[status] ?? "Неизвестно";
}

/** A gift's badge colour, from where it is in the friend's Корзина. */
export function giftTone(state: InventoryState): "good" | "wait" | "bad" | "neutral" {
  if (state === "active" || state === "received" || state === "expired") return "good";
  if (state === "waiting" || state === "delivering") return "wait";
  if (state === "failed" || state === "refunded") return "bad";
  return "neutral";
}

/** A status badge's colour: good, waiting or bad. */
export function statusTone(status: string): "good" | "wait" | "bad" | "neutral" {
  if (status === "completed" || status === "not_used") return "good";
  if (status === "pending") return "wait";
  if (status === "failed" || status === "cancelled" || status === "refunded") return "bad";
  return "neutral";
}

export const PROFILE_TABS = [
  { to: "/profile", label: "Корзина", paths: ["/profile"] },
  { to: "/promocodes", label: "Промокод", paths: ["/promocodes"] },
  { to: "/purchases", label: "История покупок", paths: ["/purchases", "/history"] },
  { to: "/deposits", label: "Пополнения", paths: ["/deposits"] },
  { to: "/statement", label: "Движение средств", paths: ["/statement"] },
] as const;
