export const SERVER_STATUS_FAILED = "Ошибка при получении статуса серверов";

/** What a server card says beside its address and players (the map and wipe come from the plugin's heartbeat). */
export const SERVER_CARD_TEXT = {
  connect: "Подключиться",
  connectLabel: (ipPort: string) => `Подключиться к ${ipPort} через Steam`,
  /** The card's way into its type's shop (issue 46 item 7). */
  shop: "Магазин",
  shopLabel: (typeLabel: string) => `Магазин для серверов ${typeLabel}`,
} as const;
