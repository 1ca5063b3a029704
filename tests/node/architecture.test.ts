import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { importGraph, runtimeCycles } from "./import-graph.ts";

// Imports run one way: pages and API → services → ports, with a browser-safe core that all
// import and that imports none of them. Runtimes plug in at the entry through adapters.

type Layer =
  | "core"
  | "schema"
  | "seed"
  | "ports"
  | "adapters"
  | "integrations"
  | "services"
  | "api"
  | "pages-server"
  | "pages-browser"
  | "stand-ins"
  | "entry"
  | "tools";

const ENTRY_FILES = new Set([
  "worker/app.ts",
  "worker/index.ts",
  "worker/wiring.ts",
  "worker/env.ts",
  "worker/hono-env.ts",
]);

function layerOf(path: string): Layer {
  if (path.startsWith("core/")) return "core";
  if (path === "db/schema.ts") return "schema";
  if (path.startsWith("db/")) return "seed";
  if (path.startsWith("worker/ports/")) return "ports";
  if (path.startsWith("worker/adapters/")) return "adapters";
  if (path.startsWith("worker/integrations/stand-ins/")) return "stand-ins";
  if (path.startsWith("worker/integrations/")) return "integrations";
  if (path.startsWith("worker/api/")) return "api";
  if (ENTRY_FILES.has(path) || /^worker\/(cloudflare|node|cron)\//.test(path)) return "entry";
  if (path.startsWith("worker/")) return "services"; // services/, config, deps, settings
  if (path.startsWith("app/")) {
    // Route modules' loaders and actions and *.server.ts run on the server only; React Router
    // leaves them out of the browser bundle.
    return path.startsWith("app/routes/") || /\.server\.tsx?$/.test(path) || path === "app/root.tsx"
      ? "pages-server"
      : "pages-browser";
  }
  return "tools";
}

const ALLOWED: Record<Layer, Layer[]> = {
  core: ["core"],
  schema: ["core", "schema"],
  // The seed creates the players the local Steam stand-in signs in as.
  seed: ["core", "schema", "seed", "stand-ins"],
  ports: ["core", "schema", "ports"],
  adapters: ["core", "schema", "ports", "adapters"],
  integrations: ["core", "schema", "ports", "integrations"],
  services: ["core", "schema", "ports", "integrations", "services"],
  api: ["core", "schema", "services", "api"],
  "pages-browser": ["core", "pages-browser"],
  "pages-server": ["core", "schema", "services", "pages-browser", "pages-server"],
  // Local fakes of outside systems, wired in by the entry; they speak HTTP and reach the data through the ports.
  "stand-ins": ["core", "schema", "ports", "integrations", "services", "stand-ins"],
  entry: [
    "core",
    "schema",
    "ports",
    "adapters",
    "integrations",
    "services",
    "api",
    "pages-server",
    "stand-ins",
    "entry",
  ],
  tools: [
    "core",
    "schema",
    "seed",
    "ports",
    "adapters",
    "integrations",
    "services",
    "api",
    "pages-browser",
    "pages-server",
    "stand-ins",
    "entry",
    "tools",
  ],
};

const edges = importGraph();

describe("the import graph", () => {
  it("reads the project's imports", () => {
    assert.ok(edges.length > 200, `only ${edges.length} imports found: is the reader broken?`);
    assert.ok(edges.some((edge) => edge.from === "worker/app.ts" && edge.to === "worker/api/index.ts"));
  });

  it("has imports that run one way only", () => {
    const wrong = edges
      .filter((edge) => !edge.typeOnly)
      .filter((edge) => !ALLOWED[layerOf(edge.from)].includes(layerOf(edge.to)))
      .map((edge) => `${edge.from} (${layerOf(edge.from)}) → ${edge.to} (${layerOf(edge.to)})`);
    assert.deepEqual(wrong, []);
  });

  it("keeps the browser-safe core free of everything else, types included", () => {
    const wrong = edges
      .filter((edge) => layerOf(edge.from) === "core" && layerOf(edge.to) !== "core")
      .map((edge) => `${edge.from} → ${edge.to}`);
    assert.deepEqual(wrong, []);
  });

  it("has no import cycle", () => {
    assert.deepEqual(runtimeCycles(edges), []);
  });
});
