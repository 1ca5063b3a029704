// What bench/rows/run.ts asks of a run, handed to the runtimes as one JSON setting.
export interface RowsOptions {
  sizes: number[];
  runs: number;
  only?: string[];
  verbose?: boolean;
  /** The purchases of the player whose pages are read (200 when absent). */
  playerPurchases?: number;
}

export function rowsOptions(text: string | undefined): RowsOptions {
  const given = JSON.parse(text || "{}") as Partial<RowsOptions>;
  return {
    sizes: given.sizes ?? [10_000, 100_000, 1_000_000],
    runs: given.runs ?? 3,
    only: given.only,
    verbose: given.verbose,
    playerPurchases: given.playerPurchases,
  };
}
