import { data, Form } from "react-router";
import { invalidForm } from "#app/lib/admin/console-answers.server.ts";
import { requireOperator } from "#app/lib/admin/operator.server.ts";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { DISCORD_EVENTS } from "#core/admin/discord.ts";
import { DISCORD_TEXT } from "#core/messages/admin.ts";
import { discordSettingsInput, getDiscordSettings, saveDiscordSettings } from "#worker/services/admin/discord.ts";
import { ActionNotice, type AdminActionData } from "../components/admin/action-notice.tsx";
import type { Route } from "./+types/admin.discord";

// /admin/discord: the webhook the console's notifications go to, and which events (decision 110). Admin
// only; the stored address is never sent back, only its masked form.

export async function loader({ context, request }: Route.LoaderArgs) {
  await requireOperator(context, request, "discord");
  return getDiscordSettings(context.get(depsContext));
}

export async function action({ context, request }: Route.ActionArgs) {
  const operator = await requireOperator(context, request, "discord");
  const input = discordSettingsInput(await request.formData());
  if (!input.success) return invalidForm(input.error);
  await saveDiscordSettings(context.get(depsContext), operator, input.data);
  return data<AdminActionData>({ ok: true, message: DISCORD_TEXT.saved });
}

export default function AdminDiscord({ loaderData, actionData }: Route.ComponentProps) {
  const { webhook, events } = loaderData;
  return (
    <section className="admin-section" aria-labelledby="discord-title">
      <h2 id="discord-title">Уведомления в Discord</h2>
      <p className="muted">
        Сообщения отправляются раз в минуту; если Discord недоступен, попытки повторяются сутки, затем сообщение
        снимается с записью в журнале.
      </p>
      <ActionNotice result={actionData} />
      <p data-testid="discord-webhook">Вебхук: {webhook ?? "не задан"}</p>
      <Form method="post" className="admin-form">
        <label className="admin-field admin-field--wide">
          Новый адрес вебхука (пусто — оставить прежний)
          <input name="webhookUrl" autoComplete="off" placeholder="https://discord.com/api/webhooks/…" />
        </label>
        {webhook && (
          <label className="admin-field">
            <span>
              <input type="checkbox" name="remove" value="1" /> Удалить вебхук
            </span>
          </label>
        )}
        <fieldset className="admin-field admin-field--wide">
          <legend>О чём сообщать</legend>
          {DISCORD_EVENTS.map((event) => (
            <label key={event}>
              <input type="checkbox" name="events" value={event} defaultChecked={events.includes(event)} />{" "}
              {DISCORD_TEXT.events[event]}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="button">
          Сохранить
        </button>
      </Form>
    </section>
  );
}
