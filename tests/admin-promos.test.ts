import { describe, expect, it } from "vitest";
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
import { unique, uniqueIp } from "#tests/support/unique.ts";
import { action, loader } from "../app/routes/admin.promos.tsx";

const deps = testDeps();

const post = (token: string, form: Record<string, string>) =>
  action(consoleArgs(deps, "/admin/promos", { token, form })).then(actionResult);

const redeem = (token: string, code: string) => api("/promos/validate", { token, ip: uniqueIp(), body: { code } });

describe("Промокоды", () => {
  it("an admin creates a BALANCE code; players redeem it; the list shows uses and who; disabling ends it", async () => {
    const admin = await createOperator(deps, "admin");
    const code = unique("A").toUpperCase().slice(0, 20);
    const created = await post(admin.token, {
      intent: "create",
      code: ` ${code.toLowerCase()} `,
      type: "BALANCE",
      value: "75,50",
      maxUses: "5",
    });
    expect(created).toEqual({ status: 302, data: { location: "/admin/promos?done=created" } });

    const player = await createPlayer({ deps: deps, nickname: "Счастливчик" });
    const redeemed = await redeem(player.token, code);
    expect(redeemed.status).toBe(200);
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 7_550, ledger: 7_550 });

    const list = await loader(consoleArgs(deps, "/admin/promos", { token: admin.token }));
    const row = list.promos.find((promo) => promo.code === code);
    expect(row).toMatchObject({ type: "BALANCE", value: 7_550, usedCount: 1, maxUses: 5 });
    const who = await loader(consoleArgs(deps, `/admin/promos?used=${row?.id}`, { token: admin.token }));
    expect(who.redeemers?.map((redeemer) => redeemer.nickname)).toEqual(["Счастливчик"]);

    expect(await post(admin.token, { intent: "disable", promoId: String(row?.id) })).toEqual({
      status: 302,
      data: { location: "/admin/promos?done=disabled" },
    });
    const late = await createPlayer({ deps: deps });
    expect(await redeem(late.token, code)).toMatchObject({
      status: 410,
      json: { error: "Срок действия промокода истёк" },
    });
    const audit = await auditRowsFor(deps, "promo", row?.id ?? 0);
    expect(audit.map((entry) => entry.action)).toEqual(["promo.create", "promo.disable"]);
  });

  it("creates an ITEM code for a server type and a duration; the player gets the item in the Корзина", async () => {
    const admin = await createOperator(deps, "admin");
    const item = await createItem(deps, { name: "VIP из промокода", serverType: "MAX3" });
    const code = unique("I").toUpperCase().slice(0, 20);
    const created = await post(admin.token, {
      intent: "create",
      code,
      type: "ITEM",
      itemId: String(item.id),
      serverType: "MAX3",
      days: "7",
      maxUses: "1",
    });
    expect(created.status).toBe(302);
    const player = await createPlayer({ deps: deps });
    expect(await redeem(player.token, code)).toMatchObject({ status: 200 });
    const inventory = await api("/inventory", { token: player.token });
    expect(inventory.json.items).toMatchObject([{ item_name: "VIP из промокода", server_type: "MAX3", duration: 7 }]);
  });

  it("checks the form in Russian, refuses a duplicate code, and is the admin's to create", async () => {
    const admin = await createOperator(deps, "admin");
    const code = unique("D").toUpperCase().slice(0, 20);
    const cases: [Record<string, string>, string][] = [
      [{ code: "a", type: "BALANCE", value: "10", maxUses: "1" }, "Код: 3–32 символа A–Z, 0–9, _ или -"],
      [{ code, type: "BALANCE", value: "0", maxUses: "1" }, "Сумма — рубли больше 0, например 100 или 49,90"],
      [{ code, type: "ITEM", maxUses: "1" }, "Для промокода на товар укажите номер товара"],
      [{ code, type: "BALANCE", value: "10", maxUses: "0" }, "Лимит использований — целое число от 1"],
      [{ code, type: "ITEM", itemId: "999999999", maxUses: "1" }, "Товар не найден"],
      [
        { code, type: "BALANCE", value: "10", maxUses: "1", endsAt: "2020-01-01T00:00" },
        "Дата окончания в формате ГГГГ-ММ-ДДTЧЧ:ММ, позже текущего момента",
      ],
    ];
    for (const [fields, error] of cases) {
      expect(await post(admin.token, { intent: "create", ...fields })).toEqual({
        status: 400,
        data: { ok: false, error },
      });
    }
    expect(
      (await post(admin.token, { intent: "create", code, type: "BALANCE", value: "10", maxUses: "1" })).status,
    ).toBe(302);
    expect(await post(admin.token, { intent: "create", code, type: "BALANCE", value: "10", maxUses: "1" })).toEqual({
      status: 409,
      data: { ok: false, error: "Такой промокод уже есть" },
    });

    const support = await createOperator(deps, "support");
    const page = await loader(consoleArgs(deps, "/admin/promos", { token: support.token }));
    expect(page.canEdit).toBe(false);
    const refused = action(
      consoleArgs(deps, "/admin/promos", {
        token: support.token,
        form: { intent: "create", code: `${code}X`, type: "BALANCE", value: "10", maxUses: "1" },
      }),
    );
    expect((await thrownStatus(refused)).status).toBe(403);
  });
});
