// `node bench/plugin.ts`: the plugin's cost on the game's main thread (docs/PERFORMANCE.md, "The game
// plugin"). Compiles the real plugin with the stand-ins and bench/plugin/Bench.cs (mono), then runs it
// with 500 deliveries queued against journals of several sizes; the stand-in site answers in-process,
// so only the plugin's own work is timed. Not a test: the numbers are for reading.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const newtonsoft = readdirSync("/usr/lib/mono/gac/Newtonsoft.Json")
  .map((version) => join("/usr/lib/mono/gac/Newtonsoft.Json", version, "Newtonsoft.Json.dll"))
  .sort()
  .at(-1);
if (!newtonsoft) throw new Error("Newtonsoft.Json not found (apt-get install libnewtonsoft-json-cil-dev)");
const out = mkdtempSync(join(tmpdir(), "plugin-bench-"));
const stubs = readdirSync("plugins/oxide/stubs").map((file) => resolve("plugins/oxide/stubs", file));
execFileSync(
  "mcs",
  [
    "-optimize+",
    "-nowarn:0169,0414,0649",
    "-r:System.dll",
    "-r:System.Core.dll",
    `-r:${newtonsoft}`,
    `-out:${join(out, "bench.exe")}`,
    ...stubs,
    resolve("plugins/oxide/RustStoreDelivery.cs"),
    resolve("bench/plugin/Bench.cs"),
  ],
  { stdio: "inherit" },
);

// Journal entries already delivered (archived over 400 days) × deliveries queued at once.
const runs: [archived: number, queued: number][] = [
  [0, 500],
  [10_000, 500],
  [100_000, 500],
];
const rows = runs.map(([archived, queued]) => {
  const output = execFileSync("mono", [join(out, "bench.exe"), String(archived), String(queued)], {
    encoding: "utf8",
    env: { ...process.env, MONO_ENV_OPTIONS: "" },
  });
  return JSON.parse(output.trim().split("\n").at(-1) ?? "{}") as Record<string, number>;
});
console.table(
  rows.map((row) => ({
    "journal entries (archived)": row.archived,
    queued: row.queued,
    "load, ms": row.load_ms,
    "load's longest frame, ms": row.load_longest_frame_ms,
    "idle poll, ms": row.idle_poll_ms,
    "per delivery, ms": row.per_delivery_ms,
    "longest poll, ms": row.max_poll_ms,
    "journal writes, ms": row.journal_writes_ms,
    "written, KiB": row.journal_written_kb,
    "save hook, ms": row.save_hook_ms,
    "reports after it, ms": row.reports_after_save_ms,
    delivered: row.delivered,
  })),
);
