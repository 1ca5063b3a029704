// The seed's catalog promises only what its console commands deliver (issue 20): kits with a cooldown
// are Kits-plugin permissions taken with /kit, one-off items are given once with real Rust shortnames.
import { describe, expect, it } from "vitest";
import { catalogSeedSql, seedItemId } from "../db/seed/catalog.ts";

const statements = catalogSeedSql(Date.UTC(2026, 10, 25));
/** An item's command rows: `VALUES (<row id>, <item id>, '<phase>', …`. */
const commandsOf = (id: number) =>
  statements.filter((sql) => sql.startsWith("INSERT INTO item_commands") && sql.includes(`, ${id}, '`));
const itemRow = (id: number) =>
  statements.find((sql) => sql.startsWith(`INSERT INTO items`) && sql.includes(`VALUES (${id}, `)) ?? "";

describe("the seed's kits and one-off items", () => {
  it("grants a kit with a cooldown as the Kits plugin's permission, revoked when a term ends, and says /kit", () => {
    for (const [n, kit] of [
      [3, "start"],
      [4, "raider"],
    ] as const) {
      const id = seedItemId("MAX2", n);
      const commands = commandsOf(id).join("\n");
      expect(commands).toContain(`'grant', 'oxide.grant user {steamid} kits.${kit}'`);
      expect(commands).toContain(`'revoke', 'oxide.revoke user {steamid} kits.${kit}'`);
      expect(commands).not.toContain("inventory.giveto");
      // The player's words: the command, not the server's plugin (issue 36).
      expect(itemRow(id)).toContain(`командой /kit ${kit} раз в`);
      expect(itemRow(id)).not.toContain("плагин");
    }
  });

  it("gives one-off items once, with Rust shortnames, and says so", () => {
    for (const n of [5, 6, 7, 8, 9, 10]) {
      const id = seedItemId("SOLO", n);
      const commands = commandsOf(id);
      expect(commands.length, String(id)).toBeGreaterThan(0);
      for (const command of commands)
        expect(command).toMatch(/'grant', 'inventory\.giveto \{steamid\} [a-z0-9.]+ \d+'/);
      expect(itemRow(id)).toContain("Выдаётся один раз");
    }
  });
});
