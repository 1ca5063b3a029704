import type { SummaryDay } from "#worker/services/admin/summary.ts";
import { formatKopecks } from "./format.ts";

const WIDTH = 720;
const HEIGHT = 220;
const TOP = 12;
const BOTTOM = 24;
const LEFT = 4;

const dayLabel = new Intl.DateTimeFormat("ru-RU", { day: "2-digit", month: "2-digit", timeZone: "Europe/Moscow" });

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const escapeText = (text: string) => text.replace(/[&<>"]/g, (char) => ESCAPES[char] ?? char);
/** SVG numbers to two decimals at most: the markup stays short and the same on server and browser. */
const n = (value: number) => String(Math.round(value * 100) / 100);

function bar(kind: "purchases" | "topups", x: number, width: number, height: number, title: string): string {
  return `<rect class="admin-chart__${kind}" x="${n(x)}" y="${n(HEIGHT - BOTTOM - height)}" width="${n(width)}" height="${n(height)}"><title>${escapeText(title)}</title></rect>`;
}

// The summary is kept in memory while its data stands (decision 115), so its days are the same array
// from one reload to the next: the chart is drawn once per summary.
const drawn = new WeakMap<SummaryDay[], { viewBox: string; markup: string }>();

/** The inside of the summary's daily chart as SVG markup, and the viewBox it is drawn in. */
export function dailyChartMarkup(days: SummaryDay[]): { viewBox: string; markup: string } {
  let chart = drawn.get(days);
  if (!chart) {
    chart = drawChart(days);
    drawn.set(days, chart);
  }
  return chart;
}

function drawChart(days: SummaryDay[]): { viewBox: string; markup: string } {
  const largest = Math.max(0, ...days.flatMap((day) => [day.purchases.total, day.topUps.total]));
  // The scale's top; a month without money is drawn flat and labelled «0 ₽», not «0,01 ₽».
  const max = Math.max(1, largest);
  const slot = (WIDTH - LEFT) / Math.max(1, days.length);
  const width = Math.max(1, slot / 2 - 2);
  const plot = HEIGHT - TOP - BOTTOM;
  const height = (value: number) => (value / max) * plot;
  const parts = [
    `<title id="daily-chart-title">Покупки и пополнения по дням за последние ${days.length} дней</title>`,
    `<line class="admin-chart__grid" x1="${LEFT}" x2="${WIDTH}" y1="${TOP}" y2="${TOP}"></line>`,
    `<line class="admin-chart__grid" x1="${LEFT}" x2="${WIDTH}" y1="${HEIGHT - BOTTOM}" y2="${HEIGHT - BOTTOM}"></line>`,
    `<text class="admin-chart__axis" x="${WIDTH - 2}" y="${TOP - 2}" text-anchor="end">${escapeText(formatKopecks(largest))}</text>`,
  ];
  days.forEach((day, index) => {
    const x = LEFT + index * slot;
    const label = dayLabel.format(new Date(day.start));
    parts.push(
      "<g>",
      bar(
        "purchases",
        x + 1,
        width,
        height(day.purchases.total),
        `${label}: покупки ${day.purchases.count}, ${formatKopecks(day.purchases.total)}`,
      ),
      bar(
        "topups",
        x + 1 + width,
        width,
        height(day.topUps.total),
        `${label}: пополнения ${day.topUps.count}, ${formatKopecks(day.topUps.total)}`,
      ),
      index % 5 === 0
        ? `<text class="admin-chart__axis" x="${n(x + 1)}" y="${HEIGHT - 8}">${escapeText(label)}</text>`
        : "",
      "</g>",
    );
  });
  return { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, markup: parts.join("") };
}
