import { Form, useNavigation } from "react-router";
import { RETURN_BUTTON, returnConfirmText, returnUntilText } from "#core/messages/returns.ts";
import type { InventoryItem } from "#core/profile/types.ts";
import { Notice } from "../notice.tsx";

/** What a return answered, shown above the Корзина. */
export type ReturnActionResult = { success: string; error?: undefined } | { error: string; success?: undefined };

/**
 * «Вернуть» under an entry its buyer may still take back (decision 111). A plain POST form, so it
 * works without JavaScript; with it, the player confirms the amount first.
 */
export function ReturnForm({ entry }: { entry: InventoryItem }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("purchase_id") === String(entry.purchase_id);
  if (!entry.returnable || entry.purchase_id === null || entry.return_until === null) return null;
  return (
    <Form
      method="post"
      className="inventory-card__return"
      preventScrollReset
      onSubmit={(event) => {
        if (!window.confirm(returnConfirmText(entry.item_name, entry.price ?? 0))) event.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value="return" />
      <input type="hidden" name="purchase_id" value={entry.purchase_id} />
      <p className="inventory-card__note">{returnUntilText(entry.return_until)}</p>
      <button type="submit" className="button button--ghost button--small" disabled={busy} aria-busy={busy}>
        {RETURN_BUTTON}
      </button>
    </Form>
  );
}

/** The answer of the last return, above the list. */
export function ReturnNotice({ result }: { result: ReturnActionResult | undefined }) {
  if (!result) return null;
  return result.error === undefined ? (
    <Notice block="profile-notice" tone="success" text={result.success} />
  ) : (
    <Notice block="profile-notice" tone="error" text={result.error} />
  );
}
