// The embedded database file is opened so that a commit costs one fsync, not the rollback journal's
// several (which stopped every other request on the event loop), and is still on the disk before the
// site answers: write-ahead log, synchronous=FULL (decision 100 and its addendum).
import { describe, expect, it } from "vitest";
import { client } from "./database.ts";

const pragma = async (name: string) => (await client.execute(`PRAGMA ${name}`)).rows[0]?.[0];

describe("the embedded libSQL file", () => {
  it("keeps a write-ahead log and waits for the disk on every commit", async () => {
    expect(await pragma("journal_mode")).toBe("wal");
    // 2 = FULL (1 = NORMAL, which a power cut could roll back past an acknowledged deposit)
    expect(await pragma("synchronous")).toBe(2);
  });
});
