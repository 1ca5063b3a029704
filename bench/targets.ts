// What `npm run bench` measures. Add a page or an endpoint here; bench/run.ts does the rest.
import { seedItemId } from "../db/seed/catalog.ts";
import { signInThroughStandIn } from "../tests/server/sign-in.ts";
import type { RequestSpec } from "./load.ts";

/** The locally served build a target is measured against. */
export interface Site {
  origin: string;
}

export interface Target {
  /** Shown in the report. */
  name: string;
  path: string;
  /** "page": also measure the JS and CSS the page loads. */
  kind: "page" | "api";
  /** Status every measured response must have (default 200). */
  expectStatus?: number;
  /**
   * Builds the request once before measuring: sign in, pick an item, set headers.
   * Default: a plain GET of `path`.
   */
  prepare?: (site: Site) => Promise<Partial<RequestSpec>>;
  /** Size budgets in bytes, gzipped; exceeding one fails the run. */
  budget?: { jsGzip?: number; cssGzip?: number };
  /** Requests/s must be at least this fraction of the bare React Router page's (reported, not enforced). */
  minThroughputVsBaseline?: number;
}

const KB = 1000;
const SHOP_ITEM = `/shop/items/${seedItemId("SOLO", 1)}?server_type=SOLO`;
const RENDER = { headers: { authorization: "Bearer no-session" } };

export const targets: Target[] = [
  // Signed out, these four come from the page cache after the first view (decision 100).
  { name: "home", path: "/", kind: "page", budget: { jsGzip: 150 * KB }, minThroughputVsBaseline: 0.8 },
  { name: "terms", path: "/terms", kind: "page", minThroughputVsBaseline: 0.8 },
  { name: "server-status", path: "/api/server-status", kind: "api" },
  // workerd's (and `vite preview`'s) floor for one request: no I/O, a tiny JSON answer. PERFORMANCE.md
  // reports each page's CPU above it (issue 22: a diagnostic beside the ratio, not the target).
  { name: "floor", path: "/api/server-types", kind: "api" },
  { name: "shop", path: "/shop", kind: "page", budget: { jsGzip: 170 * KB }, minThroughputVsBaseline: 2 },
  { name: "shop-item", path: SHOP_ITEM, kind: "page" },
  // The same pages rendered every time: a bearer header keeps a request out of the page cache, and a
  // token that names no session renders the page as signed out.
  { name: "shop (rendered)", path: "/shop", kind: "api", minThroughputVsBaseline: 0.8, prepare: async () => RENDER },
  {
    name: "shop-item (rendered)",
    path: SHOP_ITEM,
    kind: "api",
    minThroughputVsBaseline: 0.8,
    prepare: async () => RENDER,
  },
  {
    // Purchases per second: each request is a new purchase (no idempotency key) of a 49 ₽ item
    // by the seeded bench player; every answer must be 201. Overdraft and overselling are
    // impossible by the schema's CHECKs (see tests/purchase-api.test.ts for the concurrency proofs).
    name: "purchase",
    path: `/api/purchase/items/${seedItemId("SOLO", 6)}`,
    kind: "api",
    expectStatus: 201,
    prepare: async (site) => ({
      method: "POST",
      headers: { "content-type": "application/json", cookie: await signIn(site, BENCH_PLAYER) },
      body: JSON.stringify({ server_type: "SOLO" }),
    }),
  },
  {
    // The Корзина of the seeded demo player; signed out, /profile redirects to Steam sign-in.
    name: "profile",
    path: "/profile",
    kind: "page",
    budget: { jsGzip: 170 * KB },
    minThroughputVsBaseline: 0.8,
    prepare: async (site) => ({ headers: { cookie: await signIn(site, "76561198000000001") } }),
  },
  {
    // The operator console's summary over 100 000 purchases and 20 000 top-ups (bench/admin-volume.ts),
    // as the seeded demo admin: every sum reads a covering index (decision 096).
    name: "admin",
    path: "/admin",
    kind: "page",
    prepare: async (site) => ({ headers: { cookie: await signIn(site, "76561198000000001") } }),
  },
];

const DEMO_PLAYER = "76561198000000001";
const signedIn = (site: Site) => signIn(site, DEMO_PLAYER).then((cookie) => ({ headers: { cookie } }));

/**
 * Pages whose first view is only weighed (HTML and CSS against FIRST_VIEW_BUDGET), beside the page
 * targets above: every other address a player opens, signed out and in.
 */
export const firstViewPages: Pick<Target, "name" | "path" | "prepare">[] = [
  { name: "balance", path: "/balance" },
  { name: "balance (signed in)", path: "/balance", prepare: signedIn },
  { name: "shop (signed in)", path: "/shop", prepare: signedIn },
  { name: "item (signed in)", path: `/shop/items/${seedItemId("SOLO", 2)}?server_type=SOLO`, prepare: signedIn },
  { name: "promocodes", path: "/promocodes", prepare: signedIn },
  { name: "purchases", path: "/purchases", prepare: signedIn },
  { name: "history", path: "/history", prepare: signedIn },
  { name: "deposits", path: "/deposits", prepare: signedIn },
];

/** SOLO catalog sizes the shop is measured at (db/seed/catalog-scale.ts). */
export const CATALOG_SIZES = [25, 200, 1000];

/**
 * What a player opens in a catalog of any size: all of it, one category, a search, one item. Rendered
 * every time (the bearer header keeps the page cache out), so the catalog's own cost shows.
 */
export const scaleTargets: Target[] = [
  { name: "shop, all", path: "/shop" },
  { name: "shop, one category", path: "/shop?category_id=3" },
  { name: "shop, search", path: `/shop?query=${encodeURIComponent("набор")}` },
  { name: "item", path: `/shop/items/${seedItemId("SOLO", 3)}?server_type=SOLO` },
].map((target) => ({ ...target, kind: "page", prepare: async () => RENDER }));

/** CPU per request targets for `/shop` (all categories) by catalog size (issue 16). */
export const SHOP_CPU_TARGET_MS: Record<number, number> = { 200: 5, 1000: 8 };

/** The seeded player with a balance for thousands of purchases (db/seed/players.ts). */
const BENCH_PLAYER = "76561198000000009";

/** Signs in through the local Steam stand-in as a player clicking through it would; returns the session cookie. */
export const signIn = (site: Pick<Site, "origin">, steamId: string): Promise<string> =>
  signInThroughStandIn(site.origin, steamId);

/** The Worker bundle (build/server/**\/*.js), gzipped. */
export const WORKER_BUNDLE_BUDGET = 1024 * 1024;
