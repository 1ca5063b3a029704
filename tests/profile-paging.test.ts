// A player's own pages a page at a time (issue 48, decision 150): the Корзина shows what waits and what
// runs first, then the rest newest first, 20 at a time from «Показать ещё» (a plain `?before=` link);
// /purchases likewise. Across the pages every row is shown once, ties of time included; a cursor is
// only a position, so another player's shows nothing of theirs; a cursor that doesn't parse is ignored.
import { describe, expect, it } from "vitest";
import { SHOW_MORE_TEXT } from "#core/messages/history.ts";
import { PROFILE_PAGE_SIZE } from "#core/profile/page-cursor.ts";
import { inventoryEntries, purchases } from "#db/schema.ts";
import { testDeps } from "#tests/support/deps.ts";
import { createPlayer } from "#tests/support/players.ts";
import { createItem } from "#tests/support/profile-fixtures.ts";
import { profilePageArgs } from "#tests/support/profile-page.ts";
import { unique } from "#tests/support/unique.ts";
import { loader as inventoryLoader } from "../app/routes/profile.inventory.tsx";
import { loader as purchasesLoader } from "../app/routes/profile.purchases.tsx";

const deps = testDeps();
const DAY = 86_400_000;

interface Page {
  items?: { id: number; status: string }[];
  purchases?: { id: number }[];
  more: string | null;
}

const load = async (path: string, token: string): Promise<Page> => {
  const args = await profilePageArgs(deps, `http://localhost${path}`, { token });
  return path.startsWith("/profile") ? inventoryLoader(args) : purchasesLoader(args);
};

const idsOf = (page: Page) => (page.items ?? page.purchases ?? []).map((row) => row.id);

/** Every page from `path` on, following «Показать ещё». */
async function allPages(path: string, token: string): Promise<Page[]> {
  const pages = [await load(path, token)];
  for (let more = pages[0]?.more; more; more = pages[pages.length - 1]?.more) {
    pages.push(await load(more, token));
    if (pages.length > 10) throw new Error("pages kept coming");
  }
  return pages;
}

/**
 * A player whose Корзина has 3 waiting entries, 2 running ranks and 40 entries done with (kits
 * delivered for good, ranks ended), the older ones 10 to a millisecond, so pages break inside a tie.
 */
async function playerWithHistory() {
  const player = await createPlayer({ deps });
  const item = await createItem(deps, { name: unique("Набор ") });
  const now = Date.now();
  const done = Array.from({ length: 40 }, (_, index) => ({
    userId: player.id,
    itemId: item.id,
    serverType: "SOLO",
    isPermanent: index % 4 !== 0,
    durationDays: index % 4 === 0 ? 30 : null,
    status: "used" as const,
    usedAt: now - 40 * DAY,
    expiresAt: index % 4 === 0 ? now - DAY : null,
    createdAt: now - 50 * DAY + Math.floor(index / 10),
  }));
  const running = [1, 2].map((days) => ({
    userId: player.id,
    itemId: item.id,
    serverType: "SOLO",
    isPermanent: false,
    durationDays: 30,
    status: "used" as const,
    usedAt: now - 60 * DAY,
    expiresAt: now + days * DAY,
    createdAt: now - 60 * DAY - days,
  }));
  const waiting = [1, 2, 3].map((days) => ({
    userId: player.id,
    itemId: item.id,
    serverType: "SOLO",
    isPermanent: true,
    status: "not_used" as const,
    createdAt: now - 70 * DAY - days,
  }));
  const entries = [];
  for (const values of [...done, ...running, ...waiting]) {
    entries.push(
      ...(await deps.db.orm.insert(inventoryEntries).values(values).returning({
        id: inventoryEntries.id,
        status: inventoryEntries.status,
        expiresAt: inventoryEntries.expiresAt,
      })),
    );
  }
  return { player, item, entries, now };
}

