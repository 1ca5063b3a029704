// A delivery's id comes from what it delivers (decision 124): the inventory entry (its id and
// creation time) and the kind. A site restored from a backup that creates the row again gives it
// the id the plugins journaled, so they recognise it instead of running it a second time; a
// different purchase that reuses the entry id has another creation time and so another id. A revoke on
// one more server of a split grant (decision 132) also hashes that server; an entry's own keeps its id.

const encoder = new TextEncoder();

export async function deliveryIdFor(
  kind: "grant" | "revoke",
  entryId: number,
  entryCreatedAt: number,
  revokeServerId: number | null = null,
): Promise<string> {
  const server = revokeServerId === null ? "" : `\n${revokeServerId}`;
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", encoder.encode(`delivery\n${kind}\n${entryId}\n${entryCreatedAt}${server}`)),
  );
  // RFC 9562 version 8 (an id of our own making), RFC variant.
  digest[6] = ((digest[6] ?? 0) & 0x0f) | 0x80;
  digest[8] = ((digest[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...digest.slice(0, 16)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
