// Status names in the console (the player-facing ones where the spec gives them).

export const LEDGER_KIND_LABEL: Record<string, string> = {
  deposit: "Пополнение",
  purchase: "Покупка",
  promo: "Промокод",
  refund: "Возврат",
  refund_debt: "Погашение долга",
  return: "Возврат игроком до выдачи",
  adjustment: "Корректировка",
};

export const PURCHASE_STATUS: Record<string, string> = {
  pending: "В обработке",
  completed: "Завершено",
  failed: "Ошибка",
  refunded: "Возврат",
  returned: "Возвращена игроком",
};

export const INVENTORY_STATUS: Record<string, string> = {
  not_used: "Не использован",
  used: "Использован",
  refunded: "Возвращено",
  returned: "Возвращено игроком",
};

export const DELIVERY_STATUS: Record<string, string> = {
  pending: "Ожидает",
  done: "Доставлено",
  failed: "Ошибка",
  cancelled: "Отменено",
};

export const DELIVERY_KIND: Record<string, string> = { grant: "Выдача", revoke: "Изъятие" };

export const PAYMENT_STATUS: Record<string, string> = {
  completed: "Успешно",
  pending: "В обработке",
  failed: "Ошибка",
  cancelled: "Отменено",
};

export function tone(status: string): "good" | "wait" | "bad" | "neutral" {
  if (["completed", "done", "not_used"].includes(status)) return "good";
  if (status === "pending") return "wait";
  if (["failed", "cancelled", "refunded"].includes(status)) return "bad";
  return "neutral";
}

export function Badge({ status, labels }: { status: string; labels: Record<string, string> }) {
  return <span className={`admin-badge admin-badge--${tone(status)}`}>{labels[status] ?? status}</span>;
}
