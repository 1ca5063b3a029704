// The site's variables and secrets, under the same names on every runtime: wrangler.jsonc "vars",
// secrets and .dev.vars on Workers; the environment (or .env) on the owner's own server.
export interface Settings {
  APP_ENV: string;
  PUBLIC_URL: string;
  DISCORD_URL: string;
  STEAM_WEBAPI_BASE: string;
  STEAM_OPENID_ENDPOINT: string;
  STEAM_API_KEY?: string;
  SESSION_SECRET?: string;
  // Derives the game servers' plugin keys (decision 103); 32+ characters, required in production.
  GAME_KEY_SECRET?: string;
  PAYMENT_PROVIDER: string;
  YOOKASSA_API_BASE: string;
  // Where Discord webhook messages go (decision 110): a webhook URL's id and token are appended to it.
  DISCORD_WEBHOOK_BASE?: string;
  YOOKASSA_SHOP_ID?: string;
  YOOKASSA_SECRET_KEY?: string;
  YOOKASSA_TRUSTED_IPS?: string;
  // Comma-separated SteamID64s of the operator console's admins, beside the roles stored by `npm run admins`.
  ADMIN_STEAM_IDS?: string;
  // The seller's details for the footer and the terms (card payments in Russia need them); each optional.
  SELLER_NAME?: string;
  /** ИНН: 10 digits (an organisation) or 12 (an individual entrepreneur). */
  SELLER_INN?: string;
  SUPPORT_EMAIL?: string;
  // The most rows one CSV file may hold; a longer period is downloaded in parts (decision 115). Set on
  // Workers, where the free plan allows 10 ms of CPU a request; unset on the owner's own server: no limit.
  EXPORT_ROWS_PER_FILE?: string;
}
