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
} as const;

/**
 * Why a delivery the plugin started and never finished (it crashed mid-delivery; it will not run it
 * again) failed: shown in the player's Корзина and in the console's deliveries.
 */
export const DELIVERY_INTERRUPTED = "Доставка прервана, проверьте вручную";

/** The console's mark on a delivery a server acknowledged after it was handed to another (decision 104). */
export const POSSIBLE_DUPLICATE = "возможна повторная выдача";
