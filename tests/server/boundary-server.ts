// Steam and YooKassa at a network address, for a site in its own process with production settings
// (which refuses the in-app stand-ins). The fakes in tests/fakes answer each protocol exactly as in
// the worker-side tests; this serves them over HTTP on this machine, and adds the two pages a player's
// browser visits on those hosts: Steam's sign-in page and YooKassa's checkout, whose «Оплатить» sends
// the payment notification to the site's address as YooKassa does.
import { type ServerType, serve } from "@hono/node-server";
import { Hono } from "hono";
import { freePort } from "../e2e/node-site.ts";
import {
  callbackUrl,
  FakeSteamOpenId,
  STEAM_OPENID_ENDPOINT,
  STEAM_WEBAPI,
  steamAssertion,
} from "../fakes/steam-openid.ts";
import { FakeSteamWebApi } from "../fakes/steam-webapi.ts";
import { FakeYooKassa, YOOKASSA_BASE } from "../fakes/yookassa.ts";

export interface BoundaryServer {
  origin: string;
  /** Where a browser's request to `https://yoomoney.ru/…?orderId=…` is answered. */
  checkout(yoomoneyUrl: string): string;
  steam: FakeSteamOpenId;
  steamServers: FakeSteamWebApi;
  yookassa: FakeYooKassa;
  /** The site's settings that point at this server. */
  env(): Record<string, string>;
  stop(): Promise<void>;
}

/** Sends the site a notification as YooKassa's servers would: set by the test (it knows the site's address and certificate). */
export type NotifySite = (body: string) => Promise<number>;

const page = (title: string, body: string) =>
  `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

const escapeHtml = (value: string) =>
  value.replace(/[&<>"]/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[char] ?? char);

/** Forwards a request that arrived at `prefix` on this server to the fake as if sent to `base`. */
async function relay(fake: { fetch: typeof fetch }, request: Request, prefix: string, base: string) {
  const url = new URL(request.url);
  const target = `${base}${url.pathname.slice(prefix.length)}${url.search}`;
  try {
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
    return await fake.fetch(target, { method: request.method, headers: request.headers, body });
  } catch (error) {
    return new Response(String(error), { status: 502 });
  }
}

export async function startBoundaryServer(notifySite: NotifySite): Promise<BoundaryServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const steam = new FakeSteamOpenId();
  const steamServers = new FakeSteamWebApi();
  const yookassa = new FakeYooKassa();
  const openIdEndpoint = `${origin}/steam/openid/login`;
  const app = new Hono();

  // Steam's sign-in page: the player confirms, Steam sends the browser back with its assertion.
  app.get("/steam/openid/login", (c) => {
    const returnTo = c.req.query("openid.return_to") ?? "";
    return c.html(
      page(
        "Steam Community :: Sign In",
        `<form method="post" action="/steam/openid/approve">
          <input type="hidden" name="return_to" value="${escapeHtml(returnTo)}">
          <label>SteamID64 <input name="steamid" required></label>
          <button type="submit">Sign In</button>
        </form>`,
      ),
    );
  });
  app.post("/steam/openid/approve", async (c) => {
    const form = await c.req.formData();
    const assertion = steamAssertion({
      returnTo: String(form.get("return_to")),
      steamId: String(form.get("steamid")),
      at: new Date(),
      endpoint: openIdEndpoint,
    });
    return c.redirect(callbackUrl(assertion), 302);
  });
  // check_authentication, as the site's server asks it.
  app.post("/steam/openid/login", (c) => relay(steam, c.req.raw, "/steam/openid/login", STEAM_OPENID_ENDPOINT));
  app.all("/steam/api/ISteamUser/*", (c) => relay(steam, c.req.raw, "/steam/api", STEAM_WEBAPI));
  app.all("/steam/api/*", (c) => relay(steamServers, c.req.raw, "/steam/api", STEAM_WEBAPI));

  // YooKassa's API. A payment's confirmation page stays at https://yoomoney.ru, where the site's
  // Content-Security-Policy lets its top-up form go: the browser's requests there come to
  // /yoomoney/checkout (the test routes them, as DNS would send them to YooKassa).
  app.all("/yookassa/v3/*", (c) => relay(yookassa, c.req.raw, "/yookassa/v3", YOOKASSA_BASE));
  app.get("/yoomoney/checkout", (c) => {
    const payment = yookassa.get(c.req.query("orderId") ?? "");
    return c.html(
      page(
        "ЮKassa",
        `<p>К оплате: ${escapeHtml(payment.amount.value)} ₽</p>
        <form method="post"><input type="hidden" name="orderId" value="${escapeHtml(payment.id)}">
          <button name="outcome" value="pay">Оплатить</button>
          <button name="outcome" value="cancel">Отменить</button>
        </form>`,
      ),
    );
  });
  app.post("/yoomoney/checkout", async (c) => {
    const form = await c.req.formData();
    const id = String(form.get("orderId"));
    if (form.get("outcome") === "pay") yookassa.pay(id);
    else yookassa.cancel(id);
    const status = await notifySite(yookassa.notification(id));
    if (status !== 200) return c.text(`the site answered the notification with ${status}`, 500);
    return c.redirect(yookassa.get(id).confirmation?.return_url ?? "/", 302);
  });

  const server: ServerType = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" });
  return {
    origin,
    checkout: (yoomoneyUrl) => `${origin}/yoomoney/checkout${new URL(yoomoneyUrl).search}`,
    steam,
    steamServers,
    yookassa,
    env: () => ({
      STEAM_OPENID_ENDPOINT: openIdEndpoint,
      STEAM_WEBAPI_BASE: `${origin}/steam/api`,
      STEAM_API_KEY: "0123456789ABCDEF0123456789ABCDEF",
      ...yookassa.env("127.0.0.1"),
      YOOKASSA_API_BASE: `${origin}/yookassa/v3`,
    }),
    stop: () => new Promise<void>((done) => server.close(() => done())),
  };
}
