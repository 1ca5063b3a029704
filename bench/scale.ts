// The shop over catalogs of CATALOG_SIZES items (`npm run bench -- --scale`): for each size a
// freshly seeded server, each scale target measured in several short runs; the report gives the
// medians, since single runs on a shared machine move by a fifth.
import type { LoadResult } from "./load.ts";
import { FIRST_VIEW_BUDGET, type PageSizes } from "./sizes.ts";
import { median } from "./stats.ts";
import { CATALOG_SIZES, SHOP_CPU_TARGET_MS, scaleTargets, type Target } from "./targets.ts";

export interface ScaleRow {
  size: number;
  target: Target;
  requestsPerSecond: number;
  cpuMs: number | null;
  /** Every run's CPU ms per request, to show the spread. */
  cpuRuns: number[];
  errors: number;
  sizes?: PageSizes;
}

interface Measured {
  load: LoadResult;
  cpuMs: number | null;
  sizes?: PageSizes;
}

export interface ScaleOptions {
  runs: number;
  durationMs: number;
  /** Starts a server over a catalog of `size` items. */
  serve: (size: number) => Promise<{ origin: string; pid: number | undefined; stop: () => void }>;
  measure: (origin: string, target: Target, pid: number | undefined, durationMs: number) => Promise<Measured>;
}

export async function measureScale(options: ScaleOptions): Promise<ScaleRow[]> {
  const rows: ScaleRow[] = [];
  for (const size of CATALOG_SIZES) {
    console.log(`Catalog of ${size} items…`);
    const server = await options.serve(size);
    try {
      for (const target of scaleTargets) {
        const runs: Measured[] = [];
        for (let run = 0; run < options.runs; run++) {
          runs.push(await options.measure(server.origin, target, server.pid, options.durationMs));
        }
        const cpuRuns = runs.flatMap((run) => (run.cpuMs === null ? [] : [run.cpuMs]));
        rows.push({
          size,
          target,
          requestsPerSecond: median(runs.map((run) => run.load.requestsPerSecond)),
          cpuMs: cpuRuns.length > 0 ? median(cpuRuns) : null,
          cpuRuns,
          errors: runs.reduce((sum, run) => sum + run.load.errors, 0),
          sizes: runs[0]?.sizes,
        });
      }
    } finally {
      server.stop();
    }
  }
  return rows;
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

/** Prints the scale table; answers warnings for targets missed. */
export function scaleReport(rows: ScaleRow[], runtime: "Worker" | "Node" = "Node"): string[] {
  const warnings: string[] = [];
  const whose =
    runtime === "Worker"
      ? "Worker build in workerd; CPU is workerd's, the local D1 simulation included"
      : "Node server; CPU is the node process's, database included";
  console.log(`\nCatalog scale (${whose}; medians of the runs):\n`);
  console.log("| items | target | path | req/s | CPU ms/req | CPU runs | HTML raw | HTML brotli | errors |");
  console.log("|---:|---|---|---:|---:|---|---:|---:|---:|");
  for (const row of rows) {
    console.log(
      `| ${row.size} | ${row.target.name} | \`${row.target.path}\` | ${row.requestsPerSecond.toFixed(1)} | ` +
        `${row.cpuMs === null ? "–" : row.cpuMs.toFixed(2)} | ${row.cpuRuns.map((ms) => ms.toFixed(2)).join(", ")} | ` +
        `${row.sizes ? kb(row.sizes.html.raw) : "–"} | ${row.sizes ? kb(row.sizes.html.brotli) : "–"} | ${row.errors} |`,
    );
    if (row.errors > 0)
      warnings.push(`${runtime}, ${row.size} items, ${row.target.path}: ${row.errors} failed answers`);
    if (row.sizes && row.sizes.html.brotli > FIRST_VIEW_BUDGET) {
      warnings.push(
        `${row.size} items, ${row.target.path}: HTML ${kb(row.sizes.html.brotli)} brotli, over the first view`,
      );
    }
    const limit = SHOP_CPU_TARGET_MS[row.size];
    if (row.target.path === "/shop" && limit !== undefined && row.cpuMs !== null && row.cpuMs > limit) {
      warnings.push(`${runtime}, ${row.size} items, /shop: ${row.cpuMs.toFixed(2)} ms CPU a request, over ${limit} ms`);
    }
  }
  return warnings;
}
