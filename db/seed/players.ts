// Demo players for local use and browser tests: site users for the Steam accounts
// the stand-in knows (worker/integrations/stand-ins/demo-players.ts). Their balances
// come from ledger rows, so balance = sum(ledger).
import { demoSteamAccounts } from "../../worker/integrations/stand-ins/demo-players.ts";
import { sqlLiteral } from "./sql.ts";

const balances: Record<(typeof demoSteamAccounts)[number]["steamId"], number> = {
  // "Демо-игрок": the stand-in's default player, with 5 000 ₽ to spend.
  "76561198000000001": 500_000,
  // A second player with an empty balance, for the short-of-funds path.
  "76561198000000002": 0,
  // `npm run bench` buys with this one: 1 000 000 ₽ lasts thousands of purchases.
  "76561198000000009": 100_000_000,
};

export const seedPlayers = demoSteamAccounts.map((account) => ({ ...account, balance: balances[account.steamId] }));

export function playersSeedSql(): string[] {
  return seedPlayers.flatMap((player) => {
    const user = `(SELECT id FROM users WHERE steam_id = ${sqlLiteral(player.steamId)})`;
    const statements = [
      `INSERT INTO users (steam_id, nickname, avatar_url, balance) VALUES (${sqlLiteral(player.steamId)}, ${sqlLiteral(player.nickname)}, '', 0) ON CONFLICT(steam_id) DO NOTHING;`,
    ];
    if (player.balance > 0) {
      // Credited once: the provider payment id is unique on the ledger.
      statements.push(
        `INSERT INTO ledger (user_id, amount, kind, provider_payment_id) VALUES (${user}, ${player.balance}, 'adjustment', ${sqlLiteral(`seed:${player.steamId}`)}) ON CONFLICT(provider_payment_id) DO NOTHING;`,
      );
    }
    statements.push(
      `UPDATE users SET balance = (SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE user_id = users.id) WHERE steam_id = ${sqlLiteral(player.steamId)};`,
    );
    return statements;
  });
}
