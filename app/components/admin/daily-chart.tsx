import type { SummaryDay } from "#worker/services/admin/summary.ts";
import { formatKopecks } from "./format.ts";

const WIDTH = 720;
const HEIGHT = 220;
const TOP = 12;
const BOTTOM = 24;
const LEFT = 4;

const dayLabel = new Intl.DateTimeFormat("ru-RU", { day: "2-digit", month: "2-digit", timeZone: "Europe/Moscow" });

/**
 * Purchases and top-ups (rubles) per day as paired bars, drawn on the server: the chart is part
 * of the page and needs no JavaScript. Each bar carries its numbers in a <title>.
 */
export function DailyChart({ days }: { days: SummaryDay[] }) {
  const largest = Math.max(0, ...days.flatMap((day) => [day.purchases.total, day.topUps.total]));
  // The scale's top; a month without money is drawn flat and labelled «0 ₽», not «0,01 ₽».
  const max = Math.max(1, largest);
  const slot = (WIDTH - LEFT) / Math.max(1, days.length);
  const bar = Math.max(1, slot / 2 - 2);
  const plot = HEIGHT - TOP - BOTTOM;
  const height = (value: number) => (value / max) * plot;
  return (
    <figure className="admin-section">
      <svg
        className="admin-chart"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="daily-chart-title"
        data-testid="daily-chart"
      >
        <title id="daily-chart-title">Покупки и пополнения по дням за последние {days.length} дней</title>
        <line className="admin-chart__grid" x1={LEFT} x2={WIDTH} y1={TOP} y2={TOP} />
        <line className="admin-chart__grid" x1={LEFT} x2={WIDTH} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} />
        <text className="admin-chart__axis" x={WIDTH - 2} y={TOP - 2} textAnchor="end">
          {formatKopecks(largest)}
        </text>
        {days.map((day, index) => {
          const x = LEFT + index * slot;
          const label = dayLabel.format(new Date(day.start));
          return (
            <g key={day.start}>
              <rect
                className="admin-chart__purchases"
                x={x + 1}
                y={HEIGHT - BOTTOM - height(day.purchases.total)}
                width={bar}
                height={height(day.purchases.total)}
              >
                <title>{`${label}: покупки ${day.purchases.count}, ${formatKopecks(day.purchases.total)}`}</title>
              </rect>
              <rect
                className="admin-chart__topups"
                x={x + 1 + bar}
                y={HEIGHT - BOTTOM - height(day.topUps.total)}
                width={bar}
                height={height(day.topUps.total)}
              >
                <title>{`${label}: пополнения ${day.topUps.count}, ${formatKopecks(day.topUps.total)}`}</title>
              </rect>
              {index % 5 === 0 && (
                <text className="admin-chart__axis" x={x + 1} y={HEIGHT - 8}>
                  {label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
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
