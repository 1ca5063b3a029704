// `npm run dev`: local D1 with migrations and seed data, the Vite dev server
// with the Worker in workerd, and the status cron fired at start and every minute.
import { execFileSync, spawn } from "node:child_process";

const PORT = 5173;
const origin = `http://localhost:${PORT}`;
const CRON_URL = `${origin}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`;

execFileSync(process.execPath, ["scripts/seed-local.ts"], { stdio: "inherit" });

const vite = spawn("node_modules/.bin/vite", ["dev", "--port", String(PORT), "--strictPort"], {
  stdio: "inherit",
  env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
});
let timer: ReturnType<typeof setInterval> | undefined;
// Registered before anything awaits, so a Vite that fails to start ends this script too.
vite.on("exit", (code) => {
  clearInterval(timer);
  process.exit(code ?? 0);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    clearInterval(timer);
    vite.kill(signal);
  });
}

// Wrangler runs no cron locally; the Cloudflare Vite plugin exposes this endpoint instead.
async function fireCron(): Promise<"ok" | "down" | number> {
  try {
    const response = await fetch(CRON_URL);
    await response.body?.cancel();
    return response.ok ? "ok" : response.status;
  } catch {
    return "down"; // still starting
  }
}

let first = await fireCron();
for (let attempt = 0; first === "down" && attempt < 120; attempt++) {
  await new Promise((resolve) => setTimeout(resolve, 500));
  first = await fireCron();
}
if (first !== "ok") console.warn(`\n  The status cron did not run (${first}); the server list may stay empty.`);
timer = setInterval(async () => {
  const result = await fireCron();
  if (result !== "ok") console.warn(`  Status cron: ${result}`);
}, 60_000);

console.log(`\n  Site: ${origin}  (sign in as a demo player through the local Steam stand-in)\n`);
