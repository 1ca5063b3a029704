import { WIPE_ITEM_TEXT } from "#core/messages/wipe.ts";

/**
 * What the next wipe means for an item (decision 128): when the earliest server of its type wipes,
 * and what a wipe takes away. Nothing when no server of the type has announced a schedule.
 */
export function ItemWipeNote({ wipe }: { wipe: { server: string; phrase: string } | null }) {
  if (!wipe) return null;
  return (
    <p className="item-wipe" data-testid="item-wipe">
      <strong>{WIPE_ITEM_TEXT.title}.</strong> {WIPE_ITEM_TEXT.next(wipe.server, wipe.phrase)}{" "}
      <span className="muted">{WIPE_ITEM_TEXT.meaning}</span>
    </p>
  );
}
