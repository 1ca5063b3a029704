import { z } from "zod";

/**
 * A record of the site's progress kept outside its database (decision 133): on Workers it rides in
 * the server-status document in KV, on Node it is a file beside the database. A database found
 * behind it was put back (a restore the site was not told about).
 */
export interface Witness {
  /** When this progress was first seen, ms. */
  at: number;
  progress: SiteProgress;
}

/** Counters that only ever grow while the database lives on: any one lower means it went back. */
export interface SiteProgress {
  /** The newest ledger row's id (every deposit, purchase, refund…). */
  ledger: number;
  /** The newest Корзина entry's id. */
  entries: number;
  /** Each game server's acknowledgement counter (servers.ack_seq), by server id. */
  acks: Record<string, number>;
}

export interface WitnessStore {
  read(): Promise<Witness | null>;
  /** Keeps `witness`; called only when its progress changed. */
  write(witness: Witness): Promise<void>;
}

const count = z.number().int().min(0);
/** A witness as stored: one that doesn't parse is no witness. */
export const witnessSchema: z.ZodType<Witness> = z.object({
  at: z.number(),
  progress: z.object({ ledger: count, entries: count, acks: z.record(z.string(), count) }),
});
