// Property-based: generated malformed bodies, query strings and headers sent to every API endpoint
// (worker/api/) through the Worker, and generated form posts to every page action (through the Hono
// app, which runs the guards, and to the action itself), signed in and not. Nothing may answer 500,
// and balance = sum(ledger) must hold for every player involved afterwards.
import { SELF } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { action as balanceAction } from "../app/routes/balance.tsx";
import { action as logoutAction } from "../app/routes/logout.tsx";
import { action as inventoryAction } from "../app/routes/profile.inventory.tsx";
import { action as promoAction } from "../app/routes/profile.promocodes.tsx";
import { action as itemAction } from "../app/routes/shop.item.tsx";
import { testDeps } from "./support/deps.ts";
import { expectBalancesMatchLedger } from "./support/money.ts";
import { createPlayer } from "./support/players.ts";
import { createPayment, createPromo } from "./support/profile-fixtures.ts";
import { routeArgs } from "./support/routes.ts";
import { createItem } from "./support/shop-fixtures.ts";
import { bearer, sessionCookie } from "./support/sign-in.ts";

const ORIGIN = "http://localhost:5173";
// Runs small enough to stay well under 30 s in workerd; the seed is printed on failure.
const API_RUNS = 400;
const PAGE_RUNS = 200;

const deps = testDeps();

async function fixtures() {
  const rich = await createPlayer({ deps, balance: 1_000_000 });
  const poor = await createPlayer({ deps });
  const itemId = await createItem({ price: 1000, isOneTime: true });
  const timedId = await createItem({ price: 3000, durations: [[30, null]] });
  const promo = await createPromo(deps, { type: "BALANCE", value: 500, maxUses: 3 });
  const payment = await createPayment(deps, rich.id);
  return { rich, poor, players: [rich, poor], itemId, timedId, promo, payment };
}

type Fixtures = Awaited<ReturnType<typeof fixtures>>;

/** Every route the API declares (worker/api/*.ts), with its method; `:id` parts filled per run. */
function endpoints(f: Fixtures): { method: string; path: string }[] {
  return [
    { method: "GET", path: "/api/server-status" },
    { method: "GET", path: "/api/server-types" },
    { method: "GET", path: "/api/auth/steam" },
    { method: "GET", path: "/api/auth/login" },
    { method: "GET", path: "/api/auth/steam/callback" },
    { method: "GET", path: "/api/auth/check" },
    { method: "POST", path: "/api/auth/logout" },
    { method: "POST", path: "/api/logout" },
    { method: "GET", path: "/api/profile" },
    { method: "POST", path: "/api/game/heartbeat" },
    { method: "POST", path: "/api/game/queue" },
    { method: "POST", path: "/api/game/ack" },
    { method: "POST", path: "/api/game/pending" },
    { method: "GET", path: "/api/shop/items" },
    { method: "GET", path: `/api/shop/items/${f.itemId}` },
    { method: "GET", path: "/api/shop/items/{id}" },
    { method: "GET", path: "/api/shop/search" },
    { method: "GET", path: "/api/shop/limited" },
    { method: "GET", path: "/api/shop/categories" },
    { method: "POST", path: `/api/purchase/items/${f.itemId}` },
    { method: "POST", path: `/api/purchase/items/${f.timedId}` },
    { method: "POST", path: "/api/purchase/items/{id}" },
    { method: "GET", path: "/api/inventory" },
    { method: "GET", path: "/api/purchase/history" },
    { method: "GET", path: "/api/purchases/{id}" },
    { method: "POST", path: "/api/purchases/{id}/return" },
    { method: "GET", path: "/api/gifts/recipient" },
    { method: "GET", path: "/api/payment/history" },
    { method: "GET", path: "/api/balance/history" },
    { method: "GET", path: `/api/payment/${f.payment.id}` },
    { method: "POST", path: "/api/payment/create" },
    { method: "POST", path: "/api/payment/webhook/standin" },
    { method: "POST", path: "/api/payment/webhook/{id}" },
    { method: "GET", path: `/api/payment/return/${f.payment.id}` },
    { method: "GET", path: "/api/payment/return/{id}" },
    { method: "POST", path: "/api/promos/validate" },
  ];
}

