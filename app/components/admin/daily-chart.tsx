import type { SummaryDay } from "#worker/services/admin/summary.ts";
import { dailyChartMarkup } from "./daily-chart-markup.ts";

/**
 * Purchases and top-ups (rubles) per day as paired bars, drawn on the server: the chart is part
 * of the page and needs no JavaScript. Each bar carries its numbers in a <title>. The bars are one
 * string (daily-chart-markup.ts), not 150 React elements: rendering those was a fifth of /admin's
 * CPU (docs/PERFORMANCE.md, run 9).
 */
export function DailyChart({ days }: { days: SummaryDay[] }) {
  const chart = dailyChartMarkup(days);
  return (
    <figure className="admin-section">
      <svg
        className="admin-chart"
        viewBox={chart.viewBox}
        role="img"
        aria-labelledby="daily-chart-title"
        data-testid="daily-chart"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: built from numbers and our own labels, every text escaped
        dangerouslySetInnerHTML={{ __html: chart.markup }}
      />
      <figcaption className="admin-legend">
        <span>
          <span className="admin-legend__swatch admin-legend__swatch--purchases" />
          Покупки, ₽
        </span>
        <span>
          <span className="admin-legend__swatch admin-legend__swatch--topups" />
          Пополнения, ₽
        </span>
      </figcaption>
    </figure>
  );
}
