import { Notice } from "../notice.tsx";

/** What an action said: a success line or an error, announced to screen readers. */
export type AdminActionData = { ok: true; message: string } | { ok: false; error: string; form?: string };

export function ActionNotice({ result }: { result: AdminActionData | undefined }) {
  if (!result) return null;
  return result.ok ? (
    <Notice block="admin-notice" tone="success" text={result.message} />
  ) : (
    <Notice block="admin-notice" tone="error" text={result.error} />
  );
}
