import { serversSeedSql } from "./servers.ts";

/** Every seed statement, in dependency order. */
export function seedStatements(): string[] {
  return [...serversSeedSql()];
}
