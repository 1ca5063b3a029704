import { existsSync } from "node:fs";
import { z } from "zod";
import { type Config, ConfigError, innSchema, readConfig, standInsEnabled } from "../config.ts";
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
  GAME_KEY_SECRET: optional,
  PAYMENT_PROVIDER: z.enum(["standin", "yookassa"]).optional(),
  YOOKASSA_API_BASE: z.url().optional(),
  DISCORD_WEBHOOK_BASE: z.url().optional(),
  YOOKASSA_SHOP_ID: optional,
  YOOKASSA_SECRET_KEY: optional,
  YOOKASSA_TRUSTED_IPS: optional,
  ADMIN_STEAM_IDS: optional,
  SELLER_NAME: z.string().trim().max(200).optional(),
  SELLER_INN: innSchema.optional(),
  SUPPORT_EMAIL: z.email("SUPPORT_EMAIL must be an e-mail address").optional(),
  // Unset on the owner's own server: exports stream one file whatever the period (decision 115).
  EXPORT_ROWS_PER_FILE: z
    .string()
    .regex(/^[1-9]\d*$/, "must be a whole number of rows, at least 1")
    .optional(),
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

/**
 * Why the process can't start: each problem is one line naming the variable (or the file) and what
 * to do; the start prints each as `Cannot start: …`.
 */
export class SettingError extends Error {
  readonly problems: string[];
  constructor(...problems: [string, ...string[]]) {
    super(problems.join("\n"));
    this.problems = problems;
  }
}

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
    GAME_KEY_SECRET: value.GAME_KEY_SECRET,
    PAYMENT_PROVIDER: value.PAYMENT_PROVIDER ?? "",
    YOOKASSA_API_BASE: value.YOOKASSA_API_BASE ?? "",
    DISCORD_WEBHOOK_BASE: value.DISCORD_WEBHOOK_BASE,
    YOOKASSA_SHOP_ID: value.YOOKASSA_SHOP_ID,
    YOOKASSA_SECRET_KEY: value.YOOKASSA_SECRET_KEY,
    YOOKASSA_TRUSTED_IPS: value.YOOKASSA_TRUSTED_IPS,
    ADMIN_STEAM_IDS: value.ADMIN_STEAM_IDS,
    SELLER_NAME: value.SELLER_NAME,
    SELLER_INN: value.SELLER_INN,
    SUPPORT_EMAIL: value.SUPPORT_EMAIL,
    EXPORT_ROWS_PER_FILE: value.EXPORT_ROWS_PER_FILE,
  };
  // The Worker's fail-closed rules (no published secrets, no stand-ins off this machine), checked
  // before listening, with the Node server's own.
  let checked: ReturnType<typeof readConfig>;
  try {
    checked = readConfig(site);
  } catch (error) {
    if (error instanceof ConfigError) throw new SettingError(oneLine(error.message));
    throw error;
  }
  const [first, ...rest] = [...checked.refusals, ...productionProblems(checked.config)];
  if (first !== undefined) throw new SettingError(first, ...rest);
  return {
    port: value.PORT,
    host: value.HOST,
    database: { url: value.DATABASE_URL, authToken: value.DATABASE_AUTH_TOKEN },
    migrateOnStart: value.MIGRATE_ON_START === "1",
    trustProxy: value.TRUST_PROXY === "1",
    site,
  };
}

/**
 * What a Worker only finds out at the first sign-in or top-up, refused before a process listens:
 * a site that looks up while every top-up or profile fails. All of them at once, so an owner fixes
 * a copied `.env.example` in one go.
 */
function productionProblems(config: Config): string[] {
  const problems: string[] = [];
  const real = !standInsEnabled(config);
  if (real && !config.steamApiKey) {
    problems.push(
      "STEAM_API_KEY: not set; production needs a Steam Web API key (https://steamcommunity.com/dev/apikey) for nicknames, avatars and the server list",
    );
  }
  if (config.paymentProvider === "yookassa") {
    const missing = [
      config.yookassa.shopId ? null : "YOOKASSA_SHOP_ID",
      config.yookassa.secretKey ? null : "YOOKASSA_SECRET_KEY",
    ].filter((name): name is string => name !== null);
    if (missing.length > 0) {
      problems.push(
        `${missing.join(", ")}: not set; PAYMENT_PROVIDER=yookassa needs the shop id and the secret key from YooKassa's dashboard (Integration → API keys)`,
      );
    }
  }
  return problems;
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
  gameKeySecret: "GAME_KEY_SECRET",
  paymentProvider: "PAYMENT_PROVIDER",
  "yookassa.apiBase": "YOOKASSA_API_BASE",
  "seller.name": "SELLER_NAME",
  "seller.inn": "SELLER_INN",
  "seller.email": "SUPPORT_EMAIL",
  discordWebhookBase: "DISCORD_WEBHOOK_BASE",
  exportRowsPerFile: "EXPORT_ROWS_PER_FILE",
};

const oneLine = (text: string) =>
  text
    .replace(/\bat ([\w.]+)/g, (whole, path: string) => (VARIABLE_OF[path] ? `at ${VARIABLE_OF[path]}` : whole))
    .replace(/\s*\n\s*/g, " ")
    .trim();
