import { Link } from "react-router";
import { z } from "zod";
import { requireOperator } from "#app/lib/admin/operator.server.ts";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { AUDIT_PAGE_SIZE, listAudit } from "#worker/services/admin/audit.ts";
import { formatMoment, ROLE_LABEL } from "../components/admin/format.ts";
import type { Route } from "./+types/admin.audit";

// /admin/audit: the journal of every operator action, newest first.

const cursorSchema = z.coerce.number().int().positive().optional().catch(undefined);

export async function loader({ context, request, url }: Route.LoaderArgs) {
  await requireOperator(context, request, "console");
  const before = cursorSchema.parse(url.searchParams.get("before") ?? undefined);
  const rows = await listAudit(context.get(depsContext), { before });
  const last = rows.at(-1);
  return { rows, next: rows.length === AUDIT_PAGE_SIZE && last ? last.id : null };
}

const TARGET_LABEL: Record<string, string> = {
  user: "Игрок",
  purchase: "Покупка",
  item: "Товар",
  delivery: "Доставка",
  export: "Выгрузка",
  discord: "Discord",
  sale: "Распродажа",
  category: "Категория",
  settings: "Настройки",
  server_type: "Тип серверов",
};

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { rows, next } = loaderData;
  return (
    <section className="admin-section" aria-labelledby="audit-title">
      <h2 id="audit-title">Журнал</h2>
      {rows.length === 0 ? (
        <p className="muted">Действий пока не было</p>
      ) : (
        <div className="admin-scroll">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Когда</th>
                <th scope="col">Кто</th>
                <th scope="col">Действие</th>
                <th scope="col">Объект</th>
                <th scope="col">Было</th>
                <th scope="col">Стало</th>
                <th scope="col">Причина</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} data-testid="audit-row">
                  <td>{formatMoment(row.createdAt)}</td>
                  <td>
                    {row.operatorNickname ?? row.operatorSteamId}
                    <br />
                    <span className="muted">{ROLE_LABEL[row.operatorRole] ?? row.operatorRole}</span>
                  </td>
                  <td>{row.actionLabel}</td>
                  <td>
                    {TARGET_LABEL[row.targetType] ?? row.targetType} №{row.targetId}
                  </td>
                  <td>
                    <pre className="admin-json">{row.before ?? "—"}</pre>
                  </td>
                  <td>
                    <pre className="admin-json">{row.after ?? "—"}</pre>
                  </td>
                  <td>{row.reason ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {next && (
        <p>
          <Link to={`?before=${next}`}>Раньше</Link>
        </p>
      )}
    </section>
  );
}
