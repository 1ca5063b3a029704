import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ledger, users } from "#db/schema.ts";
import {
  actionResult,
  auditRowsFor,
  consoleArgs,
  createOperator,
  thrownStatus,
} from "#tests/support/admin-fixtures.ts";
import { testDeps } from "#tests/support/deps.ts";
import { balanceAndLedger } from "#tests/support/money.ts";
import { createPlayer } from "#tests/support/players.ts";
import { api, createItem } from "#tests/support/profile-fixtures.ts";
import { loader as auditLoader } from "../app/routes/admin.audit.tsx";
import { action as playerAction, loader as playerLoader } from "../app/routes/admin.player.tsx";
import { loader as playersLoader } from "../app/routes/admin.players.tsx";

const deps = testDeps();

function post(token: string, steamId: string, form: Record<string, string>) {
  return playerAction(consoleArgs(deps, `/admin/players/${steamId}`, { token, params: { steamId }, form }));
}

describe("Игроки", () => {
  it("finds a player by SteamID64 and by a part of the nickname", async () => {
    const admin = await createOperator(deps, "support");
    const player = await createPlayer({ deps: deps, nickname: "Уникальный_Лис" });
    const bySteam = await playersLoader(
      consoleArgs(deps, `/admin/players?q=${player.steamId}`, { token: admin.token }),
    );
    expect(bySteam.players.map((row) => row.steamId)).toEqual([player.steamId]);
    const byName = await playersLoader(consoleArgs(deps, "/admin/players?q=кальный_Ли", { token: admin.token }));
    expect(byName.players.map((row) => row.nickname)).toEqual(["Уникальный_Лис"]);
    // LIKE wildcards are literal: "%" finds nobody named with a percent sign.
    const wildcard = await playersLoader(consoleArgs(deps, "/admin/players?q=%25%25%25", { token: admin.token }));
    expect(wildcard.players).toEqual([]);
  });

  it("shows an unknown SteamID's page as 404", async () => {
    const admin = await createOperator(deps, "admin");
    const args = consoleArgs(deps, "/admin/players/76561199999999998", {
      token: admin.token,
      params: { steamId: "76561199999999998" },
    });
    expect((await thrownStatus(playerLoader(args))).status).toBe(404);
  });

  it("shows the ledger with every movement's reason, the purchases and the Корзина", async () => {
    const admin = await createOperator(deps, "admin");
    const player = await createPlayer({ deps: deps, balance: 50_000 });
    const item = await createItem(deps, { name: "Кит «Рейд»" });
    const bought = await api(`/purchase/items/${item.id}`, {
      token: player.token,
      body: { server_type: "SOLO" },
    });
    expect(bought.status).toBe(201);
    const page = await playerLoader(
      consoleArgs(deps, `/admin/players/${player.steamId}`, {
        token: admin.token,
        params: { steamId: player.steamId },
      }),
    );
    expect(page.user.balance).toBe(35_000);
    expect(page.ledgerSum).toBe(35_000);
    expect(page.ledger.map((row) => [row.kind, row.amount])).toEqual([
      ["purchase", -15_000],
      ["adjustment", 50_000],
    ]);
    expect(page.ledger[0]?.reason).toMatch(/^Покупка №\d+ «Кит «Рейд»»$/);
    expect(page.purchases.map((row) => [row.itemName, row.status])).toEqual([["Кит «Рейд»", "completed"]]);
    expect(page.inventory.map((row) => [row.itemName, row.status])).toEqual([["Кит «Рейд»", "not_used"]]);
  });
});

