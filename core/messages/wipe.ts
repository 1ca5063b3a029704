// The wipe as players and operators read it (decision 128). Numbers, days and times come from Intl.

import { pluralRu } from "../format/plural.ts";

const WEEK_FORMS = { one: "неделю", few: "недели", many: "недель" };

export const WIPE_TEXT = {
  justNow: "вайп был только что",
  /** `relative`: «3 ч назад», «15 мин. назад», «2 дня назад». */
  was: (relative: string) => `вайп был ${relative}`,
  /** `day`: «сегодня» or «завтра»; `time`: «22:00». */
  soon: (day: string, time: string) => `вайп ${day} в ${time}`,
  /** «вайп через 2 дня, чт 22:00». */
  later: (inDays: string, weekday: string, time: string) => `вайп ${inDays}, ${weekday} ${time}`,
  forced: "глобальный вайп",
  kindNone: "не задано",
  kindForced: "только глобальный вайп (первый четверг месяца, 22:00\u00a0МСК)",
  weekly: (weekday: string, time: string) => `каждую неделю: ${weekday} ${time}`,
  everyWeeks: (weeks: number, weekday: string, time: string, from: string) =>
    `раз в ${weeks} ${pluralRu(weeks, WEEK_FORMS)}: ${weekday} ${time}, с ${from}`,
  weekdays: ["пн", "вт", "ср", "чт", "пт", "сб", "вс"],
  /** The console's names of the kinds, in the order of the form's choice. */
  kindLabels: {
    none: "Не задано",
    weekly: "Каждую неделю",
    every_weeks: "Раз в N недель",
    forced: "Только глобальный вайп",
  },
  consoleTitle: "Расписание вайпов",
  consoleHint:
    "Время московское. Глобальный вайп Facepunch (первый четверг месяца, 22:00) учитывается всегда, кроме «Не задано»; в его день он заменяет вайп по расписанию. Игроки увидят изменение в течение двух минут.",
  formLabel: (serverId: number) => `Расписание вайпов сервера №${serverId}`,
  nextLabel: "следующий:",
  /** The last new map a plugin reported. */
  lastLabel: "последний по плагину:",
  kindLabel: "Как часто",
  weekdayLabel: "День недели (каждую неделю)",
  timeLabel: "Время (МСК)",
  weeksLabel: "Раз в N недель",
  fromLabel: "С даты (раз в N недель)",
  save: "Сохранить расписание",
  weekdayNames: ["понедельник", "вторник", "среда", "четверг", "пятница", "суббота", "воскресенье"],
} as const;

/** The console's refusals of a schedule. */
export const WIPE_FORM_TEXT = {
  kind: "Выберите, как часто сервер вайпается",
  weekday: "Выберите день недели вайпа",
  time: "Время вайпа в виде 14:00 (по Москве)",
  weeks: "Раз в сколько недель: от 2 до 8 (каждую неделю — «Каждую неделю»)",
  from: "Дата первого вайпа в виде 2026-12-03",
  saved: (serverId: number, schedule: string) => `Расписание вайпов сервера №${serverId} сохранено — ${schedule}`,
} as const;

/** The wipe calendar, /wipes (decision 128). */
export const WIPE_PAGE_TEXT = {
  title: "Календарь вайпов",
  metaTitle: "Календарь вайпов — Свобода",
  metaDescription:
    "Когда вайпы на серверах Rust «Свобода»: ближайшие вайпы каждого сервера по московскому времени и глобальный вайп Facepunch.",
  intro:
    "Время московское (МСК). Глобальный вайп Facepunch — первый четверг месяца в 22:00 МСК, когда выходит обновление игры: в этот день вайпаются все серверы с расписанием.",
  upcoming: "Ближайшие вайпы",
  /** Under «Ближайшие вайпы»: how far the list runs (issue 46). */
  upcomingUntil: (date: string) => `Все вайпы серверов с расписанием до глобального вайпа ${date} включительно.`,
  when: "Когда (МСК)",
  server: "Сервер",
  what: "Вайп",
  scheduled: "по расписанию",
  schedules: "Расписание серверов",
  noSchedule: "Сервер не объявил расписание",
  lastWipe: "Последний вайп:",
  none: "Ни один сервер пока не объявил расписание вайпов.",
  failed: "Не удалось загрузить расписание вайпов. Попробуйте позже.",
  link: "Календарь вайпов",
  linkFromList: "Календарь вайпов всех серверов →",
} as const;

/** The item page's note on the wipe (decision 128). */
export const WIPE_ITEM_TEXT = {
  title: "Вайп",
  next: (server: string, phrase: string) => `«${server}»: ${phrase}.`,
  meaning:
    "Вайп сбрасывает карту: постройки и полученные в игре вещи пропадают. Привилегии и то, что ещё лежит в Корзине, вайп не затрагивает — получите их после вайпа.",
  /** An item also sold «до вайпа» (decision 130). */
  untilWipe:
    "Кроме срока «до вайпа»: он заканчивается с ближайшим вайпом сервера, на котором вы получите покупку, и снимается сам.",
} as const;

