// A larger catalog for measuring how the shop scales (`npm run bench`, `db:seed:local -- --catalog-size N`):
// the SOLO catalog topped up to N items with generated resources, weapons, kits (with contents) and
// timed ranks, written through the same seed rows as the demo catalog.
import { c, itemSeedSql, qty, type SeedItem } from "./catalog.ts";

/** The demo catalog's SOLO items (db/seed/catalog.ts); generated ones fill up to the asked size. */
export const DEMO_ITEMS_PER_TYPE = 15;
/** Generated item ids start here, far from the demo's (server type index + 1) × 100 + n. */
const FIRST_ID = 10_000;

const RESOURCES = [
  ["Дерево", "wood", "/images/shop/wood.svg"],
  ["Металлические фрагменты", "metal.fragments", "/images/shop/metal.svg"],
  ["Сера", "sulfur", "/images/shop/sulfur.svg"],
] as const;
const WEAPONS = [
  ["Штурмовая винтовка АК", "rifle.ak", "/images/shop/rifle-ak.svg"],
  ["Болтовая винтовка", "rifle.bolt", "/images/shop/rifle-bolt.svg"],
  ["Томпсон", "smg.thompson", "/images/shop/case-gunsmith.svg"],
] as const;

function generated(index: number): SeedItem {
  const n = 100 + index;
  const variant = index % 4;
  const amount = 1000 * (1 + (index % 10));
  if (variant === 0) {
    const [name, shortname, img] = RESOURCES[index % RESOURCES.length] as (typeof RESOURCES)[number];
    return {
      n,
      name: `${name} ×${qty(amount)} (№${index})`,
      description: `${qty(amount)} единиц ресурса «${name}» сразу в инвентарь.`,
      price: 29 + (index % 70),
      discount: index % 7 === 0 ? 10 : 0,
      img,
      category: 3,
      oneTime: true,
      contents: [c(name, shortname, amount)],
    };
  }
  if (variant === 1) {
    const [name, shortname, img] = WEAPONS[index % WEAPONS.length] as (typeof WEAPONS)[number];
    return {
      n,
      name: `${name} (№${index})`,
      description: `${name} и патроны к нему. Выдаётся один раз.`,
      price: 99 + (index % 100),
      img,
      category: 4,
      oneTime: true,
      contents: [c(name, shortname), c("Патроны 5.56", "ammo.rifle", 64)],
    };
  }
  if (variant === 2) {
    return {
      n,
      name: `Набор «Рейд-${index}»`,
      description: "Взрывчатка и ракеты для рейда. Перезарядка 12 часов.",
      price: 199 + (index % 150),
      img: "/images/shop/kit-raid.svg",
      category: 2,
      reload: 12 * 60 * 60,
      durations: [
        [7, null],
        [30, null],
      ],
      contents: [c("Взрывчатка C4", "explosive.timed", 2), c("Ракета", "ammo.rocket.basic", 4)],
    };
  }
  return {
    n,
    name: `Ранг «Ветеран-${index}»`,
    description: "Ранг с ускоренным крафтом и двумя домашними точками.",
    price: 149 + (index % 100),
    img: "/images/shop/vip.svg",
    category: 1,
    durations: [
      [7, null],
      [14, null],
      [30, null],
    ],
    rank: `veteran${index}`,
    requiresOnline: false,
  };
}

/** Statements that bring the SOLO catalog to `size` items (nothing when the demo catalog already has that many). */
export function scaledCatalogSql(size: number): string[] {
  const statements: string[] = [];
  for (let index = 0; index < size - DEMO_ITEMS_PER_TYPE; index++) {
    statements.push(...itemSeedSql("SOLO", FIRST_ID + index, generated(index)));
  }
  return statements;
}
