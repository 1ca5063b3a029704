// The Steam accounts the local Steam stand-ins know by name: the sign-in page offers
// them and GetPlayerSummaries answers with these nicknames. The seed (db/seed/players.ts)
// creates site users for the same SteamIDs and gives them their balances.
export const demoSteamAccounts = [
  { steamId: "76561198000000001", nickname: "Демо-игрок", vanity: "demo-player" },
  { steamId: "76561198000000002", nickname: "Игрок без денег", vanity: "no-money" },
  { steamId: "76561198000000009", nickname: "Нагрузочный тест", vanity: "load-test" },
] as const;
