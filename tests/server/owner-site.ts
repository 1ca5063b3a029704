// A site's folder as an owner has it, for tests that run the README's commands as written.
import assert from "node:assert/strict";
import { exec } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { promisify } from "node:util";

export const root = resolve(import.meta.dirname, "../..");
const readme = readFileSync(join(root, "README.md"), "utf8");

/** The shell lines starting with `prefix` in the README's section `### heading`. */
export function readmeCommands(heading: string, prefix: string): string[] {
  const start = readme.indexOf(`### ${heading}\n`);
  assert.ok(start >= 0, `the README has a "${heading}" section`);
  const end = readme.slice(start + 4).search(/\n##+ /);
  const section = readme.slice(start, end < 0 ? undefined : start + 4 + end);
  return section
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith(prefix));
}

/** A site's folder as an owner has it: package.json, scripts/, migrations/ and node_modules/, the database under data/. */
export function siteFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "site-owner-"));
  copyFileSync(join(root, "package.json"), join(folder, "package.json"));
  for (const name of ["scripts", "migrations", "node_modules"]) symlinkSync(join(root, name), join(folder, name));
  return folder;
}

/** Runs a README line with sh in `folder`, as an owner types it. */
export async function run(line: string, folder: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  try {
    const { stdout, stderr } = await promisify(exec)(line, { cwd: folder, env, encoding: "utf8" });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/**
 * The rows of `sql` in the database at `path`, through Node's own SQLite: its close() lets go of the
 * file at once, where @libsql/client's keeps it (and SQLite's shared lock) until garbage collection,
 * which made a later `npm run db:restore` of the same file refuse at random.
 */
export async function rows(path: string, sql: string): Promise<unknown[][]> {
  const database = new DatabaseSync(path, { readOnly: true });
  try {
    return database
      .prepare(sql)
      .all()
      .map((row) => Object.values(row));
  } finally {
    database.close();
  }
}

/** The ```sh blocks of the README's section `### heading` (or `## heading`: `level` 2), in order, each as its lines without comment lines. */
export function readmeShellBlocks(heading: string, level = 3): string[][] {
  const start = readme.indexOf(`${"#".repeat(level)} ${heading}\n`);
  assert.ok(start >= 0, `the README has a "${heading}" section`);
  const end = readme.slice(start + level + 1).search(/\n##+ /);
  const section = readme.slice(start, end < 0 ? undefined : start + level + 1 + end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) =>
    (match[1] ?? "")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("#")),
  );
}
