// `npm run dev`: local D1 with migrations and seed data, the Vite dev server
// with the Worker in workerd, and the status cron fired every minute.
import { execFileSync, spawn } from "node:child_process";

const PORT = 5173;
const origin = `http://localhost:${PORT}`;

execFileSync(process.execPath, ["scripts/seed-local.ts"], { stdio: "inherit" });

const vite = spawn("node_modules/.bin/vite", ["dev", "--port", String(PORT), "--strictPort"], {
  stdio: "inherit",
  env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
});

// Wrangler runs no cron locally; the Cloudflare Vite plugin exposes this endpoint instead.
async function fireCron(): Promise<boolean> {
  try {
    return (await fetch(`${origin}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`)).ok;
  } catch {
    return false; // still starting
  }
}
const timer = setInterval(fireCron, 60_000);
for (let attempt = 0; attempt < 60 && !(await fireCron()); attempt++) {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
}

console.log(`\n  Site: ${origin}  (sign in as a demo player through the local Steam stand-in)\n`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    clearInterval(timer);
    vite.kill(signal);
  });
}
vite.on("exit", (code) => process.exit(code ?? 0));
