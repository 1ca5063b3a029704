import { GIFT_FORM } from "#core/messages/gift-notes.ts";
import type { GiftRecipient } from "#core/shop/gift.ts";

/**
 * «В подарок другу» in the item page's form (issue 24): the friend's SteamID64 or profile address and a
 * button that shows who it is; once shown, their name and avatar, and the purchase goes to them. Plain
 * form fields, so it works without JavaScript.
 */
export function GiftFields({
  recipient,
  query,
  open = false,
}: {
  recipient: GiftRecipient | null;
  query: string;
  open?: boolean;
}) {
  return (
    <details className="gift-fields" open={open || Boolean(recipient || query)}>
      <summary>{GIFT_FORM.toggle}</summary>
      <label className="gift-fields__label">
        {GIFT_FORM.field}
        <input
          className="input"
          name="gift_to"
          defaultValue={query}
          maxLength={200}
          autoComplete="off"
          inputMode="url"
        />
      </label>
      <button
        type="submit"
        name="intent"
        value="gift-check"
        className="button button--ghost button--small"
        formNoValidate
      >
        {GIFT_FORM.check}
      </button>
      {recipient ? (
        <p className="gift-fields__recipient" data-testid="gift-recipient" role="status">
          <img src={recipient.avatarUrl} alt="" width={40} height={40} />
          <span>
            {GIFT_FORM.recipient}: <strong>{recipient.nickname}</strong>
          </span>
          <input type="hidden" name="gift_steam_id" value={recipient.steamId} />
          {/* What was looked up: a field changed since is looked up again before any purchase. */}
          <input type="hidden" name="gift_checked" value={query} />
          {/* As shown, to keep showing them if the purchase is refused; the purchase itself asks again. */}
          <input type="hidden" name="gift_nickname" value={recipient.nickname} />
          <input type="hidden" name="gift_avatar" value={recipient.avatarUrl} />
        </p>
      ) : null}
    </details>
  );
}
