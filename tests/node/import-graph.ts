import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

// The project's own import graph, read from the source text: which file imports which, and
// whether only for types (erased at build time, so it ties no runtime code together).

export interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
}

const ROOT = resolve(import.meta.dirname, "../..");
const SOURCE_DIRS = ["core", "app", "worker", "db", "scripts", "bench", "tests"];
const ALIASES: Record<string, string> = {
  "#app/": "app/",
  "#worker/": "worker/",
  "#db/": "db/",
  "#core/": "core/",
  "#tests/": "tests/",
};

function sourceFiles(dir: string): string[] {
  const absolute = join(ROOT, dir);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name.startsWith(".")) return [];
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

function resolveSpecifier(fromFile: string, specifier: string): string | null {
  let target: string | null = null;
  for (const [alias, dir] of Object.entries(ALIASES)) {
    if (specifier.startsWith(alias)) target = dir + specifier.slice(alias.length);
  }
  if (specifier.startsWith(".")) target = relative(ROOT, resolve(ROOT, dirname(fromFile), specifier));
  if (target === null) return null; // a package
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`]) {
    if (existsSync(join(ROOT, candidate)) && statSync(join(ROOT, candidate)).isFile()) return candidate;
  }
  return target;
}

// `import … from "x"`, `export … from "x"`, `import "x"`, `import("x")`.
const IMPORT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^;'"]*?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** `import { type A, type B } from "x"`: every name is a type, and there is no default or namespace import. */
function onlyTypesNamed(clause: string): boolean {
  const named = /^\s*import\s*\{([^}]*)\}\s*from/.exec(clause);
  if (!named?.[1]) return false;
  const names = named[1]
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((name) => name.startsWith("type "));
}

export function importGraph(): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of SOURCE_DIRS.flatMap(sourceFiles)) {
    const text = readFileSync(join(ROOT, file), "utf8");
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[3] ?? match[4];
      if (!specifier) continue;
      const to = resolveSpecifier(file, specifier);
      if (to === null) continue;
      edges.push({ from: file, to, typeOnly: Boolean(match[2]) || onlyTypesNamed(match[0]) });
    }
  }
  return edges;
}

/** Every cycle of runtime imports, each as the files around it. */
export function runtimeCycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges.filter((e) => !e.typeOnly)) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  // Tarjan's strongly connected components: any component of more than one file is a cycle.
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!indices.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, indices.get(target) ?? 0));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (next.get(node) ?? []).includes(node)) cycles.push(component.sort());
    }
  };
  for (const node of next.keys()) if (!indices.has(node)) visit(node);
  return cycles;
}
