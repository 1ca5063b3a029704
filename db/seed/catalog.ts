// The demo catalog: categories, and for every server type ranks (VIP, Premium at
// 7, 14, 30 and 90 days), kits with their contents, one-time items, and limited
// offers in each state (upcoming, active, urgent, sold out). Money in kopecks,
// times in ms; limited windows are relative to the moment the seed runs.
// Console commands are real Rust/Oxide commands; the game plugin runs them with
// {steamid} {nickname} {days} {server} filled in. Ranks are Oxide groups, kits with a cooldown are
// permissions of the Kits plugin (taken in game with /kit <name>), one-off items are given once.
import { SERVER_TYPES, type ServerType } from "../../core/shop/server-types.ts";
import { type SqlValue, sqlLiteral } from "./sql.ts";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const rub = (rubles: number) => rubles * 100;
const amountFormat = new Intl.NumberFormat("ru-RU");
/** «10 000» with ru-RU's no-break space, so «Дерево ×10 000» never wraps inside the number. */
export const qty = (amount: number) => amountFormat.format(amount);

/** INSERT … ON CONFLICT DO UPDATE: unlike INSERT OR REPLACE it never deletes a row that purchases point to. */
function upsertOn(table: string, conflict: string[], row: Record<string, SqlValue>): string {
  const columns = Object.keys(row);
  const values = columns.map((column) => sqlLiteral(row[column]));
  const updates = columns
    .filter((column) => !conflict.includes(column))
    .map((column) => `${column} = excluded.${column}`);
  return `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${values.join(", ")}) ON CONFLICT(${conflict.join(", ")}) DO UPDATE SET ${updates.join(", ")};`;
}

export const seedCategories = [
  { id: 1, name: "Привилегии", description: "Ранги с бонусами на весь вайп: быстрый крафт, телепорт, домашние точки" },
  { id: 2, name: "Наборы", description: "Готовые наборы предметов для старта, рейда и боя" },
  { id: 3, name: "Ресурсы", description: "Дерево, металл и сера для строительства и крафта" },
  { id: 4, name: "Оружие", description: "Оружие, чтобы не тратить время на крафт" },
  { id: 5, name: "Транспорт", description: "Лодки и вертолёты — скоро в продаже" },
] as const;

export interface Content {
  name: string;
  shortname: string;
  amount: number;
}

export interface SeedItem {
  n: number;
  name: string;
  description: string;
  price: number;
  discount?: number;
  img: string;
  category: number;
  oneTime?: boolean;
  reload?: number;
  /** [days, own price in rubles or null for pro-rated] */
  durations?: [number, number | null][];
  /** Sold «до вайпа» too, at this price in rubles (decision 130). */
  untilWipe?: number;
  contents?: Content[];
  rank?: string;
  start?: number;
  end?: number;
  max?: number;
  sold?: number;
  requiresOnline?: boolean;
  /**
   * A kit of the Kits plugin (umod.org/plugins/kits): the purchase grants its permission `kits.<name>`
   * (revoked when a timed purchase ends) and the player takes the kit in game with `/kit <name>` as
   * often as the kit's cooldown allows. `contents` then only describe the kit for the shop.
   */
  kit?: string;
}

export const c = (name: string, shortname: string, amount = 1): Content => ({ name, shortname, amount });
const RANK_DURATIONS: [number, number | null][] = [
  [7, null],
  [14, null],
  [30, null],
];

