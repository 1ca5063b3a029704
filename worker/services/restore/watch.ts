import { z } from "zod";
import type { Deps } from "../../deps.ts";
import { rawSql, statement } from "../../ports/database.ts";
import type { SiteProgress, Witness, WitnessStore } from "../../ports/witness.ts";
import { isEmpty, lostProgress, readSiteProgress, sameProgress } from "./progress.ts";

// The site notices any restore by itself (decision 133): each minute the cron compares the
// database's progress with the witness kept outside it. Behind it, the database was put back (D1
// Time Travel, Turso's restore, a file copied back): every server is marked to send again what it
// delivered since, as `npm run db:restore` marks them, so no type's deliveries move until each of its
// servers has (decision 124) or an operator stops waiting for one.

/** The last restore found, in the key-value store (`restore-detected:v1`). */
export const RESTORE_KEY = "restore-detected:v1";

export interface DetectedRestore {
  /** When the minutely watch found the database behind its witness, ms. */
  detectedAt: number;
  /** When the witness last saw the progress the database no longer has, ms. */
  witnessedAt: number;
  /**
   * How new the restored data is: its newest ledger row or Корзина entry, ms (0 when it has none).
   * What happened after it (payments, purchases) may be lost from the database.
   */
  dataUpTo: number;
  /** What the database no longer has, one line each ("ledger 120 < 130"). */
  lost: string[];
  witnessed: SiteProgress;
  found: SiteProgress;
}

const restoreSchema = z.object({ detectedAt: z.number() }).passthrough();

async function lastRestoreAt(deps: Deps): Promise<number | null> {
  const raw = await deps.kv.get(RESTORE_KEY);
  if (raw === null) return null;
  try {
    const parsed = restoreSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data.detectedAt : null;
  } catch {
    return null;
  }
}

export interface WatchResult {
  /** The witness as it stands after this run (what the status document carries on Workers). */
  witness: Witness;
  /** Set when this run found the database put back. */
  restore: DetectedRestore | null;
}

export async function watchForRestore(deps: Deps, store: WitnessStore): Promise<WatchResult> {
  const now = deps.now().getTime();
  const [{ progress, newest }, witness] = await Promise.all([readSiteProgress(deps.db), store.read()]);
  const current: Witness = witness && sameProgress(witness.progress, progress) ? witness : { at: now, progress };
  const lost = witness ? lostProgress(witness.progress, progress) : [];
  // No witness yet, or an empty database (a new site): nothing to have lost.
  if (!witness || lost.length === 0 || isEmpty(progress) || (await noticedSince(deps, witness))) {
    if (current !== witness) await store.write(current);
    return { witness: current, restore: null };
  }
  await deps.db.run(statement(rawSql("UPDATE servers SET needs_resync = 1")));
  const restore: DetectedRestore = {
    detectedAt: now,
    witnessedAt: witness.at,
    dataUpTo: newest,
    lost,
    witnessed: witness.progress,
    found: progress,
  };
  await deps.kv.put(RESTORE_KEY, JSON.stringify(restore));
  console.error(
    JSON.stringify({
      event: "restore_detected",
      ...restore,
      message:
        "the database is behind the site's witness: it was restored; every server re-sends before deliveries move",
    }),
  );
  await store.write(current);
  return { witness: current, restore };
}

/**
 * Whether a restore was found after this witness was written: on Node, several instances over one
 * libSQL server each keep a witness, and the one whose witness is older than the restore's finding
 * was told of it by the instance that found it; on Workers the status document may not carry the new
 * witness yet (it is written at most every 110 s).
 */
async function noticedSince(deps: Deps, witness: Witness): Promise<boolean> {
  const at = await lastRestoreAt(deps);
  return at !== null && at > witness.at;
}
