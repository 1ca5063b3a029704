import type { Deps } from "../../deps.ts";
import { type CatalogSnapshot, catalogSnapshot } from "./catalog-snapshot.ts";

export interface CatalogVersion {
  /** Changes whenever anything a shop page shows of the catalog changes. */
  version: string;
  /** When the next limited offer starts or ends (ms), which changes the version by itself; null if none will. */
  changesAt: number | null;
}

/**
 * What the pages show of `catalog` at `now`: its revision (moved by every write to items, durations,
 * contents and categories, decision 102) and which limited offers have started and ended.
 */
export function catalogVersionAt(catalog: CatalogSnapshot, now: number): CatalogVersion {
  const passed = catalog.saleBoundaries.findIndex((time) => time > now);
  const changesAt = passed === -1 ? null : (catalog.saleBoundaries[passed] ?? null);
  const state = passed === -1 ? catalog.saleBoundaries.length : passed;
  return { version: `${catalog.revision}.${state}`, changesAt };
}

/** The version of the catalog as it is now. */
export async function readCatalogVersion(deps: Pick<Deps, "db" | "now">): Promise<CatalogVersion> {
  return catalogVersionAt(await catalogSnapshot(deps), deps.now().getTime());
}
