// The embedded database file is opened so that a commit does not stop the event loop on fsyncs:
// write-ahead log, synchronous=NORMAL (decision 100). A commit in the default rollback journal
// waited for the disk while every other request waited for it.
import { describe, expect, it } from "vitest";
import { client } from "./database.ts";

const pragma = async (name: string) => (await client.execute(`PRAGMA ${name}`)).rows[0]?.[0];

describe("the embedded libSQL file", () => {
  it("keeps a write-ahead log and commits without waiting for the disk", async () => {
    expect(await pragma("journal_mode")).toBe("wal");
    // 1 = NORMAL (2 = FULL, SQLite's default)
    expect(await pragma("synchronous")).toBe(1);
  });
});
