import { Form, Link } from "react-router";
import { requireOperator } from "#app/lib/admin/operator.server.ts";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { playerSearchSchema, searchPlayers } from "#worker/services/admin/players.ts";
import { formatKopecks, formatMoment } from "../components/admin/format.ts";
import type { Route } from "./+types/admin.players";

// /admin/players: find a player by SteamID64 or nickname.

export async function loader({ context, request, url }: Route.LoaderArgs) {
  await requireOperator(context, request, "players");
  const query = playerSearchSchema.parse(url.searchParams.get("q") ?? "");
  return { query, players: await searchPlayers(context.get(depsContext), query) };
}

export default function AdminPlayers({ loaderData }: Route.ComponentProps) {
  const { query, players } = loaderData;
  return (
    <section className="admin-section" aria-labelledby="players-title">
      <h2 id="players-title">Игроки</h2>
      <Form method="get" className="admin-form" role="search">
        <label className="admin-field admin-field--wide">
          SteamID64 или ник
          <input type="search" name="q" defaultValue={query} maxLength={64} autoComplete="off" />
        </label>
        <button type="submit" className="button">
          Найти
        </button>
      </Form>
      {players.length === 0 ? (
        <p className="muted">Игроки не найдены</p>
      ) : (
        <div className="admin-scroll admin-section">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Ник</th>
                <th scope="col">SteamID64</th>
                <th scope="col" className="admin-table__num">
                  Баланс
                </th>
                <th scope="col">Покупки</th>
                <th scope="col">С нами с</th>
              </tr>
            </thead>
            <tbody>
              {players.map((player) => (
                <tr key={player.id} data-testid="player-row">
                  <td>
                    <Link to={`/admin/players/${player.steamId}`}>{player.nickname}</Link>
                  </td>
                  <td className="admin-table__mono">{player.steamId}</td>
                  <td className="admin-table__num">{formatKopecks(player.balance)}</td>
                  <td>
                    {player.purchasesBlocked ? (
                      <span className="admin-badge admin-badge--bad">Заблокированы</span>
                    ) : (
                      <span className="admin-badge admin-badge--good">Разрешены</span>
                    )}
                  </td>
                  <td>{formatMoment(player.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
