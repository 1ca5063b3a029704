// What `npm run bench` measures. Add a page or an endpoint here; bench/run.ts does the rest.
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

export const targets: Target[] = [
  { name: "home", path: "/", kind: "page", budget: { jsGzip: 150 * KB }, minThroughputVsBaseline: 0.8 },
  { name: "terms", path: "/terms", kind: "page", minThroughputVsBaseline: 0.8 },
  { name: "server-status", path: "/api/server-status", kind: "api" },
];

/** The Worker bundle (build/server/**\/*.js), gzipped. */
export const WORKER_BUNDLE_BUDGET = 1024 * 1024;
