import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { type Witness, type WitnessStore, witnessSchema } from "../ports/witness.ts";

// The Node server's witness of its progress (decision 133): a small JSON file beside the database
// (or, over a libSQL server, in this instance's data folder). Written whole to a temporary file,
// synced, then renamed over the old one, and the folder synced: a crash leaves the old witness or
// the new one, never half of either.

export function witnessFile(path: string): WitnessStore {
  return {
    async read() {
      let text: string;
      try {
        text = readFileSync(path, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
      try {
        const parsed = witnessSchema.safeParse(JSON.parse(text));
        return parsed.success ? parsed.data : null;
      } catch {
        // Not ours any more (edited by hand): begin again rather than stop the watch.
        return null;
      }
    },
    async write(witness: Witness) {
      const temporary = `${path}.${process.pid}.tmp`;
      try {
        const file = openSync(temporary, "w", 0o600);
        try {
          writeSync(file, JSON.stringify(witness));
          fsyncSync(file);
        } finally {
          closeSync(file);
        }
        renameSync(temporary, path);
      } catch (error) {
        rmSync(temporary, { force: true });
        throw error;
      }
      syncFolder(dirname(path));
    },
  };
}

function syncFolder(folder: string): void {
  let handle: number | null = null;
  try {
    handle = openSync(folder, "r");
    fsyncSync(handle);
  } catch {
    // Some file systems can't sync a folder; the rename is still atomic.
  } finally {
    if (handle !== null) closeSync(handle);
  }
}