const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`));
const anyText = fc.oneof(printable(40), fc.string({ maxLength: 40 }), fc.string({ unit: "grapheme", maxLength: 20 }));
const idPart = fc.oneof(
  fc.nat().map(String),
  fc.integer().map(String),
  fc.constantFrom("0", "-1", "1e3", "9".repeat(30), "NaN", "%00", "..", "%2e%2e", "'1", "1;DROP"),
  printable(12).map(encodeURIComponent),
);
const fieldValue = fc.oneof(
  anyText,
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom("", " ", "SOLO", "NO_LIMIT", "30", "0", "-5", "1.5", "null", "true", "[]", "{}", "1e309"),
);
const fieldNames = fc.constantFrom(
  "code",
  "amount",
  "email",
  "server_type",
  "duration",
  "idempotency_key",
  "_js",
  "type",
  "event",
  "object",
  "id",
  "steam_id",
  "query",
  "category_id",
  "intent",
  "purchase_id",
  "gift_to",
  "gift_steam_id",
  "__proto__",
);
const fields = fc.dictionary(fieldNames, fieldValue, { maxKeys: 6 });
const jsonBody = fc.oneof(
  fields.map((value) => JSON.stringify(value)),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc
    .record({ type: fc.constant("notification"), event: fieldValue, object: fc.record({ id: fieldValue }) })
    .map((value) => JSON.stringify(value)),
);
const body = fc.oneof(
  jsonBody,
  anyText,
  fields.map((value) => new URLSearchParams(value).toString()),
  fc.constant(""),
  fc.constant("{"),
  fc.constant('{"amount":1e400,"email":"a@b.c"}'),
  fc.constant("x".repeat(70_000)),
);
const query = fc.dictionary(
  fc.constantFrom("server_type", "category_id", "query", "include_upcoming", "return_to", "page", "id", "status"),
  fieldValue,
  { maxKeys: 4 },
);
const headers = fc.record(
  {
    "content-type": fc.constantFrom(
      "application/json",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "text/plain",
      "application/json; charset=utf-8",
      "",
    ),
    "idempotency-key": printable(80),
    "cf-connecting-ip": fc.oneof(fc.ipV4(), fc.ipV6(), printable(20)),
    origin: fc.constantFrom(ORIGIN, "https://evil.example", "null"),
    authorization: fc.oneof(
      printable(60),
      printable(30).map((token) => `Bearer ${token}`),
    ),
    cookie: printable(60),
    "x-signature": printable(40),
    "x-server-key": printable(40),
  },
  { requiredKeys: [] },
);

function withQuery(path: string, values: Record<string, string>): string {
  const search = new URLSearchParams(values).toString();
  return search ? `${path}?${search}` : path;
}

describe("generated malformed input never breaks the site or its money", () => {
  it("every API endpoint, signed in and not: never 500, balance = sum(ledger)", { timeout: 60_000 }, async () => {
    const f = await fixtures();
    const routes = endpoints(f);
    await fc.assert(
      fc.asyncProperty(
        fc.nat(routes.length - 1),
        idPart,
        fc.constantFrom("none", "bearer", "cookie", "both"),
        fc.nat(1),
        body,
        query,
        headers,
        async (routeIndex, id, auth, who, text, search, extra) => {
          const route = routes[routeIndex];
          if (!route) throw new Error("no route");
          const player = who === 0 ? f.rich : f.poor;
          const sent = new Headers(extra);
          if (auth === "bearer" || auth === "both") sent.set("authorization", bearer(player.token).authorization);
          if (auth === "cookie" || auth === "both") sent.set("cookie", sessionCookie(player.token).cookie);
          const path = withQuery(route.path.replace("{id}", id), search);
          const response = await SELF.fetch(`${ORIGIN}${path}`, {
            method: route.method,
            headers: sent,
            body: route.method === "GET" ? undefined : text,
            redirect: "manual",
          });
          await response.body?.cancel();
          // 502/503: the payment provider couldn't be reached or isn't configured, which is an answer too.
          const allowed = response.status < 500 || [502, 503].includes(response.status);
          expect(allowed, `${route.method} ${path} answered ${response.status}`).toBe(true);
        },
      ),
      { numRuns: API_RUNS },
    );
    await expectBalancesMatchLedger(f.players.map((player) => player.id));
  });

  it("every page action, signed in and not, through the Worker's guards and called directly: never 500", {
    timeout: 60_000,
  }, async () => {
    const f = await fixtures();
    const pages = [
      { path: "/balance", action: balanceAction, params: {} },
      { path: "/logout", action: logoutAction, params: {} },
      { path: "/promocodes", action: promoAction, params: {} },
      { path: "/profile", action: inventoryAction, params: {} },
      { path: `/shop/items/${f.itemId}`, action: itemAction, params: { id: String(f.itemId) } },
      { path: `/shop/items/${f.timedId}`, action: itemAction, params: { id: String(f.timedId) } },
      { path: "/shop/items/{id}", action: itemAction, params: { id: "{id}" } },
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.nat(pages.length - 1),
        idPart,
        fc.boolean(),
        fc.nat(1),
        fc.oneof(
          fields.map((value) => new URLSearchParams(value).toString()),
          body,
        ),
        headers,
        async (pageIndex, id, signedIn, who, text, extra) => {
          const page = pages[pageIndex];
          if (!page) throw new Error("no page");
          const player = who === 0 ? f.rich : f.poor;
          const path = page.path.replace("{id}", id);
          const sent = new Headers(extra);
          sent.set("content-type", "application/x-www-form-urlencoded");
          if (signedIn) sent.set("cookie", sessionCookie(player.token).cookie);
          else sent.delete("cookie");

          // Through the Hono app: its guards (origin, body size, form parsing) answer before the page does.
          const viaWorker = await SELF.fetch(`${ORIGIN}${path}`, {
            method: "POST",
            headers: sent,
            body: text,
            redirect: "manual",
          });
          await viaWorker.body?.cancel();
          expect(viaWorker.status, `POST ${path} through the Worker`).not.toBe(500);

          // The action itself, as React Router calls it: it may return or throw a Response, nothing else.
          const params = Object.fromEntries(
            Object.entries(page.params).map(([key, value]) => [key, value.replace("{id}", id)]),
          );
          sent.set("origin", ORIGIN);
          const args = routeArgs<never>(
            deps,
            `${ORIGIN}${path}`,
            { method: "POST", headers: sent, body: text },
            { params },
          );
          let status: number;
          try {
            const result = (await page.action(args)) as unknown;
            status =
              result instanceof Response
                ? result.status
                : ((result as { init?: ResponseInit | null }).init?.status ?? 200);
          } catch (thrown) {
            if (thrown instanceof Response) status = thrown.status;
            else if (thrown && typeof thrown === "object" && "init" in thrown) {
              status = (thrown as { init?: ResponseInit | null }).init?.status ?? 500;
            } else throw thrown;
          }
          const allowed = status < 500 || status === 502;
          expect(allowed, `action ${path} answered ${status}`).toBe(true);
        },
      ),
      { numRuns: PAGE_RUNS },
    );
    await expectBalancesMatchLedger(f.players.map((player) => player.id));
  });
});
