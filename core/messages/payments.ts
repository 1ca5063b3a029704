// Top-up texts: the form's checks, the API's answers, and the provider notification's errors.

import { MIN_TOP_UP_RUBLES } from "../payments/limits.ts";

export const TOP_UP_MESSAGES = {
  signInRequired: "Для пополнения баланса необходимо авторизоваться",
  amountMin: `Минимальная сумма пополнения - ${MIN_TOP_UP_RUBLES} ₽`,
  amountMax: "Максимальная сумма пополнения - 100 000 ₽",
  amountPrecision: "Сумма указывается в рублях, не точнее копеек",
  // The spec's text, spelt «e-mail» as the form's label and note spell it (issue 36).
  emailInvalid: "Пожалуйста, введите корректный e-mail",
  createUnauthorized: "Необходимо авторизоваться для создания платежа",
  createFailed: "Произошла ошибка при создании платежа. Попробуйте позже.",
} as const;

export const PAYMENT_NOTIFICATION_ERRORS = {
  providerUnavailable: "Платёжная система недоступна",
  malformed: "Некорректное уведомление",
} as const;

/** What the profile says when the player comes back from the payment page. */
export const PAYMENT_RETURN_TEXT = {
  success: "Оплата успешно выполнена! Баланс пополнен.",
  failure: "К сожалению, платёж не был завершён.",
} as const;

/** The top-up form with JavaScript: the payment page opens in a new tab, and this one follows it (issue 36). */
export const TOP_UP_PROGRESS = {
  openedInTab: "Платёж создан. Страница оплаты открыта в новой вкладке.",
  openYourself: "Платёж создан. Перейдите на страницу оплаты.",
  goPay: "Перейти к оплате",
  waiting: "Как только оплата пройдёт, баланс обновится здесь.",
  paid: "Оплата прошла: баланс пополнен.",
  backToItem: "Вернуться к товару",
  toProfile: "В профиль",
} as const;

/** The top-up form opened from a purchase the balance was short for. */
export const TOP_UP_RETURN_NOTE = "После оплаты вы вернётесь к товару, чтобы завершить покупку.";
