// One scenario's world: a server type of its own, a game server registered on the site, the proxy
// between them, and the real plugin running in the harness with its own folder.
import { GameServerProcess, type PluginConfig } from "./harness.ts";
import { createGameServer, SiteProxy, scenarioType, uniqueSteamId } from "./site.ts";

export interface Scenario {
  type: string;
  server: { id: number; key: string };
  proxy: SiteProxy;
  game: GameServerProcess;
  player: string;
  /** Ends the game server and the proxy. */
  end(): Promise<void>;
}

export async function scenario(
  options: {
    type?: string;
    allowedCommands?: string[];
    groups?: string[];
    permissions?: string[];
    /** `false` leaves the game server stopped, to put files in its folder first (then no groups or permissions). */
    start?: boolean;
    doorbell?: PluginConfig["doorbell"];
    pollSeconds?: number;
  } = {},
): Promise<Scenario> {
  const type = options.type ?? scenarioType();
  const server = await createGameServer(type);
  const proxy = new SiteProxy();
  const siteUrl = await proxy.start();
  const game = new GameServerProcess({
    siteUrl,
    serverId: server.id,
    serverKey: server.key,
    ...(options.allowedCommands ? { allowedCommands: options.allowedCommands } : {}),
    ...(options.doorbell ? { doorbell: options.doorbell } : {}),
    ...(options.pollSeconds ? { pollSeconds: options.pollSeconds } : {}),
  });
  if (options.start === false) return world(type, server, proxy, game);
  await game.start();
  for (const group of options.groups ?? []) await game.send(`console oxide.group add ${group}`);
  for (const permission of options.permissions ?? []) await game.send(`permission ${permission}`);
  // The owner set the server up long ago: its groups are in a save.
  if (options.groups?.length || options.permissions?.length) await game.save();
  return world(type, server, proxy, game);
}

function world(type: string, server: Scenario["server"], proxy: SiteProxy, game: GameServerProcess): Scenario {
  return {
    type,
    server,
    proxy,
    game,
    player: uniqueSteamId(),
    async end() {
      await game.stop();
      await proxy.stop();
    },
  };
}

/** A second game server of the scenario's type, beside the first, through the same proxy; not started yet. */
export async function secondServer(
  s: Scenario,
  doorbell?: PluginConfig["doorbell"],
): Promise<{ other: Scenario["server"]; game: GameServerProcess }> {
  const other = await createGameServer(s.type);
  const game = new GameServerProcess({
    siteUrl: `http://127.0.0.1:${s.proxy.port}`,
    serverId: other.id,
    serverKey: other.key,
    ...(doorbell ? { doorbell } : {}),
  });
  return { other, game };
}

/** Sets the harness's `fault` (e.g. `crash-on-write 4`), lets one poll round run, and waits until the game server is dead. */
export async function crashWith(s: Scenario, fault: string): Promise<void> {
  await s.game.send(`fault ${fault}`);
  await s.game.advance(15).catch(() => []);
  await s.game.died();
}

/** What the game server gave a player, item by item, as the harness recorded it. */
export function given(game: GameServerProcess, steamId: string, from = 0): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const event of game.all("give", from)) {
    if (event.steam_id !== steamId) continue;
    const item = String(event.item);
    totals[item] = (totals[item] ?? 0) + Number(event.amount);
  }
  return totals;
}

export function chats(game: GameServerProcess, steamId: string, from = 0): string[] {
  return game
    .all("chat", from)
    .filter((event) => event.steam_id === steamId)
    .map((event) => String(event.text));
}

/**
 * Lets the game server run one poll round and kills it once it has sent its acknowledgement, which
 * the proxy never answers: a crash between running a delivery and hearing back from the site.
 */
export async function crashBeforeAck(s: Scenario): Promise<void> {
  s.proxy.hold.add("/api/game/ack");
  let ackSent: () => void = () => {};
  const acked = new Promise<void>((done) => {
    ackSent = done;
  });
  s.proxy.onRequest = (path) => {
    if (path === "/api/game/ack") ackSent();
  };
  const advancing = s.game.advance(15).catch(() => []);
  await acked;
  await s.game.kill();
  await advancing;
  s.proxy.hold.clear();
  s.proxy.onRequest = null;
}
