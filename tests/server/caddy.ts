// Debian's Caddy in front of the Node server, as the README's "Your own server" sets it up: the
// README's own Caddyfile site block, with only what a test on one machine must change around it
// (its ports, a certificate from Caddy's internal CA instead of Let's Encrypt, nothing installed
// into the machine's trust store). .ci/run installs caddy with apt.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "../e2e/node-site.ts";

const README = readFileSync(resolve(import.meta.dirname, "../../README.md"), "utf8");

/** The README's Caddyfile site block, as an owner copies it. */
export function readmeCaddyfile(): string {
  const block = /```caddyfile\n([\s\S]*?)```/.exec(README)?.[1];
  assert.ok(block, "the README shows a Caddyfile");
  return block;
}

export interface Caddy {
  /** The https port; the site is https://HOST:port for each of the names given. */
  port: number;
  /** Caddy's internal root certificate: what an owner's visitors trust for a real one. */
  rootCertificate: string;
  /** The certificate Caddy serves for `name` (PEM, leaf first). */
  certificateOf(name: string): string;
  /** Everything Caddy printed. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts Caddy for `names` (e.g. shop.example.ru and localhost) in front of 127.0.0.1:`upstreamPort`,
 * with the README's site block: its address replaced by those names on a free port, its upstream by
 * the test server's.
 */
export async function startCaddy(names: string[], upstreamPort: number): Promise<Caddy> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "caddy-"));
  const site = readmeCaddyfile()
    .replace(/^[^\s{][^{]*\{/m, `${names.map((name) => `${name}:${port}`).join(", ")} {\n\ttls internal`)
    .replaceAll("127.0.0.1:3000", `127.0.0.1:${upstreamPort}`);
  assert.match(site, new RegExp(`127\\.0\\.0\\.1:${upstreamPort}`), "the README's block proxies to 127.0.0.1:3000");
  const config = [
    "{",
    "\tadmin off",
    "\tskip_install_trust",
    `\thttp_port ${await freePort()}`,
    `\thttps_port ${port}`,
    `\tstorage file_system ${join(dir, "data")}`,
    "}",
    site,
  ].join("\n");
  writeFileSync(join(dir, "Caddyfile"), config);
  const child: ChildProcess = spawn("caddy", ["run", "--config", join(dir, "Caddyfile"), "--adapter", "caddyfile"], {
    env: { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: join(dir, "xdg"), XDG_CONFIG_HOME: join(dir, "xdg") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const rootCertificate = join(dir, "data", "pki", "authorities", "local", "root.crt");
  const certificateOf = (name: string) => join(dir, "data", "certificates", "local", name, `${name}.crt`);
  const ready = () => existsSync(rootCertificate) && names.every((name) => existsSync(certificateOf(name)));
  for (let attempt = 0; attempt < 100 && !ready(); attempt++) {
    if (child.exitCode !== null) throw new Error(`caddy exited (${child.exitCode}):\n${output}\n${config}`);
    await new Promise((done) => setTimeout(done, 100));
  }
  assert.ok(ready(), `caddy made its internal CA and the sites' certificates:\n${output}`);
  return {
    port,
    rootCertificate,
    certificateOf,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once("exit", done));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
