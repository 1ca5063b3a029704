/** What an action said: a success line or an error, announced to screen readers. */
export type AdminActionData = { ok: true; message: string } | { ok: false; error: string; form?: string };

export function ActionNotice({ result }: { result: AdminActionData | undefined }) {
  if (!result) return null;
  return result.ok ? (
    <p className="admin-notice admin-notice--success" role="status">
      {result.message}
    </p>
  ) : (
    <p className="admin-notice admin-notice--error" role="alert">
      {result.error}
    </p>
  );
}
