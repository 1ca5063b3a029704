import { type SQL, sql } from "drizzle-orm";
import { type DiscordEvent, parseDiscordWebhook } from "#core/admin/discord.ts";
import { DISCORD_TEXT } from "#core/messages/admin.ts";
import type { Deps } from "../../deps.ts";
import { type Statement, statement } from "../../ports/database.ts";

// Discord notifications (decision 110). An event writes a row to discord_outbox in its own batch,
// only when a webhook is set and the event is chosen; the minutely job sends what is due, retries with
// backoff (and as Discord's 429 asks), and drops with a journal line what still failed after a day.

/** Messages sent per run: Discord allows a webhook about five every two seconds. */
export const DISCORD_BATCH = 20;
/** How long a message keeps being retried before it is dropped with a journal line. */
export const DISCORD_GIVE_UP_MS = 24 * 60 * 60 * 1000;
/** A claimed message is not claimed again for this long (a run that died mid-send). */
const CLAIM_MS = 5 * 60 * 1000;
const SEND_TIMEOUT_MS = 10_000;

/** The wait after the n-th failed attempt (1-based): 1, 2, 4 … minutes, at most an hour. */
export function discordBackoff(attempts: number): number {
  return Math.min(60, 2 ** Math.max(0, attempts - 1)) * 60_000;
}

/**
 * The outbox row of one event, to be put in the batch that makes the event happen. `payload` is a
 * SELECT giving one column `payload` (JSON built in SQL from the rows the batch wrote) and a row per
 * message. An INSERT … SELECT into a table without constraints: it can't abort its batch.
 */
export function discordEventStatement(event: DiscordEvent, payload: SQL, now: number | SQL): Statement {
  return statement(sql`INSERT INTO discord_outbox (event, payload, created_at, next_attempt_at)
    SELECT ${event}, x.payload, ${now}, ${now} FROM (${payload}) x
    WHERE EXISTS (SELECT 1 FROM discord_settings
      WHERE id = 1 AND webhook_url IS NOT NULL AND ',' || events || ',' LIKE ${`%,${event},%`})`);
}

interface OutboxRow {
  id: number;
  event: string;
  payload: string;
  attempts: number;
}

/** The message text of an outbox row, from the catalogue. */
export function discordMessage(event: string, payload: string): string {
  const facts = JSON.parse(payload);
  const format = DISCORD_TEXT.messages[event as DiscordEvent] as ((facts: never) => string) | undefined;
  return format ? format(facts as never) : event;
}

export interface DiscordRun {
  sent: number;
  retried: number;
  dropped: number;
}

/** The minutely job: drop what is a day old (journaled), then send what is due, oldest first. */
export async function sendDiscordNotifications(
  deps: Pick<Deps, "db" | "now" | "fetch" | "config">,
): Promise<DiscordRun> {
  const now = deps.now().getTime();
  const cutoff = now - DISCORD_GIVE_UP_MS;
  const run: DiscordRun = { sent: 0, retried: 0, dropped: 0 };

  // The journal needs an operator: the admin who set the webhook signs the line.
  const [, dropped] = await deps.db.batch([
    statement(sql`INSERT INTO audit_log
        (operator_user_id, operator_steam_id, operator_role, action, target_type, target_id, before, after, reason, created_at)
      SELECT s.updated_by_user_id, s.updated_by_steam_id, s.updated_by_role, 'discord.drop', 'discord', CAST(o.id AS TEXT),
        json_object('event', o.event, 'attempts', o.attempts, 'createdAt', o.created_at), NULL,
        ${DISCORD_TEXT.dropReason} || COALESCE(': ' || o.last_error, ''), ${now}
      FROM discord_outbox o JOIN discord_settings s ON s.id = 1
      WHERE o.created_at <= ${cutoff}`),
    statement(sql`DELETE FROM discord_outbox WHERE created_at <= ${cutoff}`),
  ]);
  run.dropped = dropped?.changes ?? 0;

  const [settings] = (
    await deps.db.run<{ webhook_url: string | null }>(
      statement(sql`SELECT webhook_url FROM discord_settings WHERE id = 1`),
    )
  ).rows;
  const webhook = settings?.webhook_url ? parseDiscordWebhook(settings.webhook_url) : null;
  if (!webhook) return run;

  // Claimed by moving them out of reach for a while, so a second runner can't send them too.
  const claimed = (
    await deps.db.run<OutboxRow>(
      statement(sql`UPDATE discord_outbox SET next_attempt_at = ${now + CLAIM_MS}
        WHERE id IN (SELECT id FROM discord_outbox WHERE next_attempt_at <= ${now} ORDER BY id LIMIT ${DISCORD_BATCH})
          AND next_attempt_at <= ${now}
        RETURNING id, event, payload, attempts`),
    )
  ).rows.sort((a, b) => a.id - b.id);

  const url = `${deps.config.discordWebhookBase}/${webhook.id}/${webhook.token}`;
  let pausedUntil: number | null = null;
  for (const row of claimed) {
    if (pausedUntil !== null) {
      // Discord said to wait: the rest waits as long, without counting an attempt.
      await deps.db.run(
        statement(sql`UPDATE discord_outbox SET next_attempt_at = ${pausedUntil} WHERE id = ${row.id}`),
      );
      continue;
    }
    const outcome = await post(deps, url, discordMessage(row.event, row.payload));
    if (outcome.ok) {
      await deps.db.run(statement(sql`DELETE FROM discord_outbox WHERE id = ${row.id}`));
      run.sent += 1;
      continue;
    }
    const attempts = row.attempts + 1;
    const next = outcome.retryAfterMs !== undefined ? now + outcome.retryAfterMs : now + discordBackoff(attempts);
    if (outcome.retryAfterMs !== undefined) pausedUntil = next;
    await deps.db.run(
      statement(sql`UPDATE discord_outbox SET attempts = ${attempts}, next_attempt_at = ${next}, last_error = ${outcome.error}
        WHERE id = ${row.id}`),
    );
    run.retried += 1;
    // The token is part of the address: only the row and the answer's status are logged.
    console.warn(JSON.stringify({ event: "discord_send_failed", outbox: row.id, attempts, error: outcome.error }));
  }
  return run;
}

type PostOutcome = { ok: true } | { ok: false; error: string; retryAfterMs?: number };

async function post(deps: Pick<Deps, "fetch">, url: string, content: string): Promise<PostOutcome> {
  let response: Response;
  try {
    response = await deps.fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      // No @everyone or role pings from a player's nickname.
      body: JSON.stringify({ content: content.slice(0, 2000), allowed_mentions: { parse: [] } }),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
  } catch (error) {
    return { ok: false, error: error instanceof Error && error.name === "TimeoutError" ? "timeout" : "network error" };
  }
  if (response.ok) {
    await response.body?.cancel();
    return { ok: true };
  }
  if (response.status === 429) {
    const body = (await response.json().catch(() => null)) as { retry_after?: unknown } | null;
    const header = Number(response.headers.get("Retry-After") ?? Number.NaN);
    const seconds =
      typeof body?.retry_after === "number" && body.retry_after >= 0
        ? body.retry_after
        : Number.isFinite(header)
          ? header
          : 60;
    return { ok: false, error: "HTTP 429", retryAfterMs: Math.ceil(Math.min(seconds, 3600) * 1000) };
  }
  await response.body?.cancel();
  return { ok: false, error: `HTTP ${response.status}` };
}
