// The console's Discord notifications (decision 110): which events there are, and what a webhook URL
// must look like. Browser-safe: the settings page and the services share it.

export const DISCORD_EVENTS = [
  "purchase",
  "topup",
  "provider_refund",
  "delivery_failed",
  "revoke_stranded",
  "debt",
] as const;
export type DiscordEvent = (typeof DISCORD_EVENTS)[number];

// https://discord.com/api/webhooks/<snowflake id>/<token>, or the same on discordapp.com.
const WEBHOOK = /^https:\/\/(?:discord\.com|discordapp\.com)\/api\/webhooks\/(\d{15,25})\/([A-Za-z0-9_-]{20,200})$/;

/** The webhook's id and token, or null when the URL is not a Discord webhook's. */
export function parseDiscordWebhook(value: string): { id: string; token: string } | null {
  const match = WEBHOOK.exec(value.trim());
  return match?.[1] && match[2] ? { id: match[1], token: match[2] } : null;
}

/** What the console shows of a stored webhook: the host and the token's last four characters. */
export function maskDiscordWebhook(value: string | null): string | null {
  if (!value) return null;
  const parsed = parseDiscordWebhook(value);
  const host = value.startsWith("https://discordapp.com/") ? "discordapp.com" : "discord.com";
  return `https://${host}/api/webhooks/…/****${parsed ? parsed.token.slice(-4) : ""}`;
}

/** The stored comma-separated list, as known events only. */
export function parseDiscordEvents(value: string): DiscordEvent[] {
  const names = value.split(",");
  return DISCORD_EVENTS.filter((event) => names.includes(event));
}
