import { sql } from "drizzle-orm";
import { z } from "zod";
import {
  DISCORD_EVENTS,
  type DiscordEvent,
  maskDiscordWebhook,
  parseDiscordEvents,
  parseDiscordWebhook,
} from "#core/admin/discord.ts";
import { DISCORD_TEXT } from "#core/messages/admin.ts";
import type { Deps } from "../../deps.ts";
import { statement } from "../../ports/database.ts";
import { auditStatement } from "./audit.ts";
import type { Operator } from "./roles.ts";

// The console's Discord settings (decision 110): one row, the webhook kept secret (the console and the
// journal show it masked), which events go to it. Admin only (PERMISSIONS.discord).

export interface DiscordSettingsView {
  /** The stored webhook, masked, or null. */
  webhook: string | null;
  events: DiscordEvent[];
}

/**
 * The form: a new webhook URL (empty keeps the stored one), «remove», and the chosen events as
 * repeated `events` fields (checkboxes).
 */
export const discordSettingsSchema = z.object({
  webhookUrl: z
    .string()
    .trim()
    .max(300, DISCORD_TEXT.invalidUrl)
    .refine((value) => value === "" || parseDiscordWebhook(value) !== null, DISCORD_TEXT.invalidUrl),
  remove: z.boolean(),
  events: z.array(z.enum(DISCORD_EVENTS)),
});

export function discordSettingsInput(form: FormData) {
  return discordSettingsSchema.safeParse({
    webhookUrl: String(form.get("webhookUrl") ?? ""),
    remove: form.get("remove") === "1",
    events: form.getAll("events").map(String),
  });
}

async function stored(deps: Pick<Deps, "db">) {
  const [row] = (
    await deps.db.run<{ webhook_url: string | null; events: string }>(
      statement(sql`SELECT webhook_url, events FROM discord_settings WHERE id = 1`),
    )
  ).rows;
  return { webhookUrl: row?.webhook_url ?? null, events: parseDiscordEvents(row?.events ?? "") };
}

export async function getDiscordSettings(deps: Pick<Deps, "db">): Promise<DiscordSettingsView> {
  const row = await stored(deps);
  return { webhook: maskDiscordWebhook(row.webhookUrl), events: row.events };
}

/** Saves the settings and their journal row in one batch; the journal holds the masked webhook only. */
export async function saveDiscordSettings(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  input: z.output<typeof discordSettingsSchema>,
): Promise<DiscordSettingsView> {
  const now = deps.now().getTime();
  const before = await stored(deps);
  const webhookUrl = input.remove ? null : input.webhookUrl || before.webhookUrl;
  const events = DISCORD_EVENTS.filter((event) => input.events.includes(event));
  await deps.db.batch([
    statement(sql`INSERT INTO discord_settings
        (id, webhook_url, events, updated_by_user_id, updated_by_steam_id, updated_by_role, updated_at)
      VALUES (1, ${webhookUrl}, ${events.join(",")}, ${operator.userId}, ${operator.steamId}, ${operator.role}, ${now})
      ON CONFLICT (id) DO UPDATE SET webhook_url = excluded.webhook_url, events = excluded.events,
        updated_by_user_id = excluded.updated_by_user_id, updated_by_steam_id = excluded.updated_by_steam_id,
        updated_by_role = excluded.updated_by_role, updated_at = excluded.updated_at`),
    auditStatement({
      operator,
      action: "discord.settings",
      targetType: "discord",
      targetId: "settings",
      before: { webhook: maskDiscordWebhook(before.webhookUrl), events: before.events },
      after: { webhook: maskDiscordWebhook(webhookUrl), events },
      now,
    }),
  ]);
  return { webhook: maskDiscordWebhook(webhookUrl), events };
}
