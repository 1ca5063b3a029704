import { formatDate, timeLeft } from "#core/format/dates.ts";
import { formatDuration } from "#core/format/plural.ts";
import { serverTypeLabel } from "#core/format/server-type.ts";
import type { InventoryFilter, InventoryItem } from "#core/profile/types.ts";
import { SiteLink } from "../site-link.tsx";
import { INVENTORY_STATUS_LABEL, statusTone } from "./labels.ts";

const FILTERS: { value: InventoryFilter; label: string }[] = [
  { value: "all", label: "Все" },
  { value: "not_used", label: "Неиспользованные" },
  { value: "used", label: "Использованные" },
];

/** The filter as links (?status=…), so it works without JavaScript. */
export function InventoryFilters({ current }: { current: InventoryFilter }) {
  return (
    <nav className="profile-filter" aria-label="Фильтр предметов">
      {FILTERS.map((filter) => (
        <SiteLink
          key={filter.value}
          to={filter.value === "all" ? "/profile" : `/profile?status=${filter.value}`}
          className={filter.value === current ? "profile-chip profile-chip--active" : "profile-chip"}
          aria-current={filter.value === current ? "true" : undefined}
          preventScrollReset
        >
          {filter.label}
        </SiteLink>
      ))}
    </nav>
  );
}

/** `now` is the loader's clock, so the time left reads the same on the server and after hydration. */
export function InventoryList({ items, now }: { items: InventoryItem[]; now: string }) {
  if (items.length === 0) return <p className="profile-empty">Нет предметов</p>;
  return (
    <ul className="inventory-grid">
      {items.map((entry) => (
        <li key={entry.id} className="inventory-card" data-testid="inventory-entry">
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
            <p className="inventory-card__meta">
              <span className="inventory-card__server">{serverTypeLabel(entry.server_type)}</span>
              <span aria-hidden="true"> · </span>
              <span className="inventory-card__duration">{formatDuration(entry)}</span>
            </p>
            <span className={`profile-badge profile-badge--${statusTone(entry.status)}`}>
              {INVENTORY_STATUS_LABEL[entry.status] ?? entry.status}
            </span>
            {entry.expires_at && (
              <p className="inventory-card__note">
                Действует до {formatDate(entry.expires_at)} · {timeLeft(entry.expires_at, now)}
              </p>
            )}
            {entry.last_error && entry.status === "not_used" && (
              <p className="inventory-card__note inventory-card__note--error">{entry.last_error}</p>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
