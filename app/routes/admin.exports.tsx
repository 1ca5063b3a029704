import { requireOperator } from "#app/lib/admin/operator.server.ts";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { EXPORT_TEXT } from "#core/messages/admin.ts";
import { EXPORT_KINDS, exportPartCount, mayExport } from "#worker/services/admin/exports.ts";
import { ExportParts } from "../components/admin/export-parts.tsx";
import type { Route } from "./+types/admin.exports";

// /admin/exports: CSV of payments, purchases and the ledger over a period (decision 110). The form
// posts natively (no React Router interception) to the resource route, which answers with the file.

function moscowToday(now: Date): string {
  return new Date(now.getTime() + 3 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

export async function loader({ context, request, url }: Route.LoaderArgs) {
  const operator = await requireOperator(context, request, "exportPurchases");
  const params = url.searchParams;
  const deps = context.get(depsContext);
  const today = moscowToday(deps.now());
  const kinds = EXPORT_KINDS.filter((kind) => mayExport(operator, kind));
  const asked = params.get("kind");
  return {
    kinds,
    kind: kinds.find((kind) => kind === asked) ?? kinds[0],
    from: params.get("from") ?? `${today.slice(0, 8)}01`,
    to: params.get("to") ?? today,
    error: params.get("error") === "period" ? EXPORT_TEXT.period : null,
    parts: partsOf(params.get("rows"), deps.config.exportRowsPerFile),
  };
}

/** The parts to offer after the export answered that the period holds `rows` rows, too many for one file. */
function partsOf(rows: string | null, rowsPerFile: number | null) {
  const count = Number(rows);
  if (rowsPerFile === null || !Number.isSafeInteger(count) || count <= rowsPerFile) return null;
  return { rows: count, rowsPerFile, parts: exportPartCount(count, rowsPerFile) };
}

export default function AdminExports({ loaderData }: Route.ComponentProps) {
  const { kinds, kind, from, to, error, parts } = loaderData;
  return (
    <section className="admin-section" aria-labelledby="exports-title">
      <h2 id="exports-title">Выгрузки CSV</h2>
      <p className="muted">
        Файл для Excel: UTF-8, поля через «;», даты по Москве в ISO 8601, суммы в рублях с десятичной запятой.
      </p>
      {error && (
        <p className="admin-notice admin-notice--error" role="alert">
          {error}
        </p>
      )}
      <form method="post" action="/admin/exports/csv" className="admin-form">
        <label className="admin-field">
          Что выгрузить
          <select name="kind" defaultValue={kind}>
            {kinds.map((value) => (
              <option key={value} value={value}>
                {EXPORT_TEXT.kinds[value]}
              </option>
            ))}
          </select>
        </label>
        <label className="admin-field">
          С (МСК)
          <input type="date" name="from" defaultValue={from} required />
        </label>
        <label className="admin-field">
          По (МСК, включительно)
          <input type="date" name="to" defaultValue={to} required />
        </label>
        <button type="submit" className="button">
          Скачать CSV
        </button>
      </form>
      {parts && kind && <ExportParts kind={kind} from={from} to={to} {...parts} />}
    </section>
  );
}
