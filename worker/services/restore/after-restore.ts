import type { Deps } from "../../deps.ts";
import { markRestoreForPayments } from "../payments/after-restore.ts";
import type { DetectedRestore } from "./watch.ts";

/**
 * What else runs, once, in the minute the watch finds the database put back (decision 133), after
 * every server has been marked to re-send. Each step runs on its own: one failing is logged and keeps
 * the others from nothing; the finding itself stays in the key-value store under RESTORE_KEY for a
 * step that must look again later.
 */
export const AFTER_RESTORE_STEPS: ReadonlyArray<(deps: Deps, restore: DetectedRestore) => Promise<unknown>> = [
  // The top-ups paid since the restored data's time (decision 135): the same request `db:restore`
  // leaves, walked by the minutely job from the newest money the database still holds.
  (deps) => markRestoreForPayments(deps),
];

export async function runAfterRestoreSteps(deps: Deps, restore: DetectedRestore): Promise<void> {
  const results = await Promise.allSettled(AFTER_RESTORE_STEPS.map((step) => step(deps, restore)));
  for (const result of results) {
    if (result.status === "rejected") {
      console.error(JSON.stringify({ event: "after_restore_step_failed", error: String(result.reason) }));
    }
  }
}
