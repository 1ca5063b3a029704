import { pluralRu } from "#core/format/plural.ts";
import { EXPORT_TEXT } from "#core/messages/admin.ts";

const ROWS = { one: "строка", few: "строки", many: "строк" };
const number = new Intl.NumberFormat("ru-RU");

/**
 * The parts of a period too long for one file (decision 115): one small form each, posting natively
 * to the CSV route like the main form, so each part downloads with or without JavaScript.
 */
export function ExportParts({
  kind,
  from,
  to,
  rows,
  rowsPerFile,
  parts,
}: {
  kind: string;
  from: string;
  to: string;
  rows: number;
  rowsPerFile: number;
  parts: number;
}) {
  const numbers = Array.from({ length: parts }, (_, index) => index + 1);
  return (
    <div className="admin-notice" role="status" data-testid="export-parts">
      <p>
        {EXPORT_TEXT.partsIntro(
          `${number.format(rows)} ${pluralRu(rows, ROWS)}`,
          `${number.format(rowsPerFile)} ${pluralRu(rowsPerFile, ROWS)}`,
        )}
      </p>
      <ul className="admin-parts">
        {numbers.map((part) => (
          <li key={part}>
            <form method="post" action="/admin/exports/csv">
              <input type="hidden" name="kind" value={kind} />
              <input type="hidden" name="from" value={from} />
              <input type="hidden" name="to" value={to} />
              <input type="hidden" name="part" value={part} />
              <button type="submit" className="button button--ghost">
                {EXPORT_TEXT.partLabel(
                  part,
                  parts,
                  number.format((part - 1) * rowsPerFile + 1),
                  number.format(Math.min(part * rowsPerFile, rows)),
                )}
              </button>
            </form>
          </li>
        ))}
      </ul>
    </div>
  );
}
