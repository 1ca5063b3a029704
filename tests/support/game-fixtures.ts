// Rows the game-delivery tests need. Each test uses its own server type (a free-text column),
// so polls never see another test's deliveries in the shared D1.
import { createExecutionContext, env } from "cloudflare:test";
import { categories, inventoryEntries, itemCommands, itemDurations, items, servers } from "#db/schema.ts";
import { createWorkerApp } from "#worker/cloudflare/worker-app.ts";
import type { Deps } from "#worker/deps.ts";
import type { Transport } from "./plugin-simulator.ts";
import { unique, uniqueIp } from "./unique.ts";

export function uniqueServerType(): string {
  return `TEST_${unique().toUpperCase()}`;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export async function createGameServer(deps: Deps, { serverType = uniqueServerType(), name = "Тестовый сервер" } = {}) {
  const key = `test-key-${unique()}`;
  const [row] = await deps.db.orm
    .insert(servers)
    .values({
      name,
      serverType,
      ipPort: `${uniqueIp()}:${20000 + Math.floor(Math.random() * 9999)}`,
      keyHash: await sha256Hex(key),
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
