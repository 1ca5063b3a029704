import { existsSync } from "node:fs";
import { z } from "zod";
import { ConfigError, innSchema, loadConfig } from "../config.ts";
import type { Settings } from "../settings.ts";

// The owner's own server reads the Worker's settings under the same names from the environment
// (or .env), plus what only a process needs: where to listen and where the database is.

const optional = z.string().optional();
const flag = z.enum(["0", "1"]).default("0");

const schema = z.object({
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  // Loopback by default: the site is meant to sit behind a TLS proxy on the same machine.
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|libsql:|https?:|wss?:)/, "expected file:…, libsql://…, http(s)://… or ws(s)://…")
    .default("file:data/site.db"),
  DATABASE_AUTH_TOKEN: optional,
  MIGRATE_ON_START: flag,
  TRUST_PROXY: flag,
  APP_ENV: z.enum(["development", "test", "production"]).default("development"),
  PUBLIC_URL: z.url(),
  DISCORD_URL: z.url().default("https://discord.gg/rustfree"),
  STEAM_WEBAPI_BASE: z.url().optional(),
  STEAM_OPENID_ENDPOINT: z.url().optional(),
  STEAM_API_KEY: optional,
  SESSION_SECRET: optional,
  PAYMENT_PROVIDER: z.enum(["standin", "yookassa"]).optional(),
  YOOKASSA_API_BASE: z.url().optional(),
  YOOKASSA_SHOP_ID: optional,
  YOOKASSA_SECRET_KEY: optional,
  YOOKASSA_TRUSTED_IPS: optional,
  SELLER_NAME: z.string().trim().max(200).optional(),
  SELLER_INN: innSchema.optional(),
  SUPPORT_EMAIL: z.email("SUPPORT_EMAIL must be an e-mail address").optional(),
});

export interface NodeSettings {
  port: number;
  host: string;
  database: { url: string; authToken?: string };
  migrateOnStart: boolean;
  trustProxy: boolean;
  /** What the site's config reads, as on Workers. */
  site: Settings;
}

/** A setting the process can't start with; its message is one line naming the variable. */
export class SettingError extends Error {}

/** Reads `.env` (if present) under the real environment, which wins. */
export function loadEnvFile(path = ".env"): void {
  if (existsSync(path)) process.loadEnvFile(path);
}

export function readNodeSettings(env: NodeJS.ProcessEnv): NodeSettings {
  // An empty variable means "not set", as an empty wrangler var does.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? "environment");
    throw new SettingError(`${name}: ${given[name] === undefined ? "not set" : issue?.message}`);
  }
  const value = parsed.data;
  const site: Settings = {
    APP_ENV: value.APP_ENV,
    PUBLIC_URL: value.PUBLIC_URL,
    DISCORD_URL: value.DISCORD_URL,
    STEAM_WEBAPI_BASE: value.STEAM_WEBAPI_BASE ?? "",
    STEAM_OPENID_ENDPOINT: value.STEAM_OPENID_ENDPOINT ?? "",
    STEAM_API_KEY: value.STEAM_API_KEY,
    SESSION_SECRET: value.SESSION_SECRET,
    PAYMENT_PROVIDER: value.PAYMENT_PROVIDER ?? "",
    YOOKASSA_API_BASE: value.YOOKASSA_API_BASE ?? "",
    YOOKASSA_SHOP_ID: value.YOOKASSA_SHOP_ID,
    YOOKASSA_SECRET_KEY: value.YOOKASSA_SECRET_KEY,
    YOOKASSA_TRUSTED_IPS: value.YOOKASSA_TRUSTED_IPS,
    SELLER_NAME: value.SELLER_NAME,
    SELLER_INN: value.SELLER_INN,
    SUPPORT_EMAIL: value.SUPPORT_EMAIL,
  };
  // The Worker's fail-closed rules (secrets, no stand-ins off this machine), checked before listening.
  try {
    loadConfig(site);
  } catch (error) {
    if (error instanceof ConfigError) throw new SettingError(oneLine(error.message));
    throw error;
  }
  return {
    port: value.PORT,
    host: value.HOST,
    database: { url: value.DATABASE_URL, authToken: value.DATABASE_AUTH_TOKEN },
    migrateOnStart: value.MIGRATE_ON_START === "1",
    trustProxy: value.TRUST_PROXY === "1",
    site,
  };
}

// The site's config speaks of its own field names; the owner sets variables.
const VARIABLE_OF: Record<string, string> = {
  appEnv: "APP_ENV",
  publicUrl: "PUBLIC_URL",
  discordUrl: "DISCORD_URL",
  steamWebApiBase: "STEAM_WEBAPI_BASE",
  steamOpenIdEndpoint: "STEAM_OPENID_ENDPOINT",
  steamApiKey: "STEAM_API_KEY",
  sessionSecret: "SESSION_SECRET",
  paymentProvider: "PAYMENT_PROVIDER",
  "yookassa.apiBase": "YOOKASSA_API_BASE",
  "seller.name": "SELLER_NAME",
  "seller.inn": "SELLER_INN",
  "seller.email": "SUPPORT_EMAIL",
};

const oneLine = (text: string) =>
  text
    .replace(/\bat ([\w.]+)/g, (whole, path: string) => (VARIABLE_OF[path] ? `at ${VARIABLE_OF[path]}` : whole))
    .replace(/\s*\n\s*/g, " ")
    .trim();
