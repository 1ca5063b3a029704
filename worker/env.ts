// Bindings and variables of the Worker (wrangler.jsonc "vars", secrets, .dev.vars).
export interface Env {
  DB: D1Database;
  STATUS_KV: KVNamespace;
  APP_ENV: string;
  PUBLIC_URL: string;
  DISCORD_URL: string;
  STEAM_WEBAPI_BASE: string;
  STEAM_OPENID_ENDPOINT: string;
  STEAM_API_KEY?: string;
  SESSION_SECRET?: string;
  PAYMENT_PROVIDER: string;
  YOOKASSA_API_BASE: string;
  YOOKASSA_SHOP_ID?: string;
  YOOKASSA_SECRET_KEY?: string;
  YOOKASSA_TRUSTED_IPS?: string;
}
