import { data, Form } from "react-router";
import { invalidForm } from "#app/lib/admin/console-answers.server.ts";
import { requireOperator } from "#app/lib/admin/operator.server.ts";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { MAX_RETURN_WINDOW_HOURS } from "#core/admin/shop-settings.ts";
import { SHOP_SETTINGS_TEXT } from "#core/messages/admin.ts";
import { getShopSettings, saveShopSettings, shopSettingsSchema } from "#worker/services/admin/shop-settings.ts";
import { ActionNotice, type AdminActionData } from "../components/admin/action-notice.tsx";
import type { Route } from "./+types/admin.settings";

// /admin/settings: the shop's own settings; for now the window in which a buyer may return an
// undelivered purchase (decision 111). Admin only; every change is journaled.

export async function loader({ context, request }: Route.LoaderArgs) {
  await requireOperator(context, request, "shopSettings");
  return getShopSettings(context.get(depsContext));
}

export async function action({ context, request }: Route.ActionArgs) {
  const operator = await requireOperator(context, request, "shopSettings");
  const input = shopSettingsSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!input.success) return invalidForm(input.error);
  await saveShopSettings(context.get(depsContext), operator, input.data);
  return data<AdminActionData>({ ok: true, message: SHOP_SETTINGS_TEXT.saved });
}

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="admin-section" aria-labelledby="settings-title">
      <h2 id="settings-title">{SHOP_SETTINGS_TEXT.title}</h2>
      <ActionNotice result={actionData} />
      <Form method="post" className="admin-form">
        <label className="admin-field admin-field--wide">
          {SHOP_SETTINGS_TEXT.returnWindow}
          <input
            name="returnWindowHours"
            type="number"
            min={0}
            max={MAX_RETURN_WINDOW_HOURS}
            step={1}
            inputMode="numeric"
            defaultValue={loaderData.returnWindowHours}
            required
          />
        </label>
        <p className="muted">{SHOP_SETTINGS_TEXT.help}</p>
        <button type="submit" className="button">
          Сохранить
        </button>
      </Form>
    </section>
  );
}
