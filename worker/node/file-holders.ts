import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { resolve } from "node:path";

// Which processes have a file open, so a refusal can name them ("PID 4121: node build-node/server.js")
// instead of leaving the owner to guess. Linux's /proc only; elsewhere, and for processes this user
// may not look into, nothing is named.

export interface FileHolder {
  pid: number;
  command: string;
}

/** The processes other than this one with any of `paths` open. */
export function holdersOf(paths: readonly string[]): FileHolder[] {
  const wanted = new Set(paths.map((path) => resolve(path)));
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid);
  } catch {
    return [];
  }
  return pids.flatMap((pid) => (holds(pid, wanted) ? [{ pid: Number(pid), command: commandOf(pid) }] : []));
}

function holds(pid: string, wanted: ReadonlySet<string>): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return wanted.has(readlinkSync(`/proc/${pid}/fd/${fd}`));
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

function commandOf(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ").slice(0, 200);
  } catch {
    return "?";
  }
}
