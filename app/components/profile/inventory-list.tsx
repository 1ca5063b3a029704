import { formatMoscowDate, timeLeft } from "#core/format/dates.ts";
import { formatDuration } from "#core/format/plural.ts";
import { serverTypeLabel } from "#core/format/server-type.ts";
import { giftFromText } from "#core/messages/gift-notes.ts";
import {
  activeUntilText,
  DELIVERING_TEXT,
  expiredText,
  FAILED_RETRY_TEXT,
  GIFT_CANCELLED_LABEL,
  GIFT_REFUNDED_NOTE,
  GIFT_RETURNED_NOTE,
  INVENTORY_FILTER_LABEL,
  INVENTORY_HELP,
  INVENTORY_STATE_LABEL,
  ONE_OFF_TERM,
  REFUNDED_TEXT,
  receivedText,
  waitingText,
} from "#core/messages/inventory.ts";
import { RETURNED_NOTE } from "#core/messages/returns.ts";
import { connectText } from "#core/messages/shop.ts";
import { UNTIL_WIPE_TEXT } from "#core/messages/wipe.ts";
import { type InventoryState, inventoryState } from "#core/profile/inventory-state.ts";
import type { InventoryFilter, InventoryItem } from "#core/profile/types.ts";
import { type ServerAddress, steamConnectHref } from "#core/shop/types.ts";
import { untilWipeText } from "#core/shop/until-wipe.ts";
import { fairPlayText } from "#core/wipe/fair-play.ts";
import { SiteLink } from "../site-link.tsx";
import { ReturnForm } from "./return-form.tsx";
import { focusOnMount } from "./use-more-pages.ts";

const FILTERS: InventoryFilter[] = ["all", "not_used", "used"];

/** The filter as links (?status=…), so it works without JavaScript. */
export function InventoryFilters({ current }: { current: InventoryFilter }) {
  return (
    <nav className="profile-filter" aria-label="Фильтр предметов">
      {FILTERS.map((filter) => (
        <SiteLink
          key={filter}
          to={filter === "all" ? "/profile" : `/profile?status=${filter}`}
          className={filter === current ? "profile-chip profile-chip--active" : "profile-chip"}
          aria-current={filter === current ? "true" : undefined}
          preventScrollReset
        >
          {INVENTORY_FILTER_LABEL[filter]}
        </SiteLink>
      ))}
    </nav>
  );
}

/** How purchases arrive in the game. */
export function InventoryHelp() {
  return <p className="inventory-help">{INVENTORY_HELP}</p>;
}

const STATE_TONE: Record<InventoryState, "good" | "wait" | "bad" | "neutral"> = {
  waiting: "wait",
  delivering: "wait",
  failed: "bad",
  active: "good",
  received: "good",
  expired: "neutral",
  refunded: "neutral",
  returned: "neutral",
};

/**
 * `now` is the loader's clock, so the time left reads the same on the server and after hydration.
 * `servers` lists the servers of each type an entry waits on, to connect to with one click.
 */
