import { z } from "zod";
import { oncePer } from "#core/once-per.ts";
import { isValidInn } from "#core/seller.ts";
import type { Settings } from "./settings.ts";

export const STANDIN_PREFIX = "/__standins/";

const url = z.string().url();

/** SELLER_INN's rule, shared with the Node server's settings so both name the same mistake. */
export const innSchema = z
  .string()
  .regex(/^(\d{10}|\d{12})$/, "SELLER_INN must be 10 digits (an organisation) or 12 (an individual entrepreneur)")
  .refine(isValidInn, "SELLER_INN has a wrong check digit");

// The seller's details (issue 20): shown in the footer and the terms when set.
const sellerSchema = z.object({
  name: z.string().trim().min(1).max(200).nullable(),
  inn: innSchema.nullable(),
  email: z.email("SUPPORT_EMAIL must be an e-mail address").max(200).nullable(),
});

const configSchema = z.object({
  appEnv: z.enum(["development", "test", "production"]),
  publicUrl: url.transform((value) => value.replace(/\/+$/, "")),
  discordUrl: url,
  steamWebApiBase: url.transform((value) => value.replace(/\/+$/, "")),
  steamOpenIdEndpoint: url,
  steamApiKey: z.string().min(1).optional(),
  sessionSecret: z.string().min(32),
  // Derives every game server's plugin key (decision 103); the database never holds it.
  gameKeySecret: z.string().min(32),
  paymentProvider: z.enum(["standin", "yookassa"]),
  yookassa: z.object({
    apiBase: url.transform((value) => value.replace(/\/+$/, "")),
    shopId: z.string().optional(),
    secretKey: z.string().optional(),
    trustedIps: z.array(z.string()),
  }),
  discordWebhookBase: url.transform((value) => value.replace(/\/+$/, "")),
  adminSteamIds: z.array(z.string().regex(/^\d{17}$/, "ADMIN_STEAM_IDS must list SteamID64s (17 digits)")),
  seller: sellerSchema,
  exportRowsPerFile: z.coerce
    .number("EXPORT_ROWS_PER_FILE must be a whole number")
    .int("EXPORT_ROWS_PER_FILE must be a whole number")
    .min(1, "EXPORT_ROWS_PER_FILE must be at least 1")
    .nullable(),
});

export type Config = z.infer<typeof configSchema>;

// Only for local development and tests: production must set its own secret.
const LOCAL_SESSION_SECRET = "local-development-session-secret-not-for-production";
/**
 * The local game-key secret: wrangler.jsonc's local and e2e vars carry it too, so the seed, the
 * scripts and the tests derive the same dev keys. Refused wherever production's rules apply.
 */
export const LOCAL_GAME_KEY_SECRET = "local-development-game-key-secret-not-for-production";

/**
 * Secret values published with the code: `.env.example`'s placeholders and the local development
 * values. Anyone can sign sessions or game servers' requests with them, so wherever production's
 * rules apply each is refused, naming the variable.
 */
export const PUBLISHED_SECRETS: Readonly<Record<"SESSION_SECRET" | "GAME_KEY_SECRET", Record<string, string>>> = {
  SESSION_SECRET: {
    "change-me-to-32-or-more-random-characters": "the example value from .env.example",
    [LOCAL_SESSION_SECRET]: "the local development value",
  },
  GAME_KEY_SECRET: {
    "change-me-to-another-32-or-more-random-characters": "the example value from .env.example",
    [LOCAL_GAME_KEY_SECRET]: "the local development value",
  },
};

/** Discord's webhook endpoint; DISCORD_WEBHOOK_BASE replaces it (the local stand-in, in tests). */
export const DISCORD_WEBHOOK_BASE = "https://discord.com/api/webhooks";

export class ConfigError extends Error {
  /** Each thing to fix, one line each (production's refusals); the message joins them. */
  readonly problems: string[];
  constructor(...problems: [string, ...string[]]) {
    super(problems.join("\n"));
    this.problems = problems;
  }
}

/** The site runs on this machine only (npm run dev, the tests, the bench). */
export function isLoopbackUrl(value: string): boolean {
  try {
    const { hostname } = new URL(value);
    return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";
  } catch {
    return false;
  }
}

/** The site's settings, held to production's rules unless the site is on this machine: every refusal at once. */
export function loadConfig(env: Settings): Config {
  const { config, refusals } = readConfig(env);
  const [first, ...rest] = refusals;
  if (first !== undefined) throw new ConfigError(first, ...rest);
  return config;
}

/**
 * The settings parsed (a malformed one throws), and what production's rules refuse in them, each
 * a line naming the variable; the Node server adds its own and prints them all before listening.
 */
