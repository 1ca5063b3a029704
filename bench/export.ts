// The console's CSV export of the 100 000 generated purchases (bench/admin-volume.ts, decision 110):
// one download as the seeded demo admin, read to the end. Reports the time, the size, the rows, the
// server's CPU for it (workerd or node, from /proc) and, for the Node server, its resident memory before
// and at its highest while the file streamed (sampled every 20 ms), which stays flat when the export
// streams page by page.
import { readFileSync } from "node:fs";
import { createClient } from "@libsql/client";
import { adminVolumeSql } from "./admin-volume.ts";
import { workerdCpuMs } from "./cpu.ts";
import { signIn } from "./targets.ts";

export interface ExportRun {
  ms: number;
  bytes: number;
  rows: number;
  cpuMs: number | null;
  rssBeforeMb: number | null;
  rssPeakMb: number | null;
}

function rssMb(pid: number | undefined): number | null {
  if (pid === undefined || process.platform !== "linux") return null;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Loads the same volume into the Node server's libSQL file as loadAdminVolume does into local D1. */
export async function loadAdminVolumeLibsql(databaseUrl: string): Promise<void> {
  const client = createClient({ url: databaseUrl });
  try {
    await client.executeMultiple(adminVolumeSql().join("\n"));
  } finally {
    client.close();
  }
}

export async function measureExport(
  origin: string,
  group: number | undefined,
  command: "workerd" | "node",
  pid?: number,
): Promise<ExportRun> {
  const cookie = await signIn({ origin }, "76561198000000001");
  const day = (ms: number) => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10);
  const now = Date.now();
  const body = new URLSearchParams({ kind: "purchases", from: day(now - 41 * 86_400_000), to: day(now) });
  const cpuBefore = workerdCpuMs(group, command);
  const rssBeforeMb = rssMb(pid);
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => {
    const rss = rssMb(pid);
    if (rss !== null && (rssPeakMb === null || rss > rssPeakMb)) rssPeakMb = rss;
  }, 20);
  const started = performance.now();
  const response = await fetch(`${origin}/admin/exports/csv`, {
    method: "POST",
    headers: { cookie, origin, "content-type": "application/x-www-form-urlencoded" },
    body,
  });
  if (response.status !== 200 || !response.body) throw new Error(`export answered ${response.status}`);
  let bytes = 0;
  let rows = 0;
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.byteLength;
    for (const byte of read.value) if (byte === 0x0a) rows += 1;
  }
  const ms = performance.now() - started;
  clearInterval(sampler);
  const cpuAfter = workerdCpuMs(group, command);
  return {
    ms,
    bytes,
    rows: rows - 1,
    cpuMs: cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null,
    rssBeforeMb,
    rssPeakMb,
  };
}

export function exportReport(runtime: string, run: ExportRun): string {
  const mb = (value: number | null) => (value === null ? "–" : value.toFixed(0));
  return (
    `| ${runtime} | ${run.rows} | ${(run.bytes / 1_000_000).toFixed(1)} MB | ${(run.ms / 1000).toFixed(2)} s | ` +
    `${run.cpuMs === null ? "–" : `${run.cpuMs.toFixed(0)} ms`} | ${mb(run.rssBeforeMb)} → ${mb(run.rssPeakMb)} MB |`
  );
}
