// What the operator console answers with: its own texts, beside the players' in this folder.

import { pluralRu } from "../format/plural.ts";
import { discordLiteral as md, quoted } from "../format/quote.ts";
import { UNTIL_WIPE_TEXT } from "./wipe.ts";

const countFormat = new Intl.NumberFormat("ru-RU");
const QUEUED_FORMS = { one: "предмет", few: "предмета", many: "предметов" };

export const PAYMENT_ADMIN_TEXT = {
  notFound: "Платёж не найден",
  noProviderId: "Платёж не дошёл до провайдера: проверять нечего",
  providerDown: "Провайдер не отвечает, попробуйте позже",
  /** The journal's reason for a credit of a payment a restore had lost (decision 135). */
  restoreCreditReason: "Платёж был у провайдера, а база его не помнила (восстановление из копии)",
  /** Who the journal names for what the site did by itself. */
  siteOperator: "Сайт",
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
  checkFields: "Проверьте поля формы",
  unknownIntent: "Неизвестное действие",
} as const;

export const SERVER_TEXT = {
  name: "Введите название сервера (до 100 символов)",
  ipPort: "Адрес в виде 1.2.3.4:28015",
  duplicate: "Сервер с таким адресом уже есть",
  notFound: "Сервер не найден",
  busy: "Сервер сейчас выполняет доставки: удалите его, когда он их подтвердит (не позже чем через 5 минут)",
  confirmRemoval: "Отметьте «Удалить навсегда», чтобы удалить сервер",
  legacyKey: "Старый ключ: замените («Новый ключ»)",
  confirmQueued: "Удалить всё равно",
  unservedTitle: "Эти типы серверов не продаются, пока не добавлен сервер такого типа:",
  added: (id: number) => `Сервер №${id} добавлен`,
  keyRotated: (id: number) => `Новый ключ сервера №${id}; старый больше не действует`,
} as const;

/**
 * The doorbell of a server on the line, as its last heartbeat told (decision 146): connected, the
 * purchase reaches it in seconds; not, it polls on its timer (30 s unless its config says otherwise).
 */
export const DOORBELL_TEXT = {
  connected: "Звонок: подключён",
  disconnected: "Звонок: нет — опрос раз в 30 с",
  absent: "Звонок: плагин без звонка — опрос раз в 30 с",
} as const;

export function doorbellText(doorbell: boolean | null): string {
  if (doorbell === null) return DOORBELL_TEXT.absent;
  return doorbell ? DOORBELL_TEXT.connected : DOORBELL_TEXT.disconnected;
}

/**
 * «Сервер №3 удалён», with the revokes it leaves without a server and, for the last of its type, what
 * that means for the shop.
 */
export function serverRemovedText(
  id: number,
  strandedRevokes: number,
  lastOfType: { serverType: string; waiting: number } | null | undefined,
): string {
  const stranded =
    strandedRevokes > 0
      ? `; снятий привилегий, выданных на нём, осталось без сервера: ${strandedRevokes} — они в разделе «Доставки»`
      : "";
  const last = lastOfType ? `. ${lastServerRemovedText(lastOfType.serverType, lastOfType.waiting)}` : "";
  return `Сервер №${id} удалён${stranded}${last}`;
}

/** A type with no server on the Серверы page: «MAX3: нет сервера; ждут выдачи 12 предметов». */
export function unservedTypeText(serverType: string, waiting: number): string {
  const queue = waiting > 0 ? `; ждут выдачи ${countFormat.format(waiting)} ${pluralRu(waiting, QUEUED_FORMS)}` : "";
  return `${serverType}: нет сервера${queue}`;
}

/**
 * The warning before removing the last server of a type that has deliveries waiting (decision 122):
 * «На этот тип серверов (SOLO) ждут выдачи 3 364 предмета…», asked again with an explicit confirmation.
 */
export function lastServerQueueText(serverType: string, waiting: number): string {
  return (
    `На этот тип серверов (${serverType}) ждут выдачи ${countFormat.format(waiting)} ${pluralRu(waiting, QUEUED_FORMS)}, ` +
    `а это последний сервер типа ${serverType}. После удаления они останутся в очереди и будут выданы, ` +
    `когда появится сервер этого типа; до тех пор магазин не продаёт товары ${serverType}.`
  );
}

