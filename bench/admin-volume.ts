// Store-sized history for the `admin` bench target: 5 000 players with 20 000 completed top-ups and
// 100 000 purchases over the last 40 days, each with its ledger row, so balance = sum(ledger) holds.
// Generated inside SQLite (recursive CTEs), loaded into the bench's local D1 before it is served.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export const VOLUME = { players: 5_000, topUps: 20_000, purchases: 100_000 } as const;

const DAY = 86_400_000;

export function adminVolumeSql(now = Date.now()): string[] {
  const { players, topUps, purchases } = VOLUME;
  const start = now - 40 * DAY;
  const span = 40 * DAY;
  const player = (i: string) =>
    `(SELECT id FROM users WHERE steam_id = '765611990' || printf('%08d', (${i} % ${players}) + 1))`;
  return [
    `INSERT INTO users (steam_id, nickname, avatar_url, balance)
     WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${players})
     SELECT '765611990' || printf('%08d', i), 'Нагрузка ' || i, '', 0 FROM n;`,
    `INSERT INTO payments (id, user_id, provider, provider_payment_id, amount, email, status, created_at, completed_at)
     WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${topUps - 1})
     SELECT 'bench-pay-' || i, ${player("i")}, 'standin', 'bench-provider-' || i, 500000, 'bench@example.com',
       'completed', ${start} + (i * 7919 % ${span}), ${start} + (i * 7919 % ${span}) FROM n;`,
    `INSERT INTO ledger (user_id, amount, kind, payment_id, provider_payment_id, created_at)
     SELECT user_id, amount, 'deposit', id, provider_payment_id, completed_at FROM payments WHERE id LIKE 'bench-pay-%';`,
    `INSERT INTO purchases (user_id, item_id, transaction_id, idempotency_key, server_type, duration_days, price, status, paid_at, created_at)
     WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${purchases - 1}),
       catalog AS (SELECT id, server_type, price, row_number() OVER (ORDER BY id) - 1 AS k, COUNT(*) OVER () AS total FROM items)
     SELECT ${player("i")}, c.id, 'bench-tx-' || n.i, 'bench-key-' || n.i, c.server_type, NULL, c.price, 'completed',
       ${start} + (n.i * 104729 % ${span}), ${start} + (n.i * 104729 % ${span})
     FROM n JOIN catalog c ON c.k = n.i % c.total;`,
    `INSERT INTO ledger (user_id, amount, kind, purchase_id, created_at)
     SELECT user_id, -price, 'purchase', id, paid_at FROM purchases WHERE transaction_id LIKE 'bench-tx-%';`,
    `UPDATE users SET balance = (SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE ledger.user_id = users.id)
     WHERE steam_id LIKE '765611990%';`,
  ];
}

/** Loads the volume into a local D1 kept in `stateDir` (the same flags as scripts/seed-local.ts). */
export function loadAdminVolume(stateDir: string, wranglerEnv = "e2e"): void {
  const file = join(".wrangler", "admin-volume.sql");
  writeFileSync(file, `${adminVolumeSql().join("\n")}\n`);
  execFileSync(
    join("node_modules", ".bin", "wrangler"),
    ["d1", "execute", "DB", "--local", "--persist-to", stateDir, "--env", wranglerEnv, "--file", file],
    { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" } },
  );
}
