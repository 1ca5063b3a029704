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
