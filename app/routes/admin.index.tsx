import { requireOperatorForSummary } from "#app/lib/admin/operator.server.ts";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { loadSummary } from "#worker/services/admin/summary.ts";
import { DailyChart } from "../components/admin/daily-chart.tsx";
import { formatKopecks } from "../components/admin/format.ts";
import type { Route } from "./+types/admin.index";

// /admin: the summary (revenue, paying players, top items, the last 30 days).

export async function loader(args: Route.LoaderArgs) {
  const { summaryState } = await requireOperatorForSummary(args);
  return loadSummary(args.context.get(depsContext), summaryState ?? undefined);
}

const PERIODS = [
  ["today", "Сегодня"],
  ["week", "7 дней"],
  ["month", "30 дней"],
] as const;

export default function AdminSummary({ loaderData }: Route.ComponentProps) {
  const { purchases, topUps, payers, topItems, days } = loaderData;
  return (
    <section className="admin-section" aria-labelledby="summary-title">
      <h2 id="summary-title">Сводка</h2>
      <div className="admin-scroll">
        <table className="admin-table" data-testid="summary-totals">
          <thead>
            <tr>
              <th scope="col" />
              {PERIODS.map(([key, label]) => (
                <th key={key} scope="col" className="admin-table__num">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Пополнения</th>
              {PERIODS.map(([key]) => (
                <td key={key} className="admin-table__num">
                  {formatKopecks(topUps[key])}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row">Покупки</th>
              {PERIODS.map(([key]) => (
                <td key={key} className="admin-table__num">
                  {formatKopecks(purchases[key])}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row">Платящие игроки</th>
              {PERIODS.map(([key]) => (
                <td key={key} className="admin-table__num">
                  {payers[key]}
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>

      <h2>Последние 30 дней</h2>
      <DailyChart days={days} />

      <h2>Популярные товары за 30 дней</h2>
      {topItems.length === 0 ? (
        <p className="muted">Покупок не было</p>
      ) : (
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">Товар</th>
              <th scope="col">Сервер</th>
              <th scope="col" className="admin-table__num">
                Продано
              </th>
              <th scope="col" className="admin-table__num">
                Выручка
              </th>
            </tr>
          </thead>
          <tbody>
            {topItems.map((item) => (
              <tr key={item.itemId} data-testid="top-item">
                <td>{item.name}</td>
                <td>{item.serverType}</td>
                <td className="admin-table__num">{item.count}</td>
                <td className="admin-table__num">{formatKopecks(item.revenue)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