describe("the Корзина a page at a time", () => {
  it("shows what waits, then what runs, then the rest newest first, each entry once across the pages", async () => {
    const { player, entries, now } = await playerWithHistory();
    const pages = await allPages("/profile", player.token);

    expect(pages.map((page) => page.items?.length)).toEqual([5 + PROFILE_PAGE_SIZE, 20]);
    const [first] = pages;
    expect(first?.items?.slice(0, 3).map((entry) => entry.status)).toEqual(["not_used", "not_used", "not_used"]);
    const running = entries.filter((entry) => (entry.expiresAt ?? 0) > now).map((entry) => entry.id);
    expect(first?.items?.slice(3, 5).map((entry) => entry.id)).toEqual(running);
    expect(first?.more).toMatch(/^\/profile\?before=\d+-\d+$/);
    expect(pages[1]?.more).toBeNull();

    const shown = pages.flatMap(idsOf);
    expect(new Set(shown).size).toBe(shown.length);
    expect(shown.sort((a, b) => a - b)).toEqual(entries.map((entry) => entry.id).sort((a, b) => a - b));
  });

  it("keeps the filter on the next page: «Выданные» runs first, then the rest of the delivered", async () => {
    const { player, entries } = await playerWithHistory();
    const pages = await allPages("/profile?status=used", player.token);
    expect(pages[0]?.more).toMatch(/^\/profile\?status=used&before=\d+-\d+$/);
    const shown = pages.flatMap(idsOf);
    expect(new Set(shown).size).toBe(shown.length);
    expect(shown.sort((a, b) => a - b)).toEqual(
      entries
        .filter((entry) => entry.status === "used")
        .map((entry) => entry.id)
        .sort((a, b) => a - b),
    );
    // «Ждут выдачи» is all on one page.
    const waiting = await load("/profile?status=not_used", player.token);
    expect(waiting.items?.length).toBe(3);
    expect(waiting.more).toBeNull();
  });

  it("shows another player's cursor only one's own entries, and ignores a cursor that doesn't parse", async () => {
    const { player } = await playerWithHistory();
    const first = await load("/profile", player.token);
    const stranger = await createPlayer({ deps });
    const theirs = await load(first.more ?? "", stranger.token);
    expect(theirs.items).toEqual([]);

    for (const bad of ["abc", "1-2-3", "99999999999999999999-1", "-1-5", ""]) {
      const page = await load(`/profile?before=${bad}`, player.token);
      expect(idsOf(page)).toEqual(idsOf(first));
    }
  });

  it("has no «Показать ещё» when everything fits on the page", async () => {
    const player = await createPlayer({ deps });
    const item = await createItem(deps);
    await deps.db.orm.insert(inventoryEntries).values({
      userId: player.id,
      itemId: item.id,
      serverType: "SOLO",
      isPermanent: true,
      status: "used",
    });
    const page = await load("/profile", player.token);
    expect(page.items?.length).toBe(1);
    expect(page.more).toBeNull();
    expect(SHOW_MORE_TEXT).toBe("Показать ещё");
  });
});

describe("/purchases a page at a time", () => {
  it("lists the player's purchases newest first, 20 to a page, each once, ties of time included", async () => {
    const player = await createPlayer({ deps });
    const item = await createItem(deps);
    const now = Date.now();
    const bought = [];
    for (let index = 0; index < 45; index++) {
      bought.push(
        ...(await deps.db.orm
          .insert(purchases)
          .values({
            userId: player.id,
            itemId: item.id,
            transactionId: unique("tx-"),
            idempotencyKey: unique("key-"),
            serverType: "SOLO",
            price: 15000,
            status: "completed",
            createdAt: now - DAY + Math.floor(index / 10),
          })
          .returning({ id: purchases.id })),
      );
    }

    for (const path of ["/purchases", "/history"]) {
      const pages = await allPages(path, player.token);
      expect(pages.map((page) => page.purchases?.length)).toEqual([20, 20, 5]);
      expect(pages[0]?.more).toMatch(new RegExp(`^${path}\\?before=\\d+-\\d+$`));
      const shown = pages.flatMap(idsOf);
      expect(new Set(shown).size).toBe(45);
      expect(shown.sort((a, b) => a - b)).toEqual(bought.map((row) => row.id).sort((a, b) => a - b));
    }

    const stranger = await createPlayer({ deps });
    const first = await load("/purchases", player.token);
    expect((await load(first.more ?? "", stranger.token)).purchases).toEqual([]);
    expect(idsOf(await load("/purchases?before=not-a-cursor", player.token))).toEqual(idsOf(first));
  });
});
