// Plugin 3's side of the delivery protocol (decision 124), for the site's tests: it polls, checks every
// answer's v3 signature as the C# does, and reports each command's progress under its lease.
import { expect } from "vitest";
import { answerSignature, type PluginSimulator } from "./plugin-simulator.ts";

export interface ServedV3 {
  delivery_id: string;
  commands: string[];
  done: number[];
  lease: number;
  retry: number;
  title: string;
  kind: string;
  steam_id: string;
  requires_online: boolean;
  duration_days: number | null;
}

export interface ReportV3 {
  delivery_id: string;
  ok: boolean;
  progress: string;
  lease: number;
  message?: string;
}

/** Plugin 3's side of the protocol: it checks every answer's v3 signature, as the C# does. */
export class Plugin3 {
  constructor(
    readonly sim: PluginSimulator,
    private readonly key: string,
  ) {}

  async poll(online: string[], skipped: { delivery_id: string; lease: number }[] = []): Promise<ServedV3[]> {
    const answer = await this.sim.post("/api/game/queue", { online, skipped, site_seq: 0 });
    expect(answer.status).toBe(200);
    const served = answer.json.deliveries as ServedV3[];
    const lines = ["v3"];
    for (const d of served) {
      lines.push(
        d.delivery_id,
        d.kind,
        d.steam_id,
        d.requires_online ? "1" : "0",
        d.title,
        d.duration_days === null ? "" : String(d.duration_days),
        String(d.lease),
        String(d.retry),
        d.done.join(","),
        String(d.commands.length),
        ...d.commands,
      );
    }
    const text = `${answer.requestSignature}\n\n${lines.join("\n")}`;
    expect(answer.json.response_signature_v3).toBe(await answerSignature(this.key, text));
    return served;
  }

  async report(results: ReportV3[]) {
    const answer = await this.sim.post("/api/game/ack", { results });
    if (answer.status === 200) {
      const rows = answer.json.results as { delivery_id: string; status: string }[];
      const text = `${answer.requestSignature}\nack3\n${answer.json.ack_seq}\n${rows.flatMap((r) => [r.delivery_id, r.status]).join("\n")}`;
      expect(answer.json.response_signature_v3).toBe(await answerSignature(this.key, text));
    }
    return answer;
  }
}
