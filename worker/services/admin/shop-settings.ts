import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { MAX_RETURN_WINDOW_HOURS } from "#core/admin/shop-settings.ts";
import { SHOP_SETTINGS_TEXT } from "#core/messages/admin.ts";
import { shopSettings } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { statement } from "../../ports/database.ts";
import { auditStatement } from "./audit.ts";
import type { Operator } from "./roles.ts";

export const shopSettingsSchema = z.object({
  // Digits only: an empty field must not read as 0 and quietly turn returns off.
  returnWindowHours: z
    .string(SHOP_SETTINGS_TEXT.badWindow)
    .trim()
    .regex(/^\d{1,3}$/, SHOP_SETTINGS_TEXT.badWindow)
    .transform(Number)
    .pipe(z.number().max(MAX_RETURN_WINDOW_HOURS, SHOP_SETTINGS_TEXT.badWindow)),
});

export interface ShopSettings {
  returnWindowHours: number;
}

export async function getShopSettings(deps: Pick<Deps, "db">): Promise<ShopSettings> {
  const [row] = await deps.db.orm
    .select({ returnWindowHours: shopSettings.returnWindowHours })
    .from(shopSettings)
    .where(eq(shopSettings.id, 1))
    .limit(1);
  return { returnWindowHours: row?.returnWindowHours ?? 0 };
}

/**
 * Sets how long a buyer may return an undelivered purchase (decision 111; 0 turns returns off), with its
 * journal line in the same batch. It applies to purchases made from now on: each entry keeps the window
 * it was bought with.
 */
export async function saveShopSettings(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  input: ShopSettings,
): Promise<void> {
  const before = await getShopSettings(deps);
  const now = deps.now().getTime();
  await deps.db.batch([
    statement(sql`INSERT INTO shop_settings (id, return_window_hours, updated_at) VALUES (1, ${input.returnWindowHours}, ${now})
      ON CONFLICT(id) DO UPDATE SET return_window_hours = excluded.return_window_hours, updated_at = excluded.updated_at`),
    auditStatement({
      operator,
      action: "settings.returns",
      targetType: "settings",
      targetId: "shop",
      before: { ...before },
      after: { ...input },
      now,
    }),
  ]);
}