/** The success line after removing the last server of its type (decision 122). */
export function lastServerRemovedText(serverType: string, waiting: number): string {
  const queue =
    waiting > 0
      ? `; в очереди ${countFormat.format(waiting)} ${pluralRu(waiting, QUEUED_FORMS)} — они будут выданы, когда появится сервер этого типа`
      : "";
  return `Серверов типа ${serverType} больше нет: магазин не продаёт его товары, пока не добавлен новый${queue}`;
}

export const DELIVERY_TEXT = {
  notRetryable: "Повторить можно только доставку с ошибкой или зависшую",
  savingNotRetryable: "Часть команд уже выполнена и ждёт сохранения мира на сервере: повторить можно после сохранения",
  notAwaited: "Сайт уже не ждёт этот сервер",
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
  durations: "Сроки — строки вида «7», «30 = 299» (дней = цена в рублях) или «до вайпа = 150»",
  untilWipePrice: "У срока «до вайпа» своя цена: «до вайпа = 150»",
  untilWipeRevoke: "Для срока «до вайпа» нужны команды снятия: их выполнят при вайпе сервера",
  untilWipeDays:
    "В командах выдачи товара со сроком «до вайпа» нельзя использовать {days}: у этого срока нет числа дней",
  oneTimeDurations: "У разового товара не бывает сроков",
  duplicateDuration: "Каждый срок указывается один раз",
  window: "Окончание продажи должно быть позже начала",
  maxQuantity: "Количество — целое число от 1",
  date: "Дата в формате ГГГГ-ММ-ДДTЧЧ:ММ",
  command: "Команда не длиннее 300 символов",
  nicknameOutsideChat: "{nickname} можно подставлять только в сообщение чата (команда say …)",
  belowSold: "Количество не может быть меньше уже проданного",
  notFound: "Товар не найден",
} as const;

const ITEM_FORMS = { one: "товар", few: "товара", many: "товаров" } as const;

/** «Категории» (decision 119): what the catalog is divided into; a fresh shop has none. */
export const CATEGORY_TEXT = {
  title: "Категории",
  help: "Категории делят каталог магазина, игроки выбирают их в фильтре. Порядок здесь — порядок в магазине. Скрытая категория пропадает из магазина вместе со своими товарами; удалить можно только пустую.",
  empty: "Категорий пока нет. Добавьте первую — без неё нельзя добавить ни одного товара.",
  badName: "Название категории — от 1 до 60 символов",
  badDescription: "Описание — не длиннее 300 символов",
  duplicate: "Категория с таким названием уже есть",
  notFound: "Категория не найдена",
  /** «В категории 3 товара: перенесите их в другую категорию или удалите …» */
  notEmpty: (count: number) =>
    `В категории ${count} ${pluralRu(count, ITEM_FORMS)}: перенесите их в другую категорию (в карточке товара), потом удалите категорию. Или скройте её — она пропадёт из магазина вместе с товарами.`,
  cantMove: "Категория уже на краю списка: двигать некуда",
  hiddenMark: "скрыта",
  done: {
    created: "Категория добавлена",
    renamed: "Категория сохранена",
    moved: "Порядок категорий изменён",
    hidden: "Категория скрыта: её и её товаров нет в магазине",
    shown: "Категория снова в магазине",
    deleted: "Категория удалена",
  },
  /** The item form when there is no category yet. */
  noneForItem: "Чтобы добавить товар, нужна хотя бы одна категория, а их пока нет.",
  createFirst: "Создать категорию",
} as const;

/** «Распродажи» (decision 113). */
export const SALES_TEXT = {
  title: "Распродажи",
  help: "Скидка на весь магазин или на выбранные категории и типы серверов на время. Если у товара есть своя скидка, действует бо́льшая из двух.",
  badTitle: "Укажите название от 1 до 60 символов",
  badPercent: "Скидка — целое число процентов от 1 до 90",
  badStart: "Укажите начало в формате ДД.ММ.ГГГГ ЧЧ:ММ",
  badEnd: "Укажите окончание позже начала",
  badScope: "Такой категории или типа сервера нет",
  created: "Распродажа создана",
  ended: "Распродажа завершена",
  notRunning: "Эта распродажа уже завершена",
  state: { planned: "Запланирована", running: "Идёт", ended: "Завершена", cancelled: "Завершена досрочно" },
  everything: "Весь магазин",
  allTypes: "все типы серверов",
} as const;

