import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

/** An embedded database is created on first start; its folder must exist for that. */
export function prepareFileDatabase(url: string): void {
  if (!url.startsWith("file:")) return;
  const path = url.slice("file:".length).split("?")[0] ?? "";
  if (path && path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
}
