import { Hono } from "hono";
import type { Env } from "../../env.ts";

// The Steam Web API methods the site calls, answering in Steam's JSON shapes.
export const steamWebApiStandIn = new Hono<{ Bindings: Env }>();

const MAX_PLAYERS = 200;

// Players change slowly with the clock so the local list looks alive.
function playersAt(ipPort: string, now: number): number {
  let hash = 0;
  for (const char of ipPort) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const phase = (now / 600_000 + (hash % 100)) % (2 * Math.PI);
  return Math.round(((Math.sin(phase) + 1) / 2) * (MAX_PLAYERS - 20)) + 5;
}

steamWebApiStandIn.get("/IGameServersService/GetServerList/v1/", async (c) => {
  const filter = c.req.query("filter") ?? "";
  const match = /\\gameaddr\\([^\\]+)/.exec(filter);
  if (!match?.[1]) return c.json({ response: {} });
  const ipPort = match[1];
  const row = await c.env.DB.prepare("SELECT name FROM servers WHERE ip_port = ?")
    .bind(ipPort)
    .first<{ name: string }>();
  if (!row) return c.json({ response: {} });
  const [ip, port] = ipPort.split(":");
  return c.json({
    response: {
      servers: [
        {
          addr: `${ip}:${Number(port) + 1}`,
          gameport: Number(port),
          steamid: "90200000000000000",
          name: row.name,
          appid: 252490,
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
          gametype: "monthly,vanilla,v2593,born1700000000,gmrust,cs0,qp0",
        },
      ],
    },
  });
});
