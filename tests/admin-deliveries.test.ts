import { eq } from "drizzle-orm";
import { type ComponentType, createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { deliveries, inventoryEntries } from "#db/schema.ts";
import { actionResult, auditRowsFor, consoleArgs, createOperator } from "#tests/support/admin-fixtures.ts";
import { testClock, testDeps } from "#tests/support/deps.ts";
import {
  clockedTransport,
  createDeliverableItem,
  createEntry,
  createGameServer,
  uniqueServerType,
} from "#tests/support/game-fixtures.ts";
import { createPlayer } from "#tests/support/players.ts";
import { PluginSimulator } from "#tests/support/plugin-simulator.ts";
import { LEASE_MS } from "#worker/services/game/deliveries.ts";
import { ALIVE_AFTER_HEARTBEAT_MS } from "#worker/services/game/liveness.ts";
import AdminDeliveries, { action, loader } from "../app/routes/admin.deliveries.tsx";

const HOUR = 3_600_000;

async function world() {
  const clock = testClock();
  const deps = testDeps({ now: clock.now });
  const serverType = uniqueServerType();
  const server = await createGameServer(deps, { serverType });
  const player = await createPlayer({ deps: deps, nickname: "Рейдер" });
  const item = await createDeliverableItem(deps, { serverType, grant: ["oxide.usergroup add {steamid} vip"] });
  const entry = await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
  const sim = new PluginSimulator({
    transport: clockedTransport(clock.now),
    serverId: server.id,
    serverKey: server.key,
    now: clock.now,
  });
  const support = await createOperator(deps, "support");
  const post = (form: Record<string, string>) =>
    action(consoleArgs(deps, "/admin/deliveries", { token: support.token, form })).then(actionResult);
  const delivery = async () => {
    const [row] = await deps.db.orm.select().from(deliveries).where(eq(deliveries.inventoryEntryId, entry.id));
    if (!row) throw new Error("no delivery");
    return row;
  };
  return { clock, deps, serverType, player, entry, sim, support, post, delivery };
}

describe("Доставки", () => {
  it("lists a failed delivery with the plugin's error; a retry is delivered once, and a done one can't be retried", async () => {
    const { clock, deps, serverType, player, entry, sim, support, post, delivery } = await world();
    sim.console.failWith = () => "Группа vip не найдена";
    for (let attempt = 0; attempt < 5; attempt++) {
      await sim.tick([player.steamId]);
      clock.advance(2 * HOUR);
    }
    const failed = await delivery();
    expect(failed).toMatchObject({ status: "failed", attempts: 5, lastError: "Группа vip не найдена" });

    const page = await loader(consoleArgs(deps, `/admin/deliveries?type=${serverType}`, { token: support.token }));
    expect(page.rows.filter((row) => row.id === failed.id)).toMatchObject([
      { status: "failed", nickname: "Рейдер", lastError: "Группа vip не найдена" },
    ]);

    sim.console.failWith = null;
    // Two operators press «Повторить» together: the delivery keeps its id, so it runs once.
    const retries = await Promise.all([
      post({ intent: "retry", deliveryId: failed.id }),
      post({ intent: "retry", deliveryId: failed.id }),
    ]);
    expect(retries.map((result) => result.status)).toContain(302);
    expect(await delivery()).toMatchObject({ status: "pending", attempts: 0, lastError: null });

    await sim.tick([player.steamId]);
    await sim.tick([player.steamId]);
    expect(sim.console.commandsFor(failed.id)).toEqual([`oxide.usergroup add ${player.steamId} vip`]);
    expect(await delivery()).toMatchObject({ status: "done" });
    const [used] = await deps.db.orm.select().from(inventoryEntries).where(eq(inventoryEntries.id, entry.id));
    expect(used).toMatchObject({ status: "used", lastError: null });

    expect(await post({ intent: "retry", deliveryId: failed.id })).toEqual({
      status: 409,
      data: { ok: false, error: "Повторить можно только доставку с ошибкой или зависшую" },
    });
    const audit = await auditRowsFor(deps, "delivery", failed.id);
    expect(audit.length).toBeGreaterThanOrEqual(1);
    expect(audit.every((row) => row.action === "delivery.retry" && row.operator_role === "support")).toBe(true);
  });

  it("cancels a delivery with a reason unless a plugin holds it right now", async () => {
    const { deps, player, sim, post, delivery } = await world();
    // Leased to the plugin (polled, not acknowledged): can't be cancelled under it.
    await sim.poll([player.steamId]);
    const leased = await delivery();
    const refused = await post({ intent: "cancel", deliveryId: leased.id, reason: "Игрок попросил" });
    expect(refused).toEqual({
      status: 409,
      data: { ok: false, error: "Отменить можно только не выполненную доставку, которую сейчас не выполняет сервер" },
    });
    await deps.db.orm.update(deliveries).set({ leaseUntil: null }).where(eq(deliveries.id, leased.id));
    expect((await post({ intent: "cancel", deliveryId: leased.id, reason: "Игрок попросил" })).status).toBe(302);
    expect(await delivery()).toMatchObject({ status: "cancelled", lastError: "Отменено: Игрок попросил" });
    expect((await sim.poll([player.steamId])).deliveries).toEqual([]);
    const missingReason = await post({ intent: "cancel", deliveryId: leased.id, reason: "" });
    expect(missingReason).toEqual({ status: 400, data: { ok: false, error: "Укажите причину" } });
  });

  it("lists an interrupted delivery, and one acknowledged after its hand-off as «возможна повторная выдача»", async () => {
    const { clock, deps, serverType, player, sim, support, post, delivery } = await world();
    // The plugin crashed mid-delivery: after its restart the site hears "interrupted".
    await sim.tick([player.steamId], { crashMidDelivery: true });
    const restarted = sim.restart();
    clock.advance(1000);
    expect(await restarted.flushAcks()).toBe(200);
    const interrupted = await delivery();
    expect(interrupted).toMatchObject({ status: "failed", lastError: "Доставка прервана, проверьте вручную" });
    const listed = await loader(consoleArgs(deps, `/admin/deliveries?type=${serverType}`, { token: support.token }));
    expect(listed.rows.map((row) => [row.id, row.lastError])).toEqual([
      [interrupted.id, "Доставка прервана, проверьте вручную"],
    ]);

    // The operator checked the game and retries; the server runs it and goes silent before its ack.
    // Nobody else gets it (the silent server may have run it): the page says why it waits, and what
    // «Повторить» would do now.
    expect((await post({ intent: "retry", deliveryId: interrupted.id })).status).toBe(302);
    await restarted.tick([player.steamId], { crashBeforeAck: true });
    const twinServer = await createGameServer(deps, { serverType });
    const twin = new PluginSimulator({
      transport: clockedTransport(clock.now),
      serverId: twinServer.id,
      serverKey: twinServer.key,
      now: clock.now,
    });
    clock.advance(LEASE_MS + ALIVE_AFTER_HEARTBEAT_MS);
    expect(await twin.tick([player.steamId])).toEqual([]);
    const stuck = await loader(
      consoleArgs(deps, `/admin/deliveries?type=${serverType}&status=pending`, { token: support.token }),
    );
    const [waiting] = stuck.rows;
    expect(waiting?.waitReason).toMatch(
      new RegExp(`^Сервер №${sim.serverId} взял доставку и не отвечает с .*: он мог её выполнить`),
    );
    expect(waiting?.retryPlan).toBe(
      `Повторить выполнит: 1. oxide.usergroup add ${player.steamId} vip — на любом сервере типа ${serverType} (сервер №${sim.serverId} не отвечает с —).`,
    );

    // The operator decides: the twin delivers it.
    expect((await post({ intent: "retry", deliveryId: interrupted.id })).status).toBe(302);
    clock.advance(1000); // a new poll, not a replay of the last one
    expect((await twin.tick([player.steamId])).map((served) => served.delivery_id)).toEqual([interrupted.id]);
    expect(await delivery()).toMatchObject({ status: "done", doneServerId: twinServer.id });

    // The first server comes back and acknowledges what it ran: refused, and marked for the operator.
    const back = restarted.restart();
    clock.advance(1000);
    expect(await back.flushAcks()).toBe(403);
    expect(await delivery()).toMatchObject({ ackRefusedAt: clock.now().getTime(), ackRefusedServerId: sim.serverId });
    const page = await loader(consoleArgs(deps, `/admin/deliveries?type=${serverType}`, { token: support.token }));
    expect(page.rows.map((row) => [row.id, row.status])).toEqual([[interrupted.id, "done"]]);
    const text = renderPage(page);
    expect(text).toContain(`возможна повторная выдача: сервер №${sim.serverId}`);
  });
});

/** The deliveries page as it prints, reduced to its visible text. */
function renderPage(loaderData: Awaited<ReturnType<typeof loader>>): string {
  const element = createElement(AdminDeliveries as unknown as ComponentType<Record<string, unknown>>, {
    loaderData,
    actionData: undefined,
    params: {},
    matches: [],
  });
  const router = createMemoryRouter([{ path: "/admin/deliveries", element }], {
    initialEntries: ["/admin/deliveries"],
  });
  return renderToStaticMarkup(createElement(RouterProvider, { router }))
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}
