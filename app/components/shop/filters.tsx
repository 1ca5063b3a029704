import { serverTypeLabel } from "#core/format/server-type.ts";
import type { ShopCategory } from "#core/shop/types.ts";
import { shopUrl } from "../../lib/shop/query.ts";
import { SiteLink } from "../site-link.tsx";

interface FilterProps {
  serverType: string;
  categoryId: number | null;
  query: string;
  /** Kept across filters; a new filter starts at page 1. */
  perPage: number;
}

/** Server types as links: each is a full address, so the choice survives reloads and works without JavaScript. */
export function ServerTypeSelector({
  types,
  serverType,
  categoryId,
  query,
  perPage,
}: FilterProps & { types: string[] }) {
  return (
    <nav className="pills" aria-label="Тип сервера">
      {types.map((type) => (
        <SiteLink
          key={type}
          to={shopUrl({ server_type: type, category_id: categoryId, query, per_page: perPage })}
          className={`pill${type === serverType ? " pill--active" : ""}`}
          aria-current={type === serverType ? "page" : undefined}
          preventScrollReset
        >
          {serverTypeLabel(type)}
        </SiteLink>
      ))}
    </nav>
  );
}

export function CategoryFilter({
  categories,
  serverType,
  categoryId,
  query,
  perPage,
}: FilterProps & { categories: ShopCategory[] }) {
  const options = [{ id: null, name: "Все" }, ...categories];
  return (
    <nav className="pills pills--categories" aria-label="Категории">
      {options.map((category) => (
        <SiteLink
          key={category.id ?? "all"}
          to={shopUrl({ server_type: serverType, category_id: category.id, query, per_page: perPage })}
          className={`pill${category.id === categoryId ? " pill--active" : ""}`}
          aria-current={category.id === categoryId ? "page" : undefined}
          preventScrollReset
        >
          {category.name}
        </SiteLink>
      ))}
    </nav>
  );
}