function catalogFor(now: number, typeIndex: number): SeedItem[] {
  // Small differences between server types, as a real shop has.
  const x5 = typeIndex === 4;
  return [
    {
      n: 1,
      name: "VIP",
      description: "Ранг ВИП: ускоренный крафт, 3 домашние точки, телепорт к другу раз в 10 минут, цветной ник в чате.",
      price: 199,
      discount: typeIndex === 1 ? 15 : 0,
      img: "/images/shop/vip.svg",
      category: 1,
      durations: [...RANK_DURATIONS, [90, 499]],
      untilWipe: 59,
      rank: "vip",
      requiresOnline: false,
    },
    {
      n: 2,
      name: "Premium",
      description:
        "Ранг Премиум: всё из VIP, плюс мгновенный крафт, 5 домашних точек, личный рециклер и /kit premium раз в сутки.",
      price: x5 ? 449 : 399,
      discount: x5 ? 20 : 0,
      img: "/images/shop/premium.svg",
      category: 1,
      durations: [...RANK_DURATIONS, [90, x5 ? 1099 : 999]],
      rank: "premium",
      requiresOnline: false,
    },
    {
      n: 3,
      name: "Набор «Старт»",
      description:
        "Всё, чтобы пережить первую ночь: инструменты, спальник и немного еды. Забирайте в игре командой /kit start раз в сутки, пока действует покупка.",
      price: 149,
      img: "/images/shop/kit-start.svg",
      category: 2,
      reload: 24 * 60 * 60,
      durations: [
        [7, null],
        [30, null],
      ],
      kit: "start",
      requiresOnline: false,
      contents: [
        c("Каменный топор", "stonehatchet"),
        c("Каменная кирка", "stone.pickaxe"),
        c("Спальный мешок", "sleepingbag"),
        c("Варёная курица", "chicken.cooked", 5),
      ],
    },
    {
      n: 4,
      name: "Набор «Рейдер»",
      description:
        "Взрывчатка и ракетница для рейда. Забирайте в игре командой /kit raider раз в 12 часов, пока действует покупка.",
      price: x5 ? 299 : 349,
      img: "/images/shop/kit-raid.svg",
      category: 2,
      reload: 12 * 60 * 60,
      durations: [
        [7, 129],
        [30, null],
      ],
      kit: "raider",
      requiresOnline: false,
      contents: [
        c("Взрывчатка C4", "explosive.timed", 2),
        c("Ракетница", "rocket.launcher"),
        c("Ракета", "ammo.rocket.basic", 4),
      ],
    },
    {
      n: 5,
      name: "Набор «Стрелок»",
      description: "Автомат, патроны и аптечка. Выдаётся один раз.",
      price: 249,
      img: "/images/shop/kit-shooter.svg",
      category: 2,
      oneTime: true,
      contents: [
        c("Штурмовая винтовка АК", "rifle.ak"),
        c("Патроны 5.56", "ammo.rifle", 128),
        c("Медицинский шприц", "syringe.medical", 5),
      ],
    },
    {
      n: 6,
      name: `Дерево ×${qty(10000)}`,
      description: `${qty(10000)} дерева сразу в инвентарь. Выдаётся один раз.`,
      price: 49,
      img: "/images/shop/wood.svg",
      category: 3,
      oneTime: true,
      contents: [c("Дерево", "wood", 10000)],
    },
    {
      n: 7,
      name: `Металлические фрагменты ×${qty(5000)}`,
      description: `${qty(5000)} металлических фрагментов для стен и крафта. Выдаётся один раз.`,
      price: 79,
      img: "/images/shop/metal.svg",
      category: 3,
      oneTime: true,
      contents: [c("Металлические фрагменты", "metal.fragments", 5000)],
    },
    {
      n: 8,
      name: `Сера ×${qty(5000)}`,
      description: `${qty(5000)} серы для пороха и взрывчатки. Выдаётся один раз.`,
      price: 99,
      discount: typeIndex === 0 ? 10 : 0,
      img: "/images/shop/sulfur.svg",
      category: 3,
      oneTime: true,
      contents: [c("Сера", "sulfur", 5000)],
    },
    {
      n: 9,
      name: "Штурмовая винтовка АК",
      description: "Самое популярное оружие Rust. Выдаётся один раз.",
      price: 129,
      img: "/images/shop/rifle-ak.svg",
      category: 4,
      oneTime: true,
      contents: [c("Штурмовая винтовка АК", "rifle.ak")],
    },
    {
      n: 10,
      name: "Болтовая винтовка",
      description: "Снайперская винтовка со скользящим затвором. Выдаётся один раз.",
      price: 119,
      img: "/images/shop/rifle-bolt.svg",
      category: 4,
      oneTime: true,
      contents: [c("Болтовая винтовка", "rifle.bolt")],
    },
    // Limited offers, one in each state.
    {
      n: 20,
      name: "Набор «Охотник»",
      description: "Лимитированный набор для охоты: лук, стрелы и нож. Выдаётся один раз. Продажа скоро начнётся.",
      price: 99,
      img: "/images/shop/kit-hunter.svg",
      category: 2,
      oneTime: true,
      contents: [
        c("Охотничий лук", "bow.hunting"),
        c("Деревянная стрела", "arrow.wooden", 64),
        c("Костяной нож", "knife.bone"),
      ],
      start: now + 2 * DAY,
      end: now + 9 * DAY,
      max: 100,
      sold: 0,
    },
    {
      n: 21,
      name: "Кейс «Оружейник»",
      description: "Лимитированный кейс: Томпсон и 200 пистолетных патронов. Выдаётся один раз.",
      price: 199,
      discount: 10,
      img: "/images/shop/case-gunsmith.svg",
      category: 4,
      oneTime: true,
      contents: [c("Томпсон", "smg.thompson"), c("Пистолетные патроны", "ammo.pistol", 200)],
      start: now - DAY,
      end: now + 5 * DAY,
      max: 200,
      sold: 37,
    },
    {
      n: 22,
      name: "Набор «Ночной рейд»",
      description:
        "Лимитированный набор: четыре C4 и прибор ночного видения. Выдаётся один раз. Последние часы продажи!",
      price: 399,
      img: "/images/shop/kit-night.svg",
      category: 2,
      oneTime: true,
      contents: [c("Взрывчатка C4", "explosive.timed", 4), c("Прибор ночного видения", "nightvisiongoggles")],
      start: now - 2 * DAY,
      end: now + 6 * HOUR,
      max: 100,
      sold: 40,
    },
    {
      n: 23,
      name: "Броня «Штурмовик»",
      description: "Лимитированный комплект металлической брони. Выдаётся один раз. Осталось совсем немного.",
      price: 259,
      img: "/images/shop/armor.svg",
      category: 2,
      oneTime: true,
      contents: [c("Металлическая маска", "metal.facemask"), c("Металлический нагрудник", "metal.plate.torso")],
      start: now - DAY,
      end: now + 10 * DAY,
      max: 50,
      sold: 46,
    },
    {
      n: 24,
      name: "Набор «Первый вайп»",
      description: "Лимитированный стартовый набор к вайпу. Выдаётся один раз. Распродан.",
      price: 149,
      img: "/images/shop/kit-wipe.svg",
      category: 2,
      oneTime: true,
      contents: [c("Спальный мешок", "sleepingbag", 3), c("Деревянная дверь", "door.hinged.wood", 2)],
      start: now - 3 * DAY,
      end: now + 3 * DAY,
      max: 30,
      sold: 30,
    },
  ];
}