/** «Настройки магазина» (decision 111). */
export const SHOP_SETTINGS_TEXT = {
  title: "Настройки магазина",
  returnWindow: "Сколько часов после покупки игрок может сам вернуть невыданный предмет (0 — возврат выключен)",
  help: "Деньги возвращаются на баланс, пока ни один сервер не начал выдачу. Новый срок действует для покупок, сделанных после сохранения.",
  badWindow: "Укажите целое число часов от 0 до 720",
  saved: "Настройки сохранены",
} as const;

export const EXPORT_TEXT = {
  kinds: { payments: "Платежи", purchases: "Покупки", ledger: "Движения баланса" },
  period: "Укажите период: даты «с» и «по» в формате ГГГГ-ММ-ДД, «с» не позже «по»",
  kind: "Выберите, что выгрузить",
  onlyPurchases: "Поддержке доступна только выгрузка покупок",
  /** «За этот период 23 456 строк — в один файл помещается 10 000. Скачайте выгрузку по частям:» */
  partsIntro: (rows: string, rowsPerFile: string) =>
    `За этот период ${rows} — в один файл помещается ${rowsPerFile}. Скачайте выгрузку по частям:`,
  /** «Часть 2 из 3: строки 10 001–20 000» */
  partLabel: (part: number, parts: number, first: string, last: string) =>
    `Часть ${part} из ${parts}: строки ${first}–${last}`,
  headers: {
    payments: [
      "Создан (МСК, ISO 8601)",
      "ID платежа",
      "SteamID",
      "Игрок",
      "Сумма, руб. (десятичная запятая)",
      "Статус",
      "Провайдер",
      "ID у провайдера",
      "E-mail для чека",
      "Зачислен (МСК, ISO 8601)",
    ],
    purchases: [
      "Создана (МСК, ISO 8601)",
      "ID покупки",
      "Транзакция",
      "SteamID",
      "Игрок",
      "ID товара",
      "Товар",
      "Тип сервера",
      "Срок, дней (0 — до вайпа)",
      "Цена, руб. (десятичная запятая)",
      "Статус",
      "Оплачена (МСК, ISO 8601)",
      "Подарок для (SteamID)",
    ],
    ledger: [
      "Время (МСК, ISO 8601)",
      "ID записи",
      "SteamID",
      "Игрок",
      "Сумма, руб. (десятичная запятая)",
      "Вид",
      "ID покупки",
      "ID платежа",
      "Примечание",
    ],
  },
  paymentStatus: { pending: "В обработке", completed: "Успешно", failed: "Ошибка", cancelled: "Отменено" },
  purchaseStatus: {
    pending: "В обработке",
    completed: "Завершено",
    failed: "Ошибка",
    refunded: "Возврат",
    returned: "Возвращена игроком",
  },
  ledgerKind: {
    deposit: "Пополнение",
    purchase: "Покупка",
    promo: "Промокод",
    refund: "Возврат",
    refund_debt: "Погашение долга",
    return: "Возврат игроком до выдачи",
    adjustment: "Корректировка",
  },
} as const;

const rubles = (kopecks: number) => {
  const whole = Math.floor(Math.abs(kopecks) / 100).toLocaleString("ru-RU");
  const cents = Math.abs(kopecks) % 100;
  return `${kopecks < 0 ? "−" : ""}${whole}${cents ? `,${String(cents).padStart(2, "0")}` : ""} ₽`;
};

