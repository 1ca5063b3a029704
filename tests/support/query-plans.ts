// Reading SQLite's query plans (EXPLAIN QUERY PLAN) for full scans of tables that grow with the
// site's history. A scan reads every row of its table: on D1 every one of them is a row read on the
// bill, and in a minutely job it is read 1 440 times a day (issue 37).

/** How a table's size moves over the site's life. Every table of the schema must be named here. */
export const TABLE_GROWTH: Record<string, { grows: boolean; why: string }> = {
  // With the history: a row (or several) per purchase, top-up, delivery, sign-in, operator action.
  users: { grows: true, why: "a row per player who ever signed in" },
  sessions: { grows: true, why: "a row per sign-in, never deleted" },
  purchases: { grows: true, why: "a row per purchase" },
  payments: { grows: true, why: "a row per top-up" },
  payment_refunds: { grows: true, why: "a row per provider refund" },
  refund_debts: { grows: true, why: "a row per player a refund left in debt" },
  refunds: { grows: true, why: "a row per operator refund" },
  ledger: { grows: true, why: "a row per money movement" },
  inventory_entries: { grows: true, why: "a row per thing bought or redeemed" },
  deliveries: { grows: true, why: "a grant per entry and a revoke per timed one" },
  promo_redemptions: { grows: true, why: "a row per redeemed code" },
  promo_attempts: { grows: true, why: "a row per failed code" },
  audit_log: { grows: true, why: "append-only, a row per operator action" },
  server_wipes: { grows: true, why: "a row per wipe a plugin reported, every week or two per server" },
  // Bounded: the catalog and the servers an owner keeps, one-row settings, and tables pruned to a window.
  servers: { grows: false, why: "the owner's game servers" },
  server_heartbeats: { grows: false, why: "one row per game server" },
  game_request_marks: { grows: false, why: "one row per game server" },
  deliveries_waiting: { grows: false, why: "one row per server type" },
  categories: { grows: false, why: "the catalog" },
  items: { grows: false, why: "the catalog" },
  item_durations: { grows: false, why: "the catalog" },
  item_contents: { grows: false, why: "the catalog" },
  item_commands: { grows: false, why: "the catalog" },
  sales: { grows: false, why: "an operator's sales, a few a month" },
  wipe_sales: { grows: false, why: "an operator's wipe sales, a handful" },
  fair_play_windows: { grows: false, why: "an operator's fair-play windows, a few per server type" },
  promo_codes: { grows: false, why: "an operator's codes" },
  catalog_revision: { grows: false, why: "one row" },
  key_values: { grows: false, why: "a handful of keys" },
  job_leases: { grows: false, why: "one row per job" },
  operators: { grows: false, why: "the owner's staff" },
  discord_settings: { grows: false, why: "one row" },
  shop_settings: { grows: false, why: "one row" },
  discord_outbox: { grows: false, why: "drained: a sent message's row is deleted, an unsendable one after a day" },
  openid_nonces: { grows: false, why: "pruned to the last 15 minutes of sign-ins on every sign-in" },
  sign_in_codes: { grows: false, why: "a code lives a minute and is deleted when used or expired" },
  steam_call_budget: { grows: false, why: "a row per caller and window; windows past are deleted (decision 127)" },
};

/**
 * Partial indexes that hold a working set rather than the history: a full scan of one reads what is
 * pending now, however long the history. Scanning one is allowed, for the reason given.
 */
export const WORKING_SET_INDEXES: Record<string, string> = {
  deliveries_pending_player: "the pending deliveries (the hourly rebuild of who waits, decision 126)",
};

const KEYWORDS = new Set(
  "where set on join left inner cross natural using group order limit values select union except intersect as returning default indexed".split(
    " ",
  ),
);

/** The tables a statement names, by every name (alias or the table's own) its plan may show them under. */
export function tablesOf(sql: string): Map<string, Set<string>> {
  const names = new Map<string, Set<string>>();
  const add = (name: string, table: string) => {
    const key = name.toLowerCase();
    names.set(key, (names.get(key) ?? new Set()).add(table.toLowerCase()));
  };
  const pattern = /\b(?:from|join|update|into)\s+"?([a-z_][\w]*)"?(?:\s+(?:as\s+)?"?([a-z_]\w*)"?)?/gi;
  for (const match of sql.matchAll(pattern)) {
    const table = match[1] as string;
    if (!(table.toLowerCase() in TABLE_GROWTH)) continue;
    add(table, table);
    const alias = match[2];
    if (alias && !KEYWORDS.has(alias.toLowerCase())) add(alias, table);
  }
  return names;
}

