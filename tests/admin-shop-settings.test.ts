import { afterEach, describe, expect, it } from "vitest";
import { auditRowsFor, consoleArgs, createOperator, thrownStatus } from "#tests/support/admin-fixtures.ts";
import { testDeps } from "#tests/support/deps.ts";
import { action, loader } from "../app/routes/admin.settings.tsx";
import { createPlayer } from "./support/players.ts";
import { buy, createItem } from "./support/shop-fixtures.ts";
import { firstRow, raw, runBatch } from "./support/sql.ts";

// «Настройки магазина»: the return window (decision 111), admin only and journaled.

const deps = testDeps();
const HOUR = 60 * 60 * 1000;

afterEach(async () => {
  await runBatch([raw("UPDATE shop_settings SET return_window_hours = 24 WHERE id = 1")]);
});

describe("the return window in the console", () => {
  it("an admin sets it; purchases after that get the new window, and the journal says who changed what", async () => {
    const admin = await createOperator(deps, "admin");
    expect(await loader(consoleArgs(deps, "/admin/settings", { token: admin.token }))).toEqual({
      returnWindowHours: 24,
    });
    const saved = await action(
      consoleArgs(deps, "/admin/settings", { token: admin.token, form: { returnWindowHours: "48" } }),
    );
    expect(saved).toMatchObject({ data: { ok: true, message: "Настройки сохранены" } });
    expect(await loader(consoleArgs(deps, "/admin/settings", { token: admin.token }))).toEqual({
      returnWindowHours: 48,
    });
    const journal = await auditRowsFor(deps, "settings", "shop");
    expect(journal.at(-1)).toMatchObject({
      action: "settings.returns",
      operator_steam_id: admin.steamId,
      before: JSON.stringify({ returnWindowHours: 24 }),
      after: JSON.stringify({ returnWindowHours: 48 }),
    });

    const player = await createPlayer({ balance: 10_000 });
    const itemId = await createItem({ price: 1_000 });
    const { purchase } = (await (await buy(player.token, itemId, { server_type: "SOLO" })).json()) as {
      purchase: { id: number };
    };
    const entry = await firstRow<{ return_until: number }>(
      "SELECT return_until FROM inventory_entries WHERE purchase_id = ?",
      purchase.id,
    );
    expect((entry?.return_until ?? 0) - Date.now()).toBeGreaterThan(47 * HOUR);
  });

  it("refuses a window that isn't 0 to 720 whole hours, and support altogether", async () => {
    const admin = await createOperator(deps, "admin");
    for (const value of ["-1", "721", "1.5", "сутки", ""]) {
      const answer = await action(
        consoleArgs(deps, "/admin/settings", { token: admin.token, form: { returnWindowHours: value } }),
      );
      expect(answer).toMatchObject({
        data: { ok: false, error: "Укажите целое число часов от 0 до 720" },
        init: { status: 400 },
      });
    }
    const support = await createOperator(deps, "support");
    expect(await thrownStatus(loader(consoleArgs(deps, "/admin/settings", { token: support.token })))).toEqual({
      status: 403,
      data: "Доступ запрещен",
    });
    expect(
      (
        await thrownStatus(
          action(consoleArgs(deps, "/admin/settings", { token: support.token, form: { returnWindowHours: "0" } })),
        )
      ).status,
    ).toBe(403);
    expect(await loader(consoleArgs(deps, "/admin/settings", { token: admin.token }))).toEqual({
      returnWindowHours: 24,
    });
  });
});
