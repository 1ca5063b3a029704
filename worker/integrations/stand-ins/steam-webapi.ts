import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { servers } from "#db/schema.ts";
import { demoSteamAccounts } from "./demo-players.ts";
import type { StandInEnv } from "./env.ts";

// Local stand-in of the Steam Web API methods the site calls, answering in
// Steam's exact JSON shapes. Mounted at /__standins/steam-webapi outside production.
export const steamWebApiStandIn = new Hono<{ Bindings: StandInEnv }>();

// ---------------------------------------------------------------------------
// IGameServersService/GetServerList/v1/?filter=\gameaddr\<ip:port>[&key=...]
// Every server in our own database is listed as online, with a player count that drifts
// with the clock so the local list looks alive. Anything else is not listed.
// ---------------------------------------------------------------------------

const RUST_APP_ID = 252490;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const MAX_PLAYERS = 200;

function playersAt(ipPort: string, now: number): number {
  let hash = 0;
  for (const char of ipPort) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const phase = (now / 600_000 + (hash % 100)) % (2 * Math.PI);
  return Math.round(((Math.sin(phase) + 1) / 2) * (MAX_PLAYERS - 20)) + 5;
}

steamWebApiStandIn.get("/IGameServersService/GetServerList/v1/", async (c) => {
  const match = /\\gameaddr\\([^\\]+)/.exec(c.req.query("filter") ?? "");
  const ipPort = match?.[1];
  if (!ipPort) return c.json({ response: {} });
  const [row] = await c.env.db.orm
    .select({ name: servers.name })
    .from(servers)
    .where(eq(servers.ipPort, ipPort))
    .limit(1);
  if (!row) return c.json({ response: {} });
  const [ip, port] = ipPort.split(":");
  return c.json({
    response: {
      servers: [
        {
          // Steam lists the query address (game port + 1 for Rust) and the game port apart.
          addr: `${ip}:${Number(port) + 1}`,
          gameport: Number(port),
          steamid: "90200000000000000",
          name: row.name,
          appid: RUST_APP_ID,
          gamedir: "rust",
          version: "2593",
          product: "rust",
          region: 3,
          players: playersAt(ipPort, Date.now()),
          max_players: MAX_PLAYERS,
          bots: 0,
          map: "Procedural Map",
          secure: true,
          dedicated: true,
          os: "l",
          // Rust's «born» tag: the save's creation, here last Thursday 00:00 UTC (the epoch was a Thursday),
          // so the local list shows a wipe for every server without a plugin (issue 36).
          gametype: `weekly,vanilla,v2593,born${Math.floor(Date.now() / WEEK_MS) * (WEEK_MS / 1000)},gmrust,cs0,qp0`,
        },
      ],
    },
  });
});

// ISteamUser/GetPlayerSummaries (v2 and its old spelling v0002): public profiles.
// Seeded demo players get their seeded nicknames; any other SteamID64 a made-up one.
const STEAMID64 = /^7656119\d{10}$/;
const demoNicknames = new Map<string, string>(demoSteamAccounts.map((player) => [player.steamId, player.nickname]));

function playerSummary(steamId: string, publicUrl: string) {
  const avatar = `${publicUrl.replace(/\/+$/, "")}/images/avatar-default.svg`;
  return {
    steamid: steamId,
    communityvisibilitystate: 3,
    profilestate: 1,
    personaname: demoNicknames.get(steamId) ?? `Игрок ${steamId.slice(-4)}`,
    profileurl: `https://steamcommunity.com/profiles/${steamId}/`,
    avatar,
    avatarmedium: avatar,
    avatarfull: avatar,
    avatarhash: "fef49e7fa7e1997310d705b2a6158ff8dc1cdfeb",
    personastate: 0,
    primaryclanid: "103582791429521408",
    timecreated: 1_500_000_000,
    personastateflags: 0,
  };
}

for (const version of ["v2", "v0002"]) {
  steamWebApiStandIn.get(`/ISteamUser/GetPlayerSummaries/${version}/`, (c) => {
    if (!c.req.query("key")) {
      return c.html(
        "<html><head><title>Forbidden</title></head><body><h1>Forbidden</h1>Access is denied. Retrying will not help. Please verify your <pre>key=</pre> parameter.</body></html>",
        403,
      );
    }
    const steamIds = (c.req.query("steamids") ?? "")
      .split(",")
      .map((value) => value.trim())
      .filter((value) => STEAMID64.test(value))
      .slice(0, 100);
    return c.json({ response: { players: steamIds.map((steamId) => playerSummary(steamId, c.env.publicUrl)) } });
  });
}

// ISteamUser/ResolveVanityURL/v1/?key=…&vanityurl=…: a custom profile address (steamcommunity.com/id/<name>)
// to its SteamID64. The demo players' names resolve; any other is Steam's "No match".
const demoVanities = new Map<string, string>(demoSteamAccounts.map((player) => [player.vanity, player.steamId]));

steamWebApiStandIn.get("/ISteamUser/ResolveVanityURL/v1/", (c) => {
  if (!c.req.query("key")) {
    return c.html(
      "<html><head><title>Forbidden</title></head><body><h1>Forbidden</h1>Access is denied. Retrying will not help. Please verify your <pre>key=</pre> parameter.</body></html>",
      403,
    );
  }
  const steamId = demoVanities.get((c.req.query("vanityurl") ?? "").toLowerCase());
  return c.json({ response: steamId ? { steamid: steamId, success: 1 } : { success: 42, message: "No match" } });
});
