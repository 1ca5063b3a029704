// Rows the game-delivery tests need. Each test uses its own server type (a free-text column),
// so polls never see another test's deliveries in the shared D1.
import { createExecutionContext, env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { categories, deliveries, inventoryEntries, itemCommands, itemDurations, items, servers } from "#db/schema.ts";
import { createWorkerApp } from "#worker/cloudflare/worker-app.ts";
import type { Deps } from "#worker/deps.ts";
import { deriveServerKey, generateKeySalt, hashServerKey } from "#worker/services/game/keys.ts";
import type { Transport } from "./plugin-simulator.ts";
import { unique, uniqueIp } from "./unique.ts";

export function uniqueServerType(): string {
  return `TEST_${unique().toUpperCase()}`;
}

/**
 * A server with a derived plugin key (decision 103): the row holds only `key_salt`; the key is
 * deriveServerKey(GAME_KEY_SECRET of the test settings, id, salt), as the console would print it.
 */
export async function createGameServer(deps: Deps, { serverType = uniqueServerType(), name = "Тестовый сервер" } = {}) {
  const salt = generateKeySalt();
  const [row] = await deps.db.orm
    .insert(servers)
    .values({
      name,
      serverType,
      ipPort: `${uniqueIp()}:${20000 + Math.floor(Math.random() * 9999)}`,
      keySalt: salt,
      keyRotatedAt: deps.now().getTime(),
    })
    .returning();
  if (!row) throw new Error("no server");
  return { ...row, key: await deriveServerKey(deps.config.gameKeySecret, row.id, salt) };
}

/** A server from before decision 103: a random key whose SHA-256 is stored (it works until rotated). */
export async function createLegacyGameServer(deps: Deps, { serverType = uniqueServerType() } = {}) {
  const key = `legacy-key-${unique()}`;
  const [row] = await deps.db.orm
    .insert(servers)
    .values({
      name: "Старый сервер",
      serverType,
      ipPort: `${uniqueIp()}:${20000 + Math.floor(Math.random() * 9999)}`,
      keyHash: await hashServerKey(key),
      keyRotatedAt: deps.now().getTime(),
    })
    .returning();
  if (!row) throw new Error("no server");
  return { ...row, key };
}

export async function createDeliverableItem(
  deps: Deps,
  {
    serverType,
    grant = ["oxide.usergroup add {steamid} vip"],
    revoke = [] as string[],
    requiresOnline = true,
    durations = [] as number[],
    name = "VIP",
  }: {
    serverType: string;
    grant?: string[];
    revoke?: string[];
    requiresOnline?: boolean;
    durations?: number[];
    name?: string;
  },
) {
  const [category] = await deps.db.orm
    .insert(categories)
    .values({ name: `Привилегии ${unique()}` })
    .returning();
  if (!category) throw new Error("no category");
  const [item] = await deps.db.orm
    .insert(items)
    .values({
      name,
      price: 10000,
      img: "/images/items/vip.png",
      serverType,
      categoryId: category.id,
      isOneTime: durations.length === 0,
      requiresOnline,
    })
    .returning();
  if (!item) throw new Error("no item");
  const commands = [
    ...grant.map((template, index) => ({ itemId: item.id, phase: "grant" as const, template, sortOrder: index })),
    ...revoke.map((template, index) => ({ itemId: item.id, phase: "revoke" as const, template, sortOrder: index })),
  ];
  if (commands.length > 0) await deps.db.orm.insert(itemCommands).values(commands);
  if (durations.length > 0)
    await deps.db.orm.insert(itemDurations).values(durations.map((days) => ({ itemId: item.id, days })));
  return item;
}

export async function createEntry(
  deps: Deps,
  {
    userId,
    itemId,
    serverType,
    durationDays = null,
  }: { userId: number; itemId: number; serverType: string; durationDays?: number | null },
) {
  const [row] = await deps.db.orm
    .insert(inventoryEntries)
    .values({
      userId,
      itemId,
      serverType,
      durationDays,
      isPermanent: durationDays === null,
      status: "not_used",
      createdAt: deps.now().getTime(),
    })
    .returning();
  if (!row) throw new Error("no entry");
  return row;
}

/** The real Hono app with a movable clock, called in-process like SELF but with our `now`. */
export function clockedTransport(now: () => Date): Transport {
  const app = createWorkerApp({
    pageHandler: async () => new Response("not used", { status: 501 }),
    overrides: () => ({ now }),
  });
  return async (request) => app.fetch(request, env, createExecutionContext());
}

/** A delivery as a backup from before its first lease holds it: pending, never leased, nothing run. */
export async function rewindDelivery(deps: Deps, deliveryId: string) {
  await deps.db.orm
    .update(deliveries)
    .set({
      status: "pending",
      leaseUntil: null,
      leasedServerId: null,
      doneAt: null,
      doneServerId: null,
      commands: null,
      progress: null,
      leaseSeq: 0,
      homeServerId: null,
    })
    .where(eq(deliveries.id, deliveryId));
}
