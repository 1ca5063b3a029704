// What the operator console answers with: its own texts, beside the players' in this folder.

export const PAYMENT_ADMIN_TEXT = {
  notFound: "Платёж не найден",
  noProviderId: "Платёж не дошёл до провайдера: проверять нечего",
  providerDown: "Провайдер не отвечает, попробуйте позже",
} as const;

export const PROMO_ADMIN_TEXT = {
  code: "Код: 3–32 символа A–Z, 0–9, _ или -",
  value: "Сумма — рубли больше 0, например 100 или 49,90",
  item: "Для промокода на товар укажите номер товара",
  itemNotFound: "Товар не найден",
  maxUses: "Лимит использований — целое число от 1",
  days: "Срок — целое число дней от 1 или пусто (навсегда)",
  endsAt: "Дата окончания в формате ГГГГ-ММ-ДДTЧЧ:ММ, позже текущего момента",
  duplicate: "Такой промокод уже есть",
  alreadyDisabled: "Промокод уже не действует",
} as const;

export const REFUND_TEXT = {
  notFound: "Покупка не найдена",
  already: "Эта покупка уже возвращена",
  notCompleted: "Вернуть можно только завершённую покупку",
  overLimit: "Возврат больше 1 000 ₽ может сделать только администратор",
  conflict: "Не удалось выполнить возврат, попробуйте ещё раз",
  deliveryCancelled: "Отменено: покупка возвращена",
} as const;

export const ADMIN_TEXT = {
  reasonRequired: "Укажите причину",
  amountInvalid: "Введите сумму в рублях, например 150 или -99,50",
  amountZero: "Сумма не может быть нулевой",
  amountTooLarge: "Сумма не может превышать 1 000 000 ₽",
  belowZero: "Баланс не может стать меньше 0 ₽",
  playerNotFound: "Игрок не найден",
  nothingChanged: "Ничего не изменилось: состояние уже такое",
} as const;

export const SERVER_TEXT = {
  name: "Введите название сервера (до 100 символов)",
  ipPort: "Адрес в виде 1.2.3.4:28015",
  duplicate: "Сервер с таким адресом уже есть",
  notFound: "Сервер не найден",
} as const;

export const DELIVERY_TEXT = {
  notRetryable: "Повторить можно только доставку с ошибкой или зависшую",
  notCancellable: "Отменить можно только не выполненную доставку, которую сейчас не выполняет сервер",
  notFound: "Доставка не найдена",
} as const;

export const CATALOG_TEXT = {
  name: "Введите название (до 100 символов)",
  price: "Цена — число рублей от 0, например 199 или 49,90",
  discount: "Скидка — целое число от 0 до 100",
  img: "Картинка — адрес https://… или путь на сайте, начиная с /",
  serverType: "Выберите тип сервера",
  category: "Выберите категорию",
  durations: "Сроки — строки вида «7» или «30 = 299» (дней = цена в рублях)",
  oneTimeDurations: "У разового товара не бывает сроков",
  duplicateDuration: "Каждый срок указывается один раз",
  window: "Окончание продажи должно быть позже начала",
  maxQuantity: "Количество — целое число от 1",
  date: "Дата в формате ГГГГ-ММ-ДДTЧЧ:ММ",
  command: "Команда не длиннее 300 символов",
  belowSold: "Количество не может быть меньше уже проданного",
  notFound: "Товар не найден",
} as const;
