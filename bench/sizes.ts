// What a page makes the browser download: its JS (module scripts, modulepreloads and
// their static imports) and CSS (stylesheets), each file gzipped as a server would send it,
// and what a first view needs over a connection cut after ~16 KB: the page's HTML and its CSS,
// brotli-compressed (HTML at quality 5, as Cloudflare compresses dynamic answers; CSS at 11, as
// the Node build precompresses static files).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

export interface AssetSizes {
  files: { url: string; raw: number; gzip: number; brotli: number }[];
  raw: number;
  gzip: number;
  brotli: number;
}

export interface PageSizes {
  html: { raw: number; gzip: number; brotli: number };
  js: AssetSizes;
  css: AssetSizes;
}

/** What the HTML and the CSS of a first view may each weigh compressed: ~16 KB less the headers. */
export const FIRST_VIEW_BUDGET = 14_000;

const gzip = (data: Uint8Array) => gzipSync(data).byteLength;
const brotli = (data: Uint8Array, quality: number) =>
  brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: quality } }).byteLength;

function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of tag.matchAll(/([a-zA-Z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    found[(match[1] as string).toLowerCase()] = match[2] ?? match[3] ?? "";
  }
  return found;
}

/** Static imports in a module's source ("from './x.js'", "import './x.js'"); dynamic import() is not loaded up front. */
function staticImports(source: string): string[] {
  return [...source.matchAll(/(?:\bfrom|\bimport)\s*["']([^"']+\.m?js)["']/g)].map((match) => match[1] as string);
}

/** `headers`: e.g. a session cookie, for pages only a signed-in player sees. */
export async function measurePage(pageUrl: string, headers: Record<string, string> = {}): Promise<PageSizes> {
  const response = await fetch(pageUrl, { headers, redirect: "manual" });
  if (!response.ok) throw new Error(`${pageUrl} answered ${response.status}`);
  const html = await response.text();
  const htmlBytes = new TextEncoder().encode(html);

  const js = new Set<string>();
  const css = new Set<string>();
  for (const [tag] of html.matchAll(/<(?:link|script)\b[^>]*>/gi)) {
    const attrs = attributes(tag);
    const rel = attrs.rel?.toLowerCase();
    if (tag.toLowerCase().startsWith("<link") && rel === "modulepreload" && attrs.href) js.add(attrs.href);
    if (tag.toLowerCase().startsWith("<link") && rel === "stylesheet" && attrs.href) css.add(attrs.href);
    if (tag.toLowerCase().startsWith("<script") && attrs.src) js.add(attrs.src);
  }
  // Inline module scripts (React Router's hydration entry) import the route modules.
  for (const [, source] of html.matchAll(/<script\b[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/gi)) {
    for (const specifier of staticImports(source ?? "")) js.add(specifier);
  }

  return {
    html: { raw: htmlBytes.byteLength, gzip: gzip(htmlBytes), brotli: brotli(htmlBytes, 5) },
    js: await download([...js], pageUrl, true),
    css: await download([...css], pageUrl, false),
  };
}

async function download(urls: string[], base: string, followImports: boolean): Promise<AssetSizes> {
  const queue = urls.map((url) => new URL(url, base).href);
  const seen = new Set<string>();
  const files: AssetSizes["files"] = [];
  while (queue.length > 0) {
    const url = queue.shift() as string;
    if (seen.has(url)) continue;
    seen.add(url);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    files.push({ url, raw: bytes.byteLength, gzip: gzip(bytes), brotli: brotli(bytes, 11) });
    if (followImports) {
      for (const specifier of staticImports(new TextDecoder().decode(bytes))) queue.push(new URL(specifier, url).href);
    }
  }
  return totals(files);
}

function totals(files: AssetSizes["files"]): AssetSizes {
  return {
    files,
    raw: files.reduce((sum, file) => sum + file.raw, 0),
    gzip: files.reduce((sum, file) => sum + file.gzip, 0),
    brotli: files.reduce((sum, file) => sum + file.brotli, 0),
  };
}

/** The Worker as uploaded: every .js module under the server build, each gzipped. */
export function measureWorkerBundle(serverBuildDir: string): AssetSizes {
  const files: AssetSizes["files"] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.m?js$/.test(name)) {
        const bytes = readFileSync(path);
        files.push({ url: path, raw: bytes.byteLength, gzip: gzip(bytes), brotli: 0 });
      }
    }
  };
  walk(serverBuildDir);
  return totals(files);
}