describe("balance adjustment", () => {
  it("credits or debits with a ledger row of its own kind and a journal row, keeping balance = sum(ledger)", async () => {
    const admin = await createOperator(deps, "admin", "Главный");
    const player = await createPlayer({ deps: deps, balance: 10_000 });
    const credit = actionResult(
      await post(admin.token, player.steamId, { intent: "adjust", amount: "250,50", reason: "Компенсация за вайп" }),
    );
    expect(credit).toEqual({ status: 302, data: { location: `/admin/players/${player.steamId}?done=adjust` } });
    const debit = actionResult(
      await post(admin.token, player.steamId, { intent: "adjust", amount: "-50", reason: "Ошибочное начисление" }),
    );
    expect(debit.status).toBe(302);

    expect(await balanceAndLedger(player.id)).toEqual({ balance: 30_050, ledger: 30_050 });
    const rows = await deps.db.orm.select().from(ledger).where(eq(ledger.userId, player.id)).orderBy(ledger.id);
    expect(rows.slice(1).map((row) => [row.kind, row.amount, row.note])).toEqual([
      ["adjustment", 25_050, "Компенсация за вайп"],
      ["adjustment", -5_000, "Ошибочное начисление"],
    ]);
    const audit = await auditRowsFor(deps, "user", player.id);
    expect(audit).toEqual([
      {
        action: "balance.adjust",
        operator_steam_id: admin.steamId,
        operator_role: "admin",
        before: JSON.stringify({ balance: 10_000 }),
        after: JSON.stringify({ balance: 35_050 }),
        reason: "Компенсация за вайп",
      },
      {
        action: "balance.adjust",
        operator_steam_id: admin.steamId,
        operator_role: "admin",
        before: JSON.stringify({ balance: 35_050 }),
        after: JSON.stringify({ balance: 30_050 }),
        reason: "Ошибочное начисление",
      },
    ]);
    // The journal page shows it, newest first, with who did it.
    const journal = await auditLoader(consoleArgs(deps, "/admin/audit", { token: admin.token }));
    const mine = journal.rows.filter((row) => row.targetId === String(player.id));
    expect(mine.map((row) => [row.actionLabel, row.operatorNickname, row.reason])).toEqual([
      ["Корректировка баланса", "Главный", "Ошибочное начисление"],
      ["Корректировка баланса", "Главный", "Компенсация за вайп"],
    ]);
  });

  it("refuses to take the balance below 0, and then writes neither the change nor the journal row", async () => {
    const admin = await createOperator(deps, "admin");
    const player = await createPlayer({ deps: deps, balance: 10_000 });
    const refused = actionResult(
      await post(admin.token, player.steamId, { intent: "adjust", amount: "-100,01", reason: "Списание" }),
    );
    expect(refused).toEqual({
      status: 409,
      data: { ok: false, error: "Баланс не может стать меньше 0 ₽", form: "adjust" },
    });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 10_000, ledger: 10_000 });
    expect(await auditRowsFor(deps, "user", player.id)).toEqual([]);
  });

  it("requires a reason and a real amount, in Russian", async () => {
    const admin = await createOperator(deps, "admin");
    const player = await createPlayer({ deps: deps });
    const cases = [
      [{ amount: "100", reason: " " }, "Укажите причину"],
      [{ amount: "сто", reason: "Подарок" }, "Введите сумму в рублях, например 150 или -99,50"],
      [{ amount: "0", reason: "Подарок" }, "Сумма не может быть нулевой"],
    ] as const;
    for (const [fields, error] of cases) {
      const result = actionResult(await post(admin.token, player.steamId, { intent: "adjust", ...fields }));
      expect(result).toEqual({ status: 400, data: { ok: false, error, form: "adjust" } });
    }
    expect(await auditRowsFor(deps, "user", player.id)).toEqual([]);
  });
});

describe("blocking purchases", () => {
  it("refuses a blocked player's purchase with a Russian message, and unblocking lets them buy", async () => {
    const support = await createOperator(deps, "support");
    const player = await createPlayer({ deps: deps, balance: 50_000 });
    const item = await createItem(deps);
    const blocked = actionResult(
      await post(support.token, player.steamId, { intent: "block", blocked: "1", reason: "Чарджбэк" }),
    );
    expect(blocked).toEqual({ status: 302, data: { location: `/admin/players/${player.steamId}?done=blocked` } });
    // A second press changes nothing and journals nothing.
    const again = actionResult(
      await post(support.token, player.steamId, { intent: "block", blocked: "1", reason: "Чарджбэк" }),
    );
    expect(again.status).toBe(409);

    const refused = await api(`/purchase/items/${item.id}`, { token: player.token, body: { server_type: "SOLO" } });
    expect(refused).toMatchObject({
      status: 403,
      json: { error: "Покупки для вашего аккаунта заблокированы. Обратитесь в поддержку в Discord" },
    });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 50_000, ledger: 50_000 });

    await post(support.token, player.steamId, { intent: "block", blocked: "0", reason: "Разобрались" });
    const bought = await api(`/purchase/items/${item.id}`, { token: player.token, body: { server_type: "SOLO" } });
    expect(bought.status).toBe(201);
    const audit = await auditRowsFor(deps, "user", player.id);
    expect(audit.map((row) => [row.action, row.before, row.after, row.reason])).toEqual([
      ["player.block", '{"purchases_blocked":false}', '{"purchases_blocked":true}', "Чарджбэк"],
      ["player.unblock", '{"purchases_blocked":true}', '{"purchases_blocked":false}', "Разобрались"],
    ]);
    const [row] = await deps.db.orm
      .select({ blocked: users.purchasesBlocked })
      .from(users)
      .where(eq(users.id, player.id));
    expect(row?.blocked).toBe(false);
  });
});

describe("the journal", () => {
  it("is append-only: the database refuses to rewrite or delete a row", async () => {
    const admin = await createOperator(deps, "admin");
    const player = await createPlayer({ deps: deps, balance: 1_000 });
    await post(admin.token, player.steamId, { intent: "adjust", amount: "1", reason: "Проверка журнала" });
    await expect(deps.db.run({ sql: "UPDATE audit_log SET reason = 'иначе'", params: [] })).rejects.toThrow(
      /append-only/,
    );
    await expect(deps.db.run({ sql: "DELETE FROM audit_log", params: [] })).rejects.toThrow(/append-only/);
    const rows = await auditRowsFor(deps, "user", player.id);
    expect(rows.map((row) => row.reason)).toEqual(["Проверка журнала"]);
    void sql;
  });
});