export const DISCORD_TEXT = {
  invalidUrl:
    "Это не адрес вебхука Discord: нужен адрес вида https://discord.com/api/webhooks/<id>/<токен> из настроек канала",
  saved: "Настройки уведомлений сохранены",
  dropReason: "Уведомление не удалось доставить в Discord за сутки",
  events: {
    purchase: "Покупка",
    topup: "Пополнение баланса",
    provider_refund: "Возврат платежа провайдером",
    delivery_failed: "Выдача на сервере не удалась",
    revoke_stranded: "Снятие привилегии застряло",
    debt: "Игрок в долгу",
  },
  /** The messages themselves, from what the event's row recorded. */
  messages: {
    purchase: (p: {
      nickname: string;
      item: string;
      price: number;
      days: number | null;
      serverType: string;
      giftTo?: string | null;
    }) =>
      `🛒 Покупка: ${md(p.nickname)} — ${md(quoted(p.item))}${p.days === 0 ? ` ${UNTIL_WIPE_TEXT.term}` : p.days ? ` на ${p.days} дн.` : ""} (${p.serverType}) за ${rubles(p.price)}${p.giftTo ? `, подарок для ${md(p.giftTo)}` : ""}`,
    topup: (p: { nickname: string; amount: number }) =>
      `💳 Пополнение: ${md(p.nickname)} пополнил баланс на ${rubles(p.amount)}`,
    provider_refund: (p: { nickname: string; amount: number; debited: number }) =>
      `↩️ Возврат платежа провайдером: ${md(p.nickname)}, ${rubles(p.amount)}; списано с баланса ${rubles(p.debited)}`,
    delivery_failed: (p: { nickname: string; item: string; serverType: string; error: string | null }) =>
      `⚠️ Выдача не удалась: ${md(quoted(p.item))} для ${md(p.nickname)} (${p.serverType}): ${md(p.error ?? "без описания")}`,
    revoke_stranded: (p: { nickname: string; item: string; error: string | null }) =>
      `⚠️ Снятие привилегии застряло: ${md(quoted(p.item))} у ${md(p.nickname)}: ${md(p.error ?? "без описания")}`,
    debt: (p: { nickname: string; debt: number }) =>
      `❗ Игрок в долгу: ${md(p.nickname)} должен ${rubles(p.debt)} после возврата платежа; покупки закрыты до погашения`,
  },
} as const;

/** What each command of a delivery did, as the console's deliveries page shows it (decision 124). */
export const COMMAND_STATE_LABEL = {
  pending: "не выполнена",
  given: "выполнена, ждёт сохранения мира",
  saved: "выполнена и сохранена",
  failed: "ошибка",
  uncertain: "могла выполниться до сбоя сервера",
} as const;

/** «Повторить»'s own words: what it will run and where, read before it is pressed. */
export const RETRY_PLAN_TEXT = {
  runs: (commands: string) => `Повторить выполнит: ${commands}`,
  runsNothing: "Повторить: все команды уже выполнены, доставка будет отмечена при следующем опросе сервера",
  kept: (indices: string) => `уже выполнены и не повторятся: ${indices}`,
  again: "снова",
  onServer: (id: number, name: string) => `на сервере №${id} «${name}»`,
  onAnyServer: (serverType: string) => `на любом сервере типа ${serverType}`,
  serverSilent: (id: number, since: string) => `сервер №${id} не отвечает с ${since}`,
  revokeOn: (id: number, name: string) => `на сервере №${id} «${name}», выдавшем привилегию`,
} as const;

/** Why a pending delivery waits (the console's «Зависшие»). */
export const DELIVERY_WAIT_TEXT = {
  saving: (id: number, since: string) =>
    `Выполнена на сервере №${id}, ждёт сохранения мира (с ${since}); отметится выданной после сохранения`,
  holderSilent: (id: number, since: string) =>
    `Сервер №${id} взял доставку и не отвечает с ${since}: он мог её выполнить. Ждём его; «Повторить» отдаст доставку другому серверу`,
} as const;

/** After a restore from a backup (decision 124): the deliveries page names the servers it waits for. */
export const RESYNC_TEXT = {
  title: "Сайт восстановлен из резервной копии",
  waiting: (id: number, name: string, serverType: string) =>
    `Доставки на серверах типа ${serverType} ждут, пока сервер №${id} «${name}» пришлёт, что он выдал после создания копии.`,
  skip: (id: number) => `Не ждать сервер №${id}`,
  skipWarning: "Сервер удалён или не вернётся: то, что он выдал после копии, сайт не узнает и может выдать снова.",
  done: "Сайт больше не ждёт этот сервер",
} as const;
