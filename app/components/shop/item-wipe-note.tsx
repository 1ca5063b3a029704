import { WIPE_ITEM_TEXT } from "#core/messages/wipe.ts";

/**
 * What the next wipe means for an item (decision 128): when the earliest server of its type wipes,
 * and what a wipe takes away; for an item also sold «до вайпа», that this term ends with it (decision
 * 130). Nothing when no server of the type has announced a schedule and the item isn't sold so.
 */
export function ItemWipeNote({
  wipe,
  untilWipe = false,
}: {
  wipe: { server: string; phrase: string } | null;
  untilWipe?: boolean;
}) {
  if (!wipe && !untilWipe) return null;
  return (
    <p className="item-wipe" data-testid="item-wipe">
      <strong>{WIPE_ITEM_TEXT.title}.</strong> {wipe ? `${WIPE_ITEM_TEXT.next(wipe.server, wipe.phrase)} ` : null}
      <span className="muted">
        {WIPE_ITEM_TEXT.meaning}
        {untilWipe ? ` ${WIPE_ITEM_TEXT.untilWipe}` : null}
      </span>
    </p>
  );
}