/** The console's wipe sales on «Распродажи» (decision 144). */
export const WIPE_SALE_TEXT = {
  title: "Распродажи на вайп",
  help: "Скидка на несколько часов после каждого вайпа серверов выбранных типов — по расписанию вайпов из раздела «Серверы». Окно каждого вайпа появляется в списке распродаж за сутки до него.",
  hours: "Сколько часов после вайпа",
  badHours: "Укажите целое число часов от 1 до 72",
  create: "Создать распродажу на вайп",
  created: "Распродажа на вайп создана",
  ended: "Распродажа на вайп завершена",
  notRunning: "Эта распродажа на вайп уже завершена",
  none: "Распродаж на вайп ещё не было",
  running: "Действует",
  cancelled: "Завершена",
  end: "Завершить",
  /** «−20% на 6 ч после вайпа». */
  rule: (percent: number, hours: number) => `−${percent}% на ${hours} ч после вайпа`,
} as const;

/** The fair-play window after a wipe (decision 129). */
export const FAIR_PLAY_TEXT = {
  /** The Корзина's note on a waiting entry: «Выдаётся через 3 ч после вайпа, с 01:00 МСК». */
  closed: (hours: number, until: string) => `Выдаётся через ${hours} ч после вайпа, с ${until}`,
  /**
   * What a closed window holds back, before any click and in the purchase's refusal (issue 46): «Покупка
   * «VIP» закрыта после вайпа до сб, 28 ноября в 18:00 МСК», «Покупки из категории «Наборы» закрыты …».
   */
  purchaseClosed: (target: { kind: "item" | "category"; name: string }, until: string) =>
    target.kind === "item"
      ? `Покупка «${target.name}» закрыта после вайпа до ${until}`
      : `Покупки из категории «${target.name}» закрыты после вайпа до ${until}`,
  /** A receipt in an open window: «После вайпа выдача ждёт 48 ч: зайдите на сервер SOLO после …». */
  receiptWaits: (hours: number, serverType: string, until: string) =>
    `Предмет в Корзине. После вайпа его выдают через ${hours} ч: зайдите на сервер ${serverType} после ${until} — он придёт автоматически, а команда /store в чате игры покажет, что ждёт выдачи.`,
  consoleTitle: "Честная игра после вайпа",
  consoleHint:
    "Категория или товар не выдаётся на сервере указанное число часов после его вайпа (последнего по плагину или по расписанию, что позже). Выдача ждёт и идёт сама, когда окно закончится; игрок видит в Корзине, до какого времени. Покупку на это время можно закрыть.",
  serverType: "Тип серверов",
  target: "Категория или товар",
  categoryOption: (name: string) => `Категория «${name}»`,
  itemOption: (name: string) => `Товар «${name}»`,
  hours: "Часов после вайпа",
  purchasesOpen: "Покупка во время окна",
  open: "открыта (выдача подождёт)",
  closedLabel: "закрыта",
  save: "Сохранить окно",
  remove: "Убрать",
  none: "Окон нет: всё выдаётся сразу после вайпа.",
  rule: (hours: number, open: boolean) => `${hours} ч после вайпа, покупка ${open ? "открыта" : "закрыта"}`,
  saved: "Окно после вайпа сохранено",
  removed: "Окно после вайпа убрано",
  badType: "Выберите тип серверов",
  badTarget: "Выберите категорию или товар этого типа серверов",
  badHours: "Укажите целое число часов от 1 до 72",
  badOpen: "Выберите, открыта ли покупка во время окна",
  notFound: "Такого окна уже нет",
} as const;

/** «До вайпа» as a term (decision 130): sold until the next wipe of the server it is delivered on. */
export const UNTIL_WIPE_TEXT = {
  term: "до вайпа",
  /** The Корзина: «до вайпа, чт 22:00» within a week, else «до вайпа, чт, 3 декабря в 22:00». */
  until: (when: string) => `до вайпа, ${when}`,
  /** A running entry whose server has no schedule: it ends when the plugin reports the new map. */
  untilUnknown: "до вайпа сервера: дата не объявлена",
  /** A waiting entry: it will run until the wipe of the server that delivers it. */
  waiting: "Будет действовать до вайпа сервера, на котором вы его получите.",
  /** An entry a wipe ended. */
  ended: (date: string) => `Закончилось с вайпом ${date}`,
  /** The console's durations line: «до вайпа = 150». */
  consoleLine: "до вайпа",
  /** Beside the term where it is chosen (decision 139): «закончится чт, 3 декабря в 22:00 МСК». */
  ends: (when: string) => `закончится ${when}`,
  /** Where it is chosen when no server of the type announced its wipes. */
  endsUnknown: "закончится с вайпом сервера: дата не объявлена",
  /**
   * Where it is chosen when the wipe is close (decision 139): «Вайп уже через 20 ч: срок «до вайпа» будет
   * коротким, а цена у него та же.»
   */
  soon: (left: string) => `Вайп уже через ${left}: срок «до вайпа» будет коротким, а цена у него та же.`,
} as const;
