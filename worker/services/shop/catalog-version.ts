import { asc } from "drizzle-orm";
import { categories, itemContents, itemDurations, items } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";

export interface CatalogVersion {
  /** Changes whenever anything a shop page shows of the catalog changes. */
  version: string;
  /** When the next limited offer starts or ends (ms), which changes the version by itself; null if none will. */
  changesAt: number | null;
}

/**
 * A fingerprint of everything the pages show of the catalog at `now`: every item column (prices,
 * discounts, availability, stock sold), durations, kit contents, categories, and which limited
 * offers have started and ended. Hashing the rows themselves, not a counter, means an edit made
 * straight in SQL changes it too, and no write path has to remember to.
 */
export async function readCatalogVersion(deps: Pick<Deps, "db" | "now">): Promise<CatalogVersion> {
  const now = deps.now().getTime();
  const { orm } = deps.db;
  const [itemRows, durationRows, contentRows, categoryRows] = await orm.batch([
    orm.select().from(items).orderBy(asc(items.id)),
    orm.select().from(itemDurations).orderBy(asc(itemDurations.itemId), asc(itemDurations.days)),
    orm.select().from(itemContents).orderBy(asc(itemContents.id)),
    orm.select().from(categories).orderBy(asc(categories.id)),
  ]);
  const passed = (time: number | null) => time != null && time <= now;
  const windows = itemRows.map((item) => [passed(item.startTime), passed(item.endTime)]);
  const upcoming = itemRows
    .flatMap((item) => [item.startTime, item.endTime])
    .filter((time): time is number => time != null && time > now);
  const text = JSON.stringify([itemRows, durationRows, contentRows, categoryRows, windows]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  const version = [...new Uint8Array(digest, 0, 8)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return { version, changesAt: upcoming.length > 0 ? Math.min(...upcoming) : null };
}
