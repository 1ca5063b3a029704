// A protocol client for the worker tests: it signs requests as plugins/oxide/RustStoreDelivery.cs
// does, checks the answers' signatures (queue, ack and pending; an answer that doesn't verify
// throws), and keeps a journal (an id journaled as started before its commands run is
// acknowledged, never run again; one still "started" after a crash is acknowledged as
// interrupted), over a console modelled on the plugin's checks of each command's effect (Oxide's
// groups; no reply words, decision 109). It drives the real /api/game endpoints
// in-process, so the site's rules (leases, retries, stacked ranks) are tested fast on D1 and
// libSQL. The plugin itself, with its own journal and its game-API checks, is run for real under
// mono against the running site in tests/plugin (decision 109).

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function hmacKey(serverKey: string): Promise<CryptoKey> {
  // Like the plugin: the HMAC key is SHA-256(key), the value the site stores.
  const derived = await crypto.subtle.digest("SHA-256", encoder.encode(serverKey));
  return crypto.subtle.importKey("raw", derived, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** HMAC-SHA256 hex over `message` with the HMAC key the plugin makes of `serverKey`. */
export async function hmacHex(serverKey: string, message: string): Promise<string> {
  return hex(await crypto.subtle.sign("HMAC", await hmacKey(serverKey), encoder.encode(message)));
}

export type Transport = (request: Request) => Promise<Response>;

export interface SignedRequest {
  path: string;
  body: string;
  timestamp: number;
  signature: string;
}

/** Signs `body` for `path` exactly as the plugin does. */
export async function signRequest(
  serverKey: string,
  path: string,
  body: string,
  timestampSeconds: number,
  method = "POST",
): Promise<SignedRequest> {
  const signature = await hmacHex(serverKey, `${timestampSeconds}\n${method}\n${path}\n${body}`);
  return { path, body, timestamp: timestampSeconds, signature };
}

export interface QueueDelivery {
  delivery_id: string;
  kind: "grant" | "revoke";
  steam_id: string;
  requires_online: boolean;
  commands: string[];
  /** The lease's number, which a plugin-3 report names (decision 124). */
  lease: number;
}

interface JournalEntry {
  ok: boolean;
  message: string;
  acked: boolean;
  /** Its commands began and have not all finished: after a crash it is acked as interrupted. */
  started?: boolean;
}

export type AckStatus = "done" | "retry" | "failed" | "duplicate";

export interface AckRequestResult {
  delivery_id: string;
  ok: boolean;
  message?: string;
  interrupted?: boolean;
}

/** The canonical forms both sides sign the ack and pending answers over (response-signature.ts). */
export function ackAnswerText(requestSignature: string, results: { delivery_id: string; status: string }[]): string {
  return `${requestSignature}\nack\n${results.flatMap((result) => [result.delivery_id, result.status]).join("\n")}`;
}

export function refusedAnswerText(requestSignature: string, ids: string[]): string {
  return `${requestSignature}\nrefused\n${ids.join("\n")}`;
}

export function pendingAnswerText(
  requestSignature: string,
  items: { name: string; duration_days: number | null; failed: boolean }[],
): string {
  const lines = items.flatMap((item) => [
    item.name,
    item.duration_days === null ? "" : String(item.duration_days),
    item.failed ? "1" : "0",
  ]);
  return `${requestSignature}\npending\n${lines.join("\n")}`;
}

/** The HMAC the plugin expects over `text` with this server key. */
export function answerSignature(serverKey: string, text: string): Promise<string> {
  return hmacHex(serverKey, text);
}

/** The plugin's data file: it survives a crash (share one journal between simulator instances). */
export class PluginJournal {
  readonly entries = new Map<string, JournalEntry>();
}

/**
 * The game server as the plugin sees it: what ran, and the Oxide groups it changed. Like the plugin's
 * `Execute`, `oxide.usergroup add|remove <steamid> <group>` fails when the group doesn't exist or
 * the player's membership didn't change; every other command succeeds unless `failWith` says why not.
 */
export class GameConsole {
  /** The commands that ran and took effect, in order. */
  readonly executed: { delivery_id: string; command: string }[] = [];
  /** Oxide groups that exist on this server, with their members. */
  readonly groups = new Map<string, Set<string>>([["vip", new Set<string>()]]);
  /** The reason a command fails (the game refused it, or it threw); null lets it run. */
  failWith: ((command: string) => string | null) | null = null;
  /** Another plugin's hook undoes group changes as they happen (the plugin sees no effect). */
  groupChangesUndone = false;

  commandsFor(deliveryId: string): string[] {
    return this.executed.filter((entry) => entry.delivery_id === deliveryId).map((entry) => entry.command);
  }

  inGroup(steamId: string, group: string): boolean {
    return this.groups.get(group.toLowerCase())?.has(steamId) ?? false;
  }

  /** Runs one command and checks its effect, as the plugin does: the failure's text, or null. */
  run(command: string): string | null {
    const failure = this.failWith?.(command);
    if (failure) return failure;
    const usergroup = /^oxide\.usergroup (add|remove) (\S+) (\S+)$/.exec(command.trim());
    if (!usergroup) return null;
    const [, action, steamId = "", group = ""] = usergroup;
    const members = this.groups.get(group.toLowerCase());
    if (!members) return `Группа «${group}» не существует в Oxide (oxide.group add ${group})`;
    const adding = action === "add";
    if (!this.groupChangesUndone) {
      if (adding) members.add(steamId);
      else members.delete(steamId);
    }
    if (members.has(steamId) === adding) return null;
    return `После «${command.trim()}» игрок ${adding ? "не в группе" : "всё ещё в группе"} ${group}`;
  }
}

export interface SimulatorOptions {
  transport: Transport;
  baseUrl?: string;
  serverId: number;
  serverKey: string;
  now: () => Date;
  journal?: PluginJournal;
  console?: GameConsole;
}

export interface TickOptions {
  /** Stop after running commands and journaling them, before the ack: the server "crashed". */
  crashBeforeAck?: boolean;
  /** Stop after the first command of the first delivery, before its result is journaled: "crashed". */
  crashMidDelivery?: boolean;
}

export class PluginSimulator {
  readonly journal: PluginJournal;
  readonly console: GameConsole;
  private readonly baseUrl: string;
  private readonly options: SimulatorOptions;

  // No parameter property: Node's own TypeScript (strip-only) loads this file too (tests/server).
  constructor(options: SimulatorOptions) {
    this.options = options;
    this.journal = options.journal ?? new PluginJournal();
    this.console = options.console ?? new GameConsole();
    this.baseUrl = options.baseUrl ?? "http://localhost";
  }

  get serverId(): number {
    return this.options.serverId;
  }

  /** A restarted plugin: same journal and console, fresh process. */
  restart(): PluginSimulator {
    return new PluginSimulator({ ...this.options, journal: this.journal, console: this.console });
  }

  async sign(path: string, payload: unknown, skewSeconds = 0): Promise<SignedRequest> {
    const timestamp = Math.floor(this.options.now().getTime() / 1000) + skewSeconds;
    return signRequest(this.options.serverKey, path, JSON.stringify(payload), timestamp);
  }

  /** Sends an already signed request (tests replay or tamper with these). */
  send(signed: SignedRequest, headers: Record<string, string> = {}): Promise<Response> {
    return this.options.transport(
      new Request(`${this.baseUrl}${signed.path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-server-id": String(this.options.serverId),
          "x-timestamp": String(signed.timestamp),
          "x-signature": signed.signature,
          ...headers,
        },
        body: signed.body,
      }),
    );
  }

  async post(
    path: string,
    payload: unknown,
  ): Promise<{ status: number; json: Record<string, unknown>; requestSignature: string }> {
    const signed = await this.sign(path, payload);
    const response = await this.send(signed);
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // A proxy's error page: the plugin treats it as "try again later".
    }
    return { status: response.status, json, requestSignature: signed.signature };
  }

  private async expectSigned(json: Record<string, unknown>, text: string, what: string): Promise<void> {
    if ((await answerSignature(this.options.serverKey, text)) !== json.response_signature) {
      throw new Error(`${what} answer signature mismatch`);
    }
  }

  heartbeat(online: string[], extra: Partial<Record<string, unknown>> = {}) {
    return this.post("/api/game/heartbeat", {
      hostname: "Симулятор",
      players: online.length,
      max_players: 100,
      queue: 0,
      map: "Procedural Map",
      online,
      ...extra,
    });
  }

  /**
   * Polls the queue and, like the plugin, refuses an answer whose signature doesn't match. It sends a
   * counter as plugin 3 does (the site gives a plugin without one nothing, decision 134); it keeps none,
   * so it is never asked to re-send.
   */
  async poll(online: string[]): Promise<{ status: number; deliveries: QueueDelivery[] }> {
    const signed = await this.sign("/api/game/queue", { online, site_seq: 0 });
    const response = await this.send(signed);
    if (response.status !== 200) return { status: response.status, deliveries: [] };
    const json = (await response.json()) as { deliveries?: QueueDelivery[]; response_signature?: string };
    const deliveries = json.deliveries ?? [];
    const lines: string[] = [];
    for (const delivery of deliveries) {
      lines.push(
        delivery.delivery_id,
        delivery.kind,
        delivery.steam_id,
        delivery.requires_online ? "1" : "0",
        String(delivery.commands.length),
        ...delivery.commands,
      );
    }
    const expected = await hmacHex(this.options.serverKey, `${signed.signature}\n${lines.join("\n")}`);
    if (expected !== json.response_signature) throw new Error("queue answer signature mismatch");
    return { status: response.status, deliveries };
  }

  /** Acknowledges results and, like the plugin, refuses an answer (200, 403, 404) whose signature doesn't match. */
  async ack(results: AckRequestResult[]) {
    const answer = await this.post("/api/game/ack", { results });
    const { status, json, requestSignature } = answer;
    if (status === 200) {
      const rows = (json.results as { delivery_id: string; status: string }[] | undefined) ?? [];
      await this.expectSigned(json, ackAnswerText(requestSignature, rows), "ack");
    } else if (status === 403 || status === 404) {
      const ids = (json.delivery_ids as string[] | undefined) ?? [];
      await this.expectSigned(json, refusedAnswerText(requestSignature, ids), "refused ack");
    }
    return answer;
  }

  /** What waits for a player; like the plugin, refuses an answer whose signature doesn't match. */
  async pending(steamId: string) {
    const answer = await this.post("/api/game/pending", { steam_id: steamId });
    if (answer.status === 200) {
      const items = (answer.json.items as { name: string; duration_days: number | null; failed: boolean }[]) ?? [];
      await this.expectSigned(answer.json, pendingAnswerText(answer.requestSignature, items), "pending");
    }
    return answer;
  }

  /** Acknowledges every journaled result not yet accepted, like the plugin's flush. */
  async flushAcks(): Promise<number | null> {
    const waiting = [...this.journal.entries].filter(([, entry]) => !entry.acked);
    if (waiting.length === 0) return null;
    const { status, json } = await this.ack(
      waiting.map(([id, entry]) =>
        entry.started
          ? { delivery_id: id, ok: false, message: "", interrupted: true }
          : { delivery_id: id, ok: entry.ok, message: entry.message },
      ),
    );
    if (status === 200) {
      for (const [, entry] of waiting) entry.acked = true;
    } else if (status === 403 || status === 404) {
      // Ids the site will never accept from us: drop them, the rest go again next time.
      for (const id of (json.delivery_ids as string[] | undefined) ?? []) {
        const entry = this.journal.entries.get(id);
        if (entry) entry.acked = true;
      }
    }
    return status;
  }

  /** One poll cycle of the plugin: flush old acks, poll, run what is new, journal, ack. */
  async tick(online: string[], options: TickOptions = {}): Promise<QueueDelivery[]> {
    await this.flushAcks();
    const { deliveries } = await this.poll(online);
    for (const delivery of deliveries) {
      const known = this.journal.entries.get(delivery.delivery_id);
      // Ran before a crash (or its ack was lost): acknowledge, never run again. Only a failure
      // the site accepted is a retry that runs again.
      if (known && (!known.acked || known.ok)) {
        known.acked = false;
        continue;
      }
      if (delivery.requires_online && !online.includes(delivery.steam_id)) continue; // left meanwhile
      const entry: JournalEntry = { ok: true, message: "", acked: false, started: true };
      this.journal.entries.set(delivery.delivery_id, entry); // journal BEFORE running
      for (const command of delivery.commands) {
        const failure = this.console.run(command);
        if (!failure) this.console.executed.push({ delivery_id: delivery.delivery_id, command });
        if (options.crashMidDelivery) return deliveries; // the process died here: the entry stays "started"
        if (failure) {
          entry.ok = false;
          entry.message = failure;
          break;
        }
      }
      entry.started = false;
    }
    if (!options.crashBeforeAck) await this.flushAcks();
    return deliveries;
  }
}