export function InventoryList({
  items,
  now,
  servers = {},
  focusId = null,
}: {
  items: InventoryItem[];
  now: string;
  servers?: Record<string, ServerAddress[]>;
  /** The first entry of a page just appended (decision 156): focus moves to it. */
  focusId?: number | null;
}) {
  if (items.length === 0) return <p className="profile-empty">Нет предметов</p>;
  return (
    <ul className="inventory-grid">
      {items.map((entry) => {
        const state = inventoryState(entry, now);
        const type = serverTypeLabel(entry.server_type);
        return (
          <li
            key={entry.id}
            className="inventory-card"
            data-testid="inventory-entry"
            data-state={state}
            {...(entry.id === focusId ? { tabIndex: -1, ref: focusOnMount } : {})}
          >
            <img
              className="inventory-card__image"
              src={entry.item_image}
              width={96}
              height={96}
              alt=""
              loading="lazy"
              decoding="async"
            />
            <div className="inventory-card__body">
              <p className="inventory-card__name">{entry.item_name}</p>
              {entry.gift_from ? <p className="inventory-card__gift">{giftFromText(entry.gift_from)}</p> : null}
              <p className="inventory-card__meta">
                <span className="inventory-card__server">{type}</span>
                <span aria-hidden="true"> · </span>
                <span className="inventory-card__duration">
                  {entry.is_one_time
                    ? ONE_OFF_TERM
                    : entry.until_wipe
                      ? untilWipeTerm(entry, now)
                      : formatDuration(entry)}
                </span>
              </p>
              <span className={`profile-badge profile-badge--${STATE_TONE[state]}`}>{stateLabel(entry, state)}</span>
              <StateNote entry={entry} state={state} now={now} type={type} servers={servers[entry.server_type] ?? []} />
              <ReturnForm entry={entry} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** «до вайпа, чт 22:00» while its end is a coming wipe (`wipe_at`, null once ended); else «до вайпа». */
function untilWipeTerm(entry: InventoryItem, now: string): string {
  return entry.wipe_at ? untilWipeText(Date.parse(entry.wipe_at), Date.parse(now)) : UNTIL_WIPE_TEXT.term;
}

/** A gift its giver took back, or an operator refunded, is the giver's money, not the friend's (issue 36). */
function isCancelledGift(entry: InventoryItem, state: InventoryState): boolean {
  return entry.gift_from !== null && (state === "returned" || state === "refunded");
}

function stateLabel(entry: InventoryItem, state: InventoryState): string {
  return isCancelledGift(entry, state) ? GIFT_CANCELLED_LABEL : INVENTORY_STATE_LABEL[state];
}

function StateNote({
  entry,
  state,
  now,
  type,
  servers,
}: {
  entry: InventoryItem;
  state: InventoryState;
  now: string;
  type: string;
  servers: ServerAddress[];
}) {
  switch (state) {
    case "waiting":
      return (
        <>
          <p className="inventory-card__note">{waitingText(type)}</p>
          {entry.until_wipe ? <p className="inventory-card__note">{UNTIL_WIPE_TEXT.waiting}</p> : null}
          {entry.fair_play ? (
            <p className="inventory-card__note" data-testid="fair-play">
              {fairPlayText(entry.fair_play.hours, Date.parse(entry.fair_play.until), Date.parse(now))}
            </p>
          ) : null}
          {servers.length > 0 ? (
            <ul className="inventory-card__servers">
              {servers.map((server) => (
                <li key={server.ip_port}>
                  <a className="inventory-card__connect" href={steamConnectHref(server.ip_port)}>
                    {connectText(server.name)}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </>
      );
    case "delivering":
      return <p className="inventory-card__note">{DELIVERING_TEXT}</p>;
    case "failed":
      return (
        <>
          <p className="inventory-card__note inventory-card__note--error">{entry.last_error}</p>
          <p className="inventory-card__note">{FAILED_RETRY_TEXT}</p>
        </>
      );
    case "active":
      if (entry.until_wipe && !entry.expires_at) {
        return (
          <p className="inventory-card__note" data-testid="until-wipe">
            {entry.wipe_at
              ? activeUntilText(formatMoscowDate(entry.wipe_at), timeLeft(entry.wipe_at, now))
              : UNTIL_WIPE_TEXT.untilUnknown}
          </p>
        );
      }
      return (
        <p className="inventory-card__note">
          {activeUntilText(formatMoscowDate(entry.expires_at), timeLeft(entry.expires_at ?? "", now))}
        </p>
      );
    case "expired":
      return (
        <p className="inventory-card__note">
          {(entry.until_wipe ? UNTIL_WIPE_TEXT.ended : expiredText)(formatMoscowDate(entry.expires_at))}
        </p>
      );
    case "received":
      return entry.used_at ? (
        <p className="inventory-card__note">{receivedText(formatMoscowDate(entry.used_at))}</p>
      ) : null;
    case "refunded":
      return <p className="inventory-card__note">{entry.gift_from ? GIFT_REFUNDED_NOTE : REFUNDED_TEXT}</p>;
    case "returned":
      return <p className="inventory-card__note">{entry.gift_from ? GIFT_RETURNED_NOTE : RETURNED_NOTE}</p>;
  }
}
