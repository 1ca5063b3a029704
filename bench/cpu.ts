// Worker CPU per request: the user + system time of the workerd processes serving a site,
// read from /proc (Linux only; elsewhere null). Unlike requests per second, it hardly moves
// when other work shares the machine, and it is what Cloudflare's free plan limits
// (10 ms a request). Locally it also includes workerd's simulation of D1 and KV, which in
// production run elsewhere, so it overstates what a request would be charged.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  return ticksPerSecond;
}

/**
 * CPU milliseconds used so far by the `command` processes (workerd, or node for the Node server) in
 * process group `group`, or null when unknown.
 */
export function workerdCpuMs(group: number | undefined, command = "workerd"): number | null {
  if (group === undefined || process.platform !== "linux") return null;
  let ticks = 0;
  let found = false;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // "pid (comm) state ppid pgrp … utime stime …": fields after the command name.
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (comm !== command || Number(fields[2]) !== group) continue;
    found = true;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return found ? (ticks * 1000) / clockTicks() : null;
}
