import { type FormEvent, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { SHOP_PAGE_SIZE } from "#core/shop/pagination.ts";
import { MIN_SEARCH_LENGTH, SEARCH_DELAY_MS, searchHint } from "#core/shop/plural.ts";
import { shopUrl } from "../../lib/shop/query.ts";

interface SearchBoxProps {
  serverType: string;
  categoryId: number | null;
  /** The query the page was rendered for. */
  query: string;
  perPage: number;
}

/**
 * A GET form (works without JavaScript). With JavaScript the search runs 500 ms
 * after typing stops or at once on Enter, needs 2 characters after trimming (MIN_SEARCH_LENGTH), and
 * an emptied field clears the results.
 */
export function SearchBox({ serverType, categoryId, query, perPage }: SearchBoxProps) {
  const navigate = useNavigate();
  const [value, setValue] = useState(query);
  const timer = useRef<number | undefined>(undefined);
  const hint = searchHint(value);

  // A navigation elsewhere (back button, a link) brings a new query; follow it unless the player is typing.
  useEffect(() => {
    if (document.activeElement?.id !== "shop-search") setValue(query);
  }, [query]);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const go = (text: string) => {
    window.clearTimeout(timer.current);
    const trimmed = text.trim();
    if (trimmed === query.trim()) return;
    void navigate(shopUrl({ server_type: serverType, category_id: categoryId, query: trimmed, per_page: perPage }), {
      replace: true,
      preventScrollReset: true,
    });
  };

  const change = (text: string) => {
    setValue(text);
    window.clearTimeout(timer.current);
    const length = text.trim().length;
    if (length === 0) go("");
    else if (length >= MIN_SEARCH_LENGTH) timer.current = window.setTimeout(() => go(text), SEARCH_DELAY_MS);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const length = value.trim().length;
    if (length === 0 || length >= MIN_SEARCH_LENGTH) go(value);
  };

  return (
    // A plain form: with JavaScript `submit` always navigates itself, so React Router's <Form> would only add its hooks.
    // biome-ignore lint/a11y/useSemanticElements: the form is the search landmark itself, as <Form> rendered it; a <search> wrapper would add an element for the same role
    <form method="get" action="/shop" role="search" className="search" onSubmit={submit}>
      <input type="hidden" name="server_type" value={serverType} />
      {categoryId ? <input type="hidden" name="category_id" value={categoryId} /> : null}
      {perPage !== SHOP_PAGE_SIZE ? <input type="hidden" name="per_page" value={perPage} /> : null}
      <label className="visually-hidden" htmlFor="shop-search">
        Поиск товаров
      </label>
      <input
        id="shop-search"
        className="search__input"
        type="search"
        name="query"
        placeholder="Поиск товаров"
        autoComplete="off"
        maxLength={100}
        value={value}
        onChange={(event) => change(event.target.value)}
      />
      <button type="submit" className="button button--ghost">
        Найти
      </button>
      <p className="search__hint" aria-live="polite">
        {hint}
      </p>
    </form>
  );
}
