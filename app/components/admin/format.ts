// The console's own formats (kopecks and epoch milliseconds, as the database keeps them).

const rubles = new Intl.NumberFormat("ru-RU", { minimumFractionDigits: 0, maximumFractionDigits: 2 });
const dateTime = new Intl.DateTimeFormat("ru-RU", {
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "Europe/Moscow",
});

/** 150050 → "1 500,5 ₽"; with `signed`, a plus for credits. */
export function formatKopecks(kopecks: number, { signed = false } = {}): string {
  const text = `${rubles.format(kopecks / 100)} ₽`;
  return signed && kopecks > 0 ? `+${text}` : text;
}

export function formatMoment(ms: number | null | undefined): string {
  return ms == null ? "—" : dateTime.format(new Date(ms));
}

export const ROLE_LABEL: Record<string, string> = {
  admin: "Администратор",
  support: "Поддержка",
  // The site by itself (a payment a restore had lost, decision 135); the row names the player it paid.
  site: "автоматически",
};
