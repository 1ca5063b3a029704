import { Form, useLocation, useNavigation } from "react-router";
import {
  RETURN_BUTTON,
  RETURN_CANCEL,
  RETURN_CONFIRM_BUTTON,
  returnConfirmText,
  returnUntilText,
} from "#core/messages/returns.ts";
import { Notice } from "../notice.tsx";

/** What a return answered, shown above the list: done, refused, or (without JavaScript) asking first. */
export type ReturnActionResult =
  | { success: string; error?: undefined; confirm?: undefined }
  | { error: string; success?: undefined; confirm?: undefined }
  | {
      confirm: { purchaseId: number; itemName: string; amount: number; giftTo: string | null };
      success?: undefined;
      error?: undefined;
    };

/** The purchase a «Вернуть» can take back: its id, name, price and the end of its window. */
export interface Returnable {
  purchase_id: number | null;
  item_name: string;
  price: number | null;
  return_until: string | null;
  returnable: boolean;
  /** A gift's friend: the confirmation says the friend won't get it. */
  gift_to?: string | null;
}

/**
 * «Вернуть» under a purchase its buyer may still take back (decision 111): in the Корзина and, for a
 * gift, in the buyer's purchase history. A plain POST form: without JavaScript the page answers with
 * a confirmation to submit (issue 36); with it, the player confirms the amount in a dialog and the
 * form says so, so one request returns.
 */
export function ReturnForm({ entry }: { entry: Returnable }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("purchase_id") === String(entry.purchase_id);
  if (!entry.returnable || entry.purchase_id === null || entry.return_until === null) return null;
  return (
    <Form
      method="post"
      className="inventory-card__return"
      preventScrollReset
      onSubmit={(event) => {
        if (!window.confirm(returnConfirmText(entry.item_name, entry.price ?? 0, entry.gift_to ?? null))) {
          event.preventDefault();
          return;
        }
        const confirmed = event.currentTarget.elements.namedItem("confirmed");
        if (confirmed instanceof HTMLInputElement) confirmed.value = "1";
      }}
    >
      <input type="hidden" name="intent" value="return" />
      <input type="hidden" name="purchase_id" value={entry.purchase_id} />
      <input type="hidden" name="confirmed" value="" />
      <p className="inventory-card__note">{returnUntilText(entry.return_until)}</p>
      <button type="submit" className="button button--ghost button--small" disabled={busy} aria-busy={busy}>
        {RETURN_BUTTON}
      </button>
    </Form>
  );
}

/** The answer of the last return, above the list; without JavaScript, the question to confirm it. */
export function ReturnNotice({ result }: { result: ReturnActionResult | undefined }) {
  const location = useLocation();
  if (!result) return null;
  if (result.confirm) {
    const { purchaseId, itemName, amount, giftTo } = result.confirm;
    return (
      <Form method="post" className="profile-notice profile-notice--confirm" preventScrollReset>
        <p role="alert">{returnConfirmText(itemName, amount, giftTo)}</p>
        <input type="hidden" name="intent" value="return" />
        <input type="hidden" name="purchase_id" value={purchaseId} />
        <input type="hidden" name="confirmed" value="1" />
        <p className="profile-notice__actions">
          <button type="submit" className="button button--small">
            {RETURN_CONFIRM_BUTTON}
          </button>
          <a className="button button--ghost button--small" href={`${location.pathname}${location.search}`}>
            {RETURN_CANCEL}
          </a>
        </p>
      </Form>
    );
  }
  return result.error === undefined ? (
    <Notice block="profile-notice" tone="success" text={result.success} />
  ) : (
    <Notice block="profile-notice" tone="error" text={result.error} />
  );
}
