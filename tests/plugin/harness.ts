// Drives the real plugin (plugins/oxide/RustStoreDelivery.cs) inside the mono harness
// (plugins/oxide/harness/Main.cs): one game server with its own oxide/ folder on disk, stopped
// and started like a real one, instructions in on stdin, what happened out on stdout.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";

export const HARNESS_DIR = resolve(".plugin-harness");

/** Whether mono is here; without it the plugin scenarios can't run (and CI installs it). */
export function monoAvailable(): boolean {
  try {
    execFileSync("mono", ["--version"], { stdio: "ignore" });
    execFileSync("mcs", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Compiles the plugin with the stand-ins into .plugin-harness/harness.exe. */
export function buildHarness(): void {
  execFileSync("plugins/oxide/build.sh", ["--harness", HARNESS_DIR], { stdio: ["ignore", "ignore", "inherit"] });
}

export type HarnessEvent = { ev: string } & Record<string, unknown>;

export interface PluginConfig {
  siteUrl: string;
  serverId: number;
  serverKey: string;
  allowedCommands?: string[];
  /** A certificate the game server's machine trusts besides the system's authorities (the test proxy's own, PEM). */
  trustedCertificate?: string;
  /** The authority it chains to, which the machine's certificate store holds (PEM file; unset: the certificate itself). */
  trustedAuthority?: string;
  /**
   * The doorbell (decision 148): off unless a scenario is about it, so the other scenarios poll only when
   * their game clock says so. `pollSeconds` is the poll interval, `doorbellPollSeconds` the one while it is connected;
   * the heartbeat every `heartbeatSeconds` (30 unless given), every `doorbellHeartbeatSeconds` while connected (decision 151).
   */
  doorbell?: {
    pollSeconds: number;
    doorbellPollSeconds: number;
    heartbeatSeconds?: number;
    doorbellHeartbeatSeconds?: number;
  };
  /** The poll interval with the doorbell off (15 s unless set). */
  pollSeconds?: number;
}

/**
 * A game server with the plugin: `start` is a server boot (from the last save of its world), `kill`
 * a crash (what ran after the last save is gone), `stop` Rust's `quit` (plugins unloaded, Oxide and
 * the world saved); the folder stays.
 */
export class GameServerProcess {
  readonly root: string;
  readonly events: HarnessEvent[] = [];
  private child: ChildProcessWithoutNullStreams | null = null;
  private waiting: ((event: HarnessEvent) => void) | null = null;
  private exited: Promise<void> = Promise.resolve();

  private readonly trustedCertificate: string | undefined;

  constructor(config: PluginConfig) {
    this.trustedCertificate = config.trustedCertificate;
    this.root = mkdtempSync(join(tmpdir(), "rust-server-"));
    const authority = config.trustedAuthority ?? config.trustedCertificate;
    if (authority) this.trustInMachineStore(authority);
    mkdirSync(join(this.root, "oxide", "config"), { recursive: true });
    writeFileSync(
      join(this.root, "oxide", "config", "RustStoreDelivery.json"),
      JSON.stringify({
        "Site URL (https://…)": config.siteUrl,
        "Server id": config.serverId,
        "Server key": config.serverKey,
        "Poll interval, seconds (at least 10)": config.doorbell?.pollSeconds ?? config.pollSeconds ?? 15,
        "Poll interval with the doorbell connected, seconds (at least 10)": config.doorbell?.doorbellPollSeconds ?? 15,
        "Doorbell (the site rings when a delivery is due)": config.doorbell !== undefined,
        "Heartbeat interval, seconds (at least 10)": config.doorbell?.heartbeatSeconds ?? 30,
        "Heartbeat interval with the doorbell connected, seconds (at least 10)":
          config.doorbell?.doorbellHeartbeatSeconds ?? 30,
        "Request timeout, seconds": 10,
        ...(config.allowedCommands ? { "Allowed commands (first words)": config.allowedCommands } : {}),
      }),
    );
    // The owner's map, generated two days ago (its save's creation time is the last wipe the plugin reports).
    mkdirSync(join(this.root, "server"), { recursive: true });
    writeFileSync(
      join(this.root, "server", "world.json"),
      JSON.stringify({ saved_at: 0, created_at: Date.now() - 2 * 86_400_000, players: [], ground: {} }),
    );
  }

  private get home(): string {
    return join(this.root, "home");
  }

  /**
   * The authority the machine trusts, as a real one trusts a public one: in mono's trust store of
   * this game server's user (its own HOME), where the doorbell's ClientWebSocket looks. Its TLS asks no
   * managed callback (mono 6.8's WebSocketHandle), so the harness's pinning of web requests can't stand in.
   */
  private trustInMachineStore(authority: string): void {
    mkdirSync(this.home, { recursive: true });
    execFileSync("cert-sync", ["--quiet", "--user", authority], {
      env: { ...process.env, HOME: this.home },
      stdio: ["ignore", "ignore", "inherit"],
    });
  }

  /**
   * A map wipe, done with the server stopped as owners do it: the map's save is deleted (or the seed
   * changed, which names another save), so the next start generates a new map whose save is created
   * then. Oxide's data (groups, grants) and the plugins' data files stay.
   */
  wipe(): void {
    if (this.child) throw new Error("a wipe is done with the game server stopped");
    rmSync(join(this.root, "server", "world.json"), { force: true });
  }

  /** Boots the server process and loads the plugin (Init, OnServerInitialized: first heartbeat and poll). */
  async start(): Promise<HarnessEvent[]> {
    const env = this.trustedCertificate
      ? { ...process.env, HARNESS_TRUSTED_CERTIFICATE: this.trustedCertificate, HOME: this.home }
      : process.env;
    const child = spawn("mono", [join(HARNESS_DIR, "harness.exe"), this.root], {
      stdio: ["pipe", "pipe", "pipe"],
      env,
    });
    this.child = child;
    this.exited = new Promise((done) => child.once("exit", () => done()));
    createInterface({ input: child.stdout }).on("line", (line) => {
      let event: HarnessEvent;
      try {
        event = JSON.parse(line) as HarnessEvent;
      } catch {
        event = { ev: "stdout", text: line };
      }
      this.events.push(event);
      if ((event.ev === "done" || event.ev === "died") && this.waiting) this.waiting(event);
    });
    child.stderr.on("data", (chunk) => this.events.push({ ev: "stderr", text: String(chunk) }));
    child.once("exit", (code) => {
      this.child = null;
      this.waiting?.({ ev: "exited", code });
    });
    return this.send("load");
  }

  /** Sends one instruction; answers the events it caused, once everything it set off has settled. */
  send(instruction: string): Promise<HarnessEvent[]> {
    const child = this.child;
    if (!child) return Promise.reject(new Error(`the game server is not running (${instruction})`));
    const from = this.events.length;
    return new Promise((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`no answer to «${instruction}»`)), 120_000);
      this.waiting = (event) => {
        clearTimeout(timer);
        this.waiting = null;
        if (event.ev === "done" && typeof event.error === "string") fail(new Error(event.error));
        else done(this.events.slice(from));
      };
      child.stdin.write(`${instruction}\n`);
    });
  }

  /** Moves the game's clock on: the plugin's timers fire (poll every 15 s, heartbeat every 30 s). */
  advance(seconds: number): Promise<HarnessEvent[]> {
    return this.send(`advance ${seconds}`);
  }

  /**
   * Whether the plugin logs a line containing `text` after the event `from`: frames pass in real time, the
   * game's clock standing still (no timer fires), until it does or 20 s pass. For what only a socket sets off.
   */
  async logged(text: string, from = 0): Promise<boolean> {
    const earlier = this.events.slice(from).some((event) => event.ev === "log" && String(event.text).includes(text));
    if (earlier) return true;
    const events = await this.send(`wait-log 20 ${text}`);
    return Boolean(events.find((event) => event.ev === "waited")?.found);
  }

  /**
   * Whether the plugin makes a request to `path` within 20 s, frames passing with the game's clock still;
   * what it set off has settled when this answers.
   */
  async requested(path: string): Promise<boolean> {
    const events = await this.send(`wait-request 20 ${path}`);
    return Boolean(events.find((event) => event.ev === "waited")?.found);
  }

  /** A player joins (language "ru" or "en"). */
  join(steamId: string, language = "ru", name = "Игрок"): Promise<HarnessEvent[]> {
    return this.send(`join ${steamId} ${language} ${name}`);
  }

  /** What the player holds (online or asleep) and what lies on the ground for them. */
  async inventory(steamId: string): Promise<Record<string, number>> {
    const events = await this.send(`inventory ${steamId}`);
    return (events.find((event) => event.ev === "inventory")?.items ?? {}) as Record<string, number>;
  }

  /** SIGKILL: the server dies where it stands, as in a crash. */
  async kill(): Promise<void> {
    this.child?.kill("SIGKILL");
    await this.exited;
  }

  /** Waits for the process to end by itself (a fault that kills it). */
  async died(): Promise<void> {
    await this.exited;
  }

  /** Rust's `quit`: OnServerShutdown, the plugin unloaded, Oxide's data and the world saved. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.stdin.write("quit\n");
    child.stdin.end();
    let timer: NodeJS.Timeout | undefined;
    const stopped = await Promise.race([
      this.exited.then(() => true),
      new Promise<boolean>((done) => {
        timer = setTimeout(() => done(false), 30_000);
      }),
    ]);
    // Left running, the timer kept each test file's process alive 30 s after its last scenario.
    clearTimeout(timer);
    if (!stopped) child.kill("SIGKILL");
    await this.exited;
  }

  /** Rust's automated save now (as every `server.saveinterval`): OnServerSave, then Oxide's data and the world. */
  save(): Promise<HarnessEvent[]> {
    return this.send("save");
  }

  /** Whether the player is in an Oxide group on this server (Oxide's UserHasGroup). */
  async inGroup(steamId: string, group: string): Promise<boolean> {
    const events = await this.send(`usergroup ${steamId} ${group}`);
    return Boolean(events.find((event) => event.ev === "usergroup")?.member);
  }

  /** Whether the player holds a permission on this server (Oxide's UserHasPermission). */
  async hasPermission(steamId: string, permission: string): Promise<boolean> {
    const events = await this.send(`userperm ${steamId} ${permission}`);
    return Boolean(events.find((event) => event.ev === "userperm")?.has);
  }

  get running(): boolean {
    return this.child !== null;
  }

  /** Events of one kind so far (or since `from`). */
  all(kind: string, from = 0): HarnessEvent[] {
    return this.events.slice(from).filter((event) => event.ev === kind);
  }

  logs(level?: string): string[] {
    return this.all("log")
      .filter((event) => !level || event.level === level)
      .map((event) => String(event.text));
  }
}
