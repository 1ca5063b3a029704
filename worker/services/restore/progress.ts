import { type Database, read } from "../../ports/database.ts";
import type { SiteProgress } from "../../ports/witness.ts";

// The progress the database already keeps (decision 133): ids that only grow (the ledger and the
// Корзина are never deleted from) and each server's acknowledgement counter (decision 124). Two reads
// by primary key and one of the servers' rows: cheap enough for every minute.

const counters = read<{ ledger: number | null; entries: number | null; newest: number | null }>(
  `SELECT (SELECT MAX(id) FROM ledger) AS ledger, (SELECT MAX(id) FROM inventory_entries) AS entries,
     MAX(COALESCE((SELECT created_at FROM ledger WHERE id = (SELECT MAX(id) FROM ledger)), 0),
         COALESCE((SELECT created_at FROM inventory_entries WHERE id = (SELECT MAX(id) FROM inventory_entries)), 0)) AS newest`,
);
const acks = read<{ id: number; ack_seq: number }>("SELECT id, ack_seq FROM servers");

export interface ProgressRead {
  progress: SiteProgress;
  /** When the newest ledger row or Корзина entry was made (ms; 0 when there is none): how new the data is. */
  newest: number;
}

export async function readSiteProgress(db: Database): Promise<ProgressRead> {
  const [[row], servers] = await db.read([counters, acks] as const);
  return {
    progress: {
      ledger: Number(row?.ledger ?? 0),
      entries: Number(row?.entries ?? 0),
      acks: Object.fromEntries(servers.map((server) => [String(server.id), Number(server.ack_seq)])),
    },
    newest: Number(row?.newest ?? 0),
  };
}

/** What of `witnessed` the database no longer has, one line each; empty when it is not behind. */
export function lostProgress(witnessed: SiteProgress, now: SiteProgress): string[] {
  const lost: string[] = [];
  if (now.ledger < witnessed.ledger) lost.push(`ledger ${now.ledger} < ${witnessed.ledger}`);
  if (now.entries < witnessed.entries) lost.push(`entries ${now.entries} < ${witnessed.entries}`);
  for (const [server, seq] of Object.entries(witnessed.acks)) {
    const current = now.acks[server];
    // A server removed since is not progress lost.
    if (current !== undefined && current < seq) lost.push(`server ${server} ack_seq ${current} < ${seq}`);
  }
  return lost;
}

/** A database with nothing in it yet: a new site, never a restored one (decision 133). */
export const isEmpty = (progress: SiteProgress) =>
  progress.ledger === 0 && progress.entries === 0 && Object.values(progress.acks).every((seq) => seq === 0);

export const sameProgress = (a: SiteProgress, b: SiteProgress) =>
  a.ledger === b.ledger &&
  a.entries === b.entries &&
  Object.keys(a.acks).length === Object.keys(b.acks).length &&
  Object.entries(a.acks).every(([server, seq]) => b.acks[server] === seq);
