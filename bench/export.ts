// The console's CSV export of the 100 000 generated purchases (bench/admin-volume.ts, decision 110):
// downloaded as the seeded demo admin (in parts where EXPORT_ROWS_PER_FILE splits it), read to the end. Reports the time, the size, the rows, the
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
  /** Files it took: more than one where EXPORT_ROWS_PER_FILE splits the period (decision 115). */
  files: number;
  /** The most server CPU one file's request cost. */
  cpuPerFileMs: number | null;
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
  const post = (part?: number) =>
    fetch(`${origin}/admin/exports/csv`, {
      method: "POST",
      headers: { cookie, origin, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...Object.fromEntries(body), ...(part ? { part: String(part) } : {}) }),
      redirect: "manual",
    });
  let bytes = 0;
  let rows = 0;
  let files = 0;
  let cpuPerFileMs: number | null = null;
  /** Reads one file to its end; counts its rows without the header. */
  const read = async (response: Response, cpuAt: number | null) => {
    if (response.status !== 200 || !response.body) throw new Error(`export answered ${response.status}`);
    const reader = response.body.getReader();
    let lines = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      bytes += chunk.value.byteLength;
      for (const byte of chunk.value) if (byte === 0x0a) lines += 1;
    }
    rows += lines - 1;
    files += 1;
    const cpuNow = workerdCpuMs(group, command);
    if (cpuAt !== null && cpuNow !== null) cpuPerFileMs = Math.max(cpuPerFileMs ?? 0, cpuNow - cpuAt);
  };
  const whole = await post();
  if (whole.status === 303) {
    // The period is offered in parts: download each until the site answers that there is no such part.
    for (let part = 1; ; part += 1) {
      const cpuAt = workerdCpuMs(group, command);
      const response = await post(part);
      if (response.status === 303) break;
      await read(response, cpuAt);
    }
  } else {
    await read(whole, cpuBefore);
  }
  const ms = performance.now() - started;
  clearInterval(sampler);
  const cpuAfter = workerdCpuMs(group, command);
  return {
    ms,
    bytes,
    rows,
    cpuMs: cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null,
    rssBeforeMb,
    rssPeakMb,
    files,
    cpuPerFileMs,
  };
}

export function exportReport(runtime: string, run: ExportRun): string {
  const mb = (value: number | null) => (value === null ? "–" : value.toFixed(0));
  return (
    `| ${runtime} | ${run.rows} | ${(run.bytes / 1_000_000).toFixed(1)} MB | ${(run.ms / 1000).toFixed(2)} s | ` +
    `${run.cpuMs === null ? "–" : `${run.cpuMs.toFixed(0)} ms`} | ${run.files} | ` +
    `${run.cpuPerFileMs === null ? "–" : `${run.cpuPerFileMs.toFixed(0)} ms`} | ${mb(run.rssBeforeMb)} → ${mb(run.rssPeakMb)} MB |`
  );
}
