/** Stored ms-epoch times travel as ISO 8601 strings; missing stays null. */
export function isoOrNull(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}
