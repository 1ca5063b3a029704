// `npm run build:node`: the Node target, built beside the one that runs and switched in at the end
// (decision 137). `build-node` is a link to `build-node.<time>/`; the build goes into a new folder,
// gets the previous build's hashed assets (pages the old version rendered still load their scripts
// and styles, from either version), and the link is replaced in one rename. A running server resolved
// the link when it started, so it serves its own folder, untouched, until it is restarted. The
// previous build is kept (a rollback's restart may need it meanwhile); older ones are removed.
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, join, resolve } from "node:path";

const LINK = "build-node";
/** The hashed assets a build made itself (not those it kept from the one before), so only one build back is kept. */
const OWN = "own-assets.json";
const folder = resolve(process.argv[2] ?? ".");
const link = join(folder, LINK);
const next = join(folder, `${LINK}.${new Date().toISOString().replace(/\D/g, "").slice(0, 17)}`);

const bin = (name: string) => join(import.meta.dirname, "../node_modules/.bin", name);
execFileSync(bin("react-router"), ["build"], {
  stdio: "inherit",
  env: { ...process.env, SITE_RUNTIME: "node", NODE_BUILD_DIRECTORY: next },
});
execFileSync(process.execPath, [join(import.meta.dirname, "compress-assets.ts"), join(next, "client")], {
  stdio: "inherit",
});

const assetFolders = ["client/assets", "server/assets"];
const own = Object.fromEntries(assetFolders.map((sub) => [sub, readdirSync(join(next, sub))]));
writeFileSync(join(next, OWN), JSON.stringify(own));

const running = existsSync(link) ? realpathSync(link) : null;
if (running) {
  const previousOwn: Record<string, string[]> | null = existsSync(join(running, OWN))
    ? JSON.parse(readFileSync(join(running, OWN), "utf8"))
    : null;
  for (const sub of assetFolders) {
    const from = join(running, sub);
    if (!existsSync(from)) continue;
    for (const name of previousOwn?.[sub] ?? readdirSync(from)) {
      const target = join(next, sub, name);
      if (!existsSync(target) && existsSync(join(from, name))) copyFileSync(join(from, name), target);
    }
  }
}

// A checkout built before decision 137 has a folder where the link goes: moved aside first (the one
// moment its server, if running, sees the new files; both builds' assets are in them).
let previous = running;
if (running && !lstatSync(link).isSymbolicLink()) {
  previous = `${link}.before-${basename(next).slice(LINK.length + 1)}`;
  renameSync(link, previous);
}
const temporary = `${link}.link-${process.pid}`;
symlinkSync(basename(next), temporary);
renameSync(temporary, link);

for (const name of readdirSync(folder)) {
  const path = join(folder, name);
  if (!name.startsWith(`${LINK}.`) || path === next || path === previous) continue;
  rmSync(path, { recursive: true, force: true });
}
console.log(`Built ${basename(next)}; ${LINK} now links to it${previous ? ` (kept ${basename(previous)})` : ""}.`);
