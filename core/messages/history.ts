// Texts of the profile histories beside the spec's fixed ones.

/** The deposit history's «Зачислено» cell for a top-up that has no credit date (instead of «Нет данных»). */
export const DEPOSIT_CREDITED_TEXT = {
  pending: "Ожидает оплаты",
  notCredited: "Не зачислено",
} as const;

/** The home page's guide, step 2: the copy button needs JavaScript, so without it the guide says to select the address. */
export const GUIDE_COPY_STEP = {
  withScript: "и нажмите «Скопировать IP/Port».",
  withoutScript: "и выделите его адрес (IP и порт), чтобы скопировать.",
  toServers: "Выбрать сервер",
} as const;

/** Under a player's own list that has older rows (the Корзина, /purchases; decision 150): the next page. */
export const SHOW_MORE_TEXT = "Показать ещё";

/** «Показать ещё» while the next page loads with JavaScript (decision 156). */
export const SHOW_MORE_LOADING_TEXT = "Загрузка…";
