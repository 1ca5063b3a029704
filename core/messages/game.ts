// What the game-server API answers a plugin with.

import { REQUEST_TOO_LARGE } from "./common.ts";

export const GAME_ERRORS = {
  tooLarge: REQUEST_TOO_LARGE,
  httpsRequired: "Требуется HTTPS",
  signatureHeadersMissing: "Нет заголовков подписи X-Server-Id, X-Timestamp, X-Signature",
  timestampOutOfWindow: "Метка времени вне допустимого окна ±5 минут",
  badSignature: "Неверная подпись запроса",
  replayed: "Этот запрос уже был принят",
  badRequest: "Неверный формат запроса",
  unknownDeliveries: "Неизвестные доставки",
  foreignDeliveries: "Доставки выданы другому серверу",
  // The doorbell (decision 146): GET /api/game/doorbell without `Upgrade: websocket`, or a runtime without one.
  doorbellNeedsUpgrade: "Звонок открывается только запросом WebSocket (Upgrade: websocket)",
  doorbellUnavailable: "Звонок на этом сайте не работает: плагин опрашивает очередь по таймеру",
  // A plugin before 3.0 prints this in the game server's console («Queue answered 426: …», which cuts the
  // answer at 200 characters): it can't re-send what it gave after a restore (decision 134).
  pluginTooOld:
    "Плагин старше 3.0 не получает выдач: после восстановления сайта он выдал бы их снова. Обновите RustStoreDelivery.cs до 3.x",
} as const;

/**
 * Why a delivery the plugin started and never finished (it crashed mid-delivery; it will not run it
 * again) failed: shown in the player's Корзина and in the console's deliveries.
 */
export const DELIVERY_INTERRUPTED = "Доставка прервана, проверьте вручную";

/** The console's mark on a delivery a server acknowledged after it was handed to another (decision 104). */
export const POSSIBLE_DUPLICATE = "возможна повторная выдача";