export function readConfig(env: Settings): { config: Config; refusals: string[] } {
  const appEnv = env.APP_ENV || "development";
  // Stand-ins and the fixed local secret are for a site on this machine only. A site on a
  // real host gets production's rules even if APP_ENV was left at its local default, so a
  // deploy that forgets APP_ENV=production fails closed instead of letting anyone sign in
  // as anyone or top up for free.
  const strict = !isLocalSite(appEnv, env.PUBLIC_URL);
  const parsed = configSchema.safeParse({
    appEnv,
    publicUrl: env.PUBLIC_URL,
    discordUrl: env.DISCORD_URL,
    steamWebApiBase: env.STEAM_WEBAPI_BASE || "https://api.steampowered.com",
    steamOpenIdEndpoint: env.STEAM_OPENID_ENDPOINT || "https://steamcommunity.com/openid/login",
    steamApiKey: env.STEAM_API_KEY || undefined,
    sessionSecret: env.SESSION_SECRET || (strict ? "" : LOCAL_SESSION_SECRET),
    gameKeySecret: env.GAME_KEY_SECRET || (strict ? "" : LOCAL_GAME_KEY_SECRET),
    paymentProvider: env.PAYMENT_PROVIDER || "standin",
    yookassa: {
      apiBase: env.YOOKASSA_API_BASE || "https://api.yookassa.ru/v3",
      shopId: env.YOOKASSA_SHOP_ID || undefined,
      secretKey: env.YOOKASSA_SECRET_KEY || undefined,
      trustedIps: (env.YOOKASSA_TRUSTED_IPS ?? "")
        .split(",")
        .map((value) => value.trim())
        .filter(Boolean),
    },
    discordWebhookBase: env.DISCORD_WEBHOOK_BASE || DISCORD_WEBHOOK_BASE,
    adminSteamIds: adminSteamIdsOf(env.ADMIN_STEAM_IDS),
    seller: {
      name: env.SELLER_NAME?.trim() || null,
      inn: env.SELLER_INN?.trim() || null,
      email: env.SUPPORT_EMAIL?.trim() || null,
    },
    exportRowsPerFile: env.EXPORT_ROWS_PER_FILE?.trim() || null,
  });
  if (!parsed.success) {
    throw new ConfigError(`Invalid configuration: ${z.prettifyError(parsed.error)}`);
  }
  const config = parsed.data;
  const refusals: string[] = [];
  if (strict) {
    const secrets = { SESSION_SECRET: config.sessionSecret, GAME_KEY_SECRET: config.gameKeySecret };
    for (const [name, value] of Object.entries(secrets) as [keyof typeof PUBLISHED_SECRETS, string][]) {
      const published = PUBLISHED_SECRETS[name][value];
      if (published) {
        refusals.push(
          `${name}: still ${published}; set your own, e.g. the output of \`openssl rand -base64 48\` ` +
            `(that value is published: anyone could sign with it; on Workers: wrangler secret put ${name})`,
        );
      }
    }
    const usesStandIn =
      config.paymentProvider === "standin" ||
      [config.steamWebApiBase, config.steamOpenIdEndpoint, config.discordWebhookBase].some((value) =>
        value.includes(STANDIN_PREFIX),
      );
    if (usesStandIn) {
      refusals.push(
        `Stand-ins are refused in production configuration (APP_ENV=${config.appEnv}, PUBLIC_URL=${config.publicUrl}): ` +
          "set STEAM_WEBAPI_BASE, STEAM_OPENID_ENDPOINT and PAYMENT_PROVIDER=yookassa, and leave DISCORD_WEBHOOK_BASE unset",
      );
    }
  }
  return { config, refusals };
}

/** Stand-ins and the fixed local secret are allowed only here. */
function isLocalSite(appEnv: string, publicUrl: string): boolean {
  return appEnv !== "production" && isLoopbackUrl(publicUrl);
}

// Asked on every request (the outbound fetch's wiring): the answer is kept per settings object, which
// lives as long as the isolate's or process's settings, instead of parsing the public URL each time.
const standInsByConfig = new WeakMap<Config, boolean>();

export function standInsEnabled(config: Config): boolean {
  return oncePer(standInsByConfig, config, ({ appEnv, publicUrl }) => isLocalSite(appEnv, publicUrl));
}

/** ADMIN_STEAM_IDS's SteamID64s, as the site reads them (and `npm run admins -- list` shows them). */
export function adminSteamIdsOf(setting: string | undefined): string[] {
  return (setting ?? "")
    .split(",")
    .map((value) => value.trim())
    .filter(Boolean);
}
