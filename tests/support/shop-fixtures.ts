import { bearer } from "./sign-in.ts";
import { raw, runBatch } from "./sql.ts";
import { uniqueIp } from "./unique.ts";

let counter = 0;
const runTag = Math.floor(Math.random() * 1_000_000);
/**
 * An id for a fixture's row. Spaced 1 000 apart: a row the site adds itself (AUTOINCREMENT, the newest
 * id + 1) lands just past the last fixture's id, and the test files share one database whose ids go on
 * (tests/setup.ts), so the next fixture must not be the id right after it.
 */
export function uniqueId(): number {
  counter += 1;
  return 10_000_000 + runTag * 100 + counter * 1_000;
}

export async function createCategory(name = "Тестовая категория"): Promise<number> {
  const id = uniqueId();
  await runBatch([
    raw(
      "INSERT INTO categories (id, name, description, sort_order) VALUES (?, ?, ?, 1000)",
      id,
      `${name} ${id}`,
      "Для тестов",
    ),
  ]);
  return id;
}

export interface ItemOptions {
  name?: string;
  description?: string;
  /** Kopecks. */
  price?: number;
  discount?: number;
  serverType?: string;
  categoryId?: number;
  isOneTime?: boolean;
  isAvailable?: boolean;
  startTime?: number | null;
  endTime?: number | null;
  maxQuantity?: number | null;
  soldQuantity?: number;
  /** [days, own price in kopecks or null] */
  durations?: [number, number | null][];
  /** Sold «до вайпа» at this price in kopecks (decision 130). */
  untilWipePrice?: number | null;
  contents?: { item: string; img: string }[];
  /**
   * Leave its server type without a game server (decision 122: such items aren't sold). By default
   * a server of the type is added when there is none, as a shop that sells the type has one.
   */
  withoutServer?: boolean;
}

/** A game server of `serverType` unless one exists (no key: it never polls), so its items are sold. */
export function ensureServerStatement(serverType: string) {
  return raw(
    `INSERT INTO servers (name, server_type, ip_port, sort_order)
     SELECT ?1, ?2, ?3, 1000 WHERE NOT EXISTS (SELECT 1 FROM servers WHERE server_type = ?2)`,
    `Тестовый сервер ${serverType}`,
    serverType,
    `${uniqueIp()}:${20_000 + Math.floor(Math.random() * 9_999)}`,
  );
}

export async function createItem(options: ItemOptions = {}): Promise<number> {
  const id = uniqueId();
  const categoryId = options.categoryId ?? (await createCategory());
  const serverType = options.serverType ?? "SOLO";
  const statements = [
    ...(options.withoutServer ? [] : [ensureServerStatement(serverType)]),
    raw(
      `INSERT INTO items (id, name, description, price, discount, img, server_type, category_id, is_one_time, is_available,
        reload_time, start_time, end_time, max_quantity, sold_quantity, until_wipe_price)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)`,
      id,
      options.name ?? `Товар ${id}`,
      options.description ?? "Описание",
      options.price ?? 10_000,
      options.discount ?? 0,
      "/images/shop/vip.svg",
      serverType,
      categoryId,
      options.isOneTime ? 1 : 0,
      options.isAvailable === false ? 0 : 1,
      options.startTime ?? null,
      options.endTime ?? null,
      options.maxQuantity ?? null,
      options.soldQuantity ?? 0,
      options.untilWipePrice ?? null,
    ),
    ...(options.durations ?? []).map(([days, price]) =>
      raw("INSERT INTO item_durations (item_id, days, price) VALUES (?, ?, ?)", id, days, price),
    ),
    ...(options.contents ?? []).map((content, index) =>
      raw(
        "INSERT INTO item_contents (item_id, item, img, sort_order) VALUES (?, ?, ?, ?)",
        id,
        content.item,
        content.img,
        index,
      ),
    ),
  ];
  await runBatch(statements);
  return id;
}

export function buy(
  token: string | null,
  itemId: number | string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return fetchApi(`/purchase/items/${itemId}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? bearer(token) : {}),
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export async function fetchApi(path: string, init?: RequestInit): Promise<Response> {
  const { SELF } = await import("cloudflare:test");
  return SELF.fetch(`http://localhost/api${path}`, init);
}