/** Item ids are (server type index + 1) × 100 + n: SOLO VIP is 101, NO_LIMIT Premium 502. */
export const seedItemId = (serverType: ServerType, n: number) => (SERVER_TYPES.indexOf(serverType) + 1) * 100 + n;

export function catalogSeedSql(now = Date.now()): string[] {
  const statements = seedCategories.map((category, index) =>
    upsertOn("categories", ["id"], { ...category, sort_order: index }),
  );
  SERVER_TYPES.forEach((serverType, typeIndex) => {
    for (const item of catalogFor(now, typeIndex)) {
      statements.push(...itemSeedSql(serverType, (typeIndex + 1) * 100 + item.n, item));
    }
  });
  return statements;
}

/** The rows of one catalog item: the item, its durations, kit contents and console commands. */
export function itemSeedSql(serverType: ServerType, id: number, item: SeedItem): string[] {
  const statements = [
    upsertOn("items", ["id"], {
      id,
      name: item.name,
      description: item.description,
      price: rub(item.price),
      discount: item.discount ?? 0,
      img: item.img,
      server_type: serverType,
      category_id: item.category,
      is_one_time: item.oneTime ?? false,
      is_available: true,
      reload_time: item.reload ?? 0,
      start_time: item.start ?? null,
      end_time: item.end ?? null,
      max_quantity: item.max ?? null,
      sold_quantity: item.sold ?? 0,
      requires_online: item.requiresOnline ?? true,
      sort_order: item.n,
      until_wipe_price: item.untilWipe == null ? null : rub(item.untilWipe),
    }),
  ];
  for (const [days, price] of item.durations ?? []) {
    statements.push(
      upsertOn("item_durations", ["item_id", "days"], {
        item_id: id,
        days,
        price: price == null ? null : rub(price),
      }),
    );
  }
  (item.contents ?? []).forEach((content, index) => {
    statements.push(
      upsertOn("item_contents", ["id"], {
        id: id * 10 + index,
        item_id: id,
        item: content.amount > 1 ? `${content.name} ×${qty(content.amount)}` : content.name,
        img: `/images/shop/items/${content.shortname}.svg`,
        sort_order: index,
      }),
    );
  });
  const commands: { phase: "grant" | "revoke"; template: string }[] = item.rank
    ? [
        { phase: "grant", template: `oxide.usergroup add {steamid} ${item.rank}` },
        { phase: "revoke", template: `oxide.usergroup remove {steamid} ${item.rank}` },
      ]
    : item.kit
      ? [
          { phase: "grant", template: `oxide.grant user {steamid} kits.${item.kit}` },
          // A permanent grant (a promo's kit) is never revoked: the revoke runs only when a term ends.
          { phase: "revoke", template: `oxide.revoke user {steamid} kits.${item.kit}` },
        ]
      : (item.contents ?? []).map((content) => ({
          phase: "grant",
          template: `inventory.giveto {steamid} ${content.shortname} ${content.amount}`,
        }));
  commands.forEach((command, index) => {
    statements.push(
      upsertOn("item_commands", ["id"], {
        id: id * 10 + index,
        item_id: id,
        phase: command.phase,
        template: command.template,
        sort_order: index,
      }),
    );
  });
  return statements;
}