/** Names a statement gives to its own subqueries and common table expressions (never tables). */
function derivedNames(sql: string, plan: string[]): Set<string> {
  const derived = new Set<string>();
  for (const match of sql.matchAll(/\)\s+(?:as\s+)?"?([a-z_]\w*)"?/gi)) derived.add((match[1] as string).toLowerCase());
  for (const match of sql.matchAll(
    /\b([a-z_]\w*)\s*(?:\([^)]*\))?\s+as\s+(?:materialized\s+|not\s+materialized\s+)?\(/gi,
  )) {
    derived.add((match[1] as string).toLowerCase());
  }
  for (const line of plan) {
    const match = /^(?:CO-ROUTINE|MATERIALIZE)\s+(\S+)/.exec(line);
    if (match) derived.add((match[1] as string).toLowerCase());
  }
  return derived;
}

/** The tables a statement writes (its INSERT, UPDATE or DELETE target). */
export function tablesWritten(sql: string): Set<string> {
  const written = new Set<string>();
  for (const match of sql.matchAll(/\b(?:insert\s+(?:or\s+\w+\s+)?into|update|delete\s+from)\s+"?([a-z_]\w*)"?/gi)) {
    written.add((match[1] as string).toLowerCase());
  }
  return written;
}

/** For each table, the tables whose foreign keys reference it (SQLite checks them when it is written). */
export type ForeignKeyChildren = Map<string, Set<string>>;

export interface ScanFinding {
  /** The plan's line, e.g. `SCAN d` or `SCAN purchases USING COVERING INDEX purchases_created`. */
  line: string;
  /** The tables it may be. */
  tables: string[];
  /** Why it is a problem. */
  problem: "scans a table that grows" | "scans a name the statement doesn't explain";
}

/**
 * The full scans in `plan` (EXPLAIN QUERY PLAN's detail lines for `sql`) of tables that grow, and of
 * names that are neither the statement's tables nor its own subqueries (so nothing slips by unread).
 * A scan through an index is still a scan: it reads every entry.
 *
 * A plan of a write also lists the foreign-key checks SQLite compiles into it: a scan of each table
 * referencing a written one. They run only while the statement has a violation outstanding (the
 * program skips them when the counter is zero, as it is for every statement that succeeds without
 * deferring a violation), so they read nothing; D1's counters in the bench show it. They are told
 * apart by `children`: a scan of a table the statement doesn't name, referencing one it writes.
 */
export function scansOfGrowingTables(
  sql: string,
  plan: string[],
  children: ForeignKeyChildren = new Map(),
): ScanFinding[] {
  const tables = tablesOf(sql);
  const derived = derivedNames(sql, plan);
  const checked = new Set([...tablesWritten(sql)].flatMap((table) => [...(children.get(table) ?? [])]));
  const findings: ScanFinding[] = [];
  for (const line of plan) {
    const match = /^SCAN (\S+)/.exec(line);
    if (!match) continue;
    const name = (match[1] as string).toLowerCase();
    if (name === "constant" || line.includes("VIRTUAL TABLE")) continue;
    const named = tables.get(name);
    const index = /USING (?:COVERING )?INDEX (\S+)/.exec(line)?.[1];
    if (named && index && index in WORKING_SET_INDEXES) continue;
    if (named) {
      const growing = [...named].filter((table) => TABLE_GROWTH[table]?.grows);
      if (growing.length > 0) findings.push({ line, tables: growing, problem: "scans a table that grows" });
      continue;
    }
    if (derived.has(name) || checked.has(name)) continue;
    findings.push({ line, tables: [name], problem: "scans a name the statement doesn't explain" });
  }
  return findings;
}

/** Statements with their literal spacing folded, so one statement made many times is checked once. */
export const statementKey = (sql: string) => sql.replace(/\s+/g, " ").trim();
