// What ran of a delivery, command by command (decision 124). The plugin reports one letter per
// command; the site keeps, per command, the state, the server that reported it and when.

/**
 * pending: not run (or run and rolled back by a crash); given: ran, the world not saved since;
 * saved: ran and saved, it has taken effect; failed: the last attempt stopped here; uncertain: the
 * game server died while it ran and no rollback undoes it (a chat message, an owner's own verb).
 */
export type CommandState = "pending" | "given" | "saved" | "failed" | "uncertain";

export interface CommandProgress {
  state: CommandState;
  /** The server that reported this state; null while pending and never reported. */
  server: number | null;
  at: number | null;
}

/** The plugin's wire form: one letter a command. */
const LETTERS: Record<string, CommandState> = { p: "pending", g: "given", s: "saved", f: "failed", u: "uncertain" };
export const PROGRESS_PATTERN = /^[pgsfu]{0,100}$/;

export function parseProgressLetters(letters: string): CommandState[] {
  return [...letters].map((letter) => LETTERS[letter] ?? "pending");
}

export function toProgressLetters(progress: readonly CommandProgress[]): string {
  return progress.map((command) => command.state[0] ?? "p").join("");
}

/** The stored progress (JSON) for `count` commands; missing entries are pending. */
export function readProgress(json: string | null, count: number): CommandProgress[] {
  let stored: unknown = null;
  try {
    stored = json ? JSON.parse(json) : null;
  } catch {
    stored = null;
  }
  const list = Array.isArray(stored) ? (stored as Partial<CommandProgress>[]) : [];
  return Array.from({ length: count }, (_, index) => {
    const entry = list[index];
    const state = entry?.state;
    return state && Object.values(LETTERS).includes(state)
      ? { state, server: entry.server ?? null, at: entry.at ?? null }
      : { state: "pending" as const, server: null, at: null };
  });
}

/**
 * What a report from `server` makes of the stored progress. Saved is final: no report takes a
 * saved command back. Any other state follows the report (given → pending is a rollback).
 */
export function mergeProgress(
  stored: readonly CommandProgress[],
  reported: readonly CommandState[],
  server: number,
  now: number,
): CommandProgress[] {
  return stored.map((current, index) => {
    const state = reported[index] ?? current.state;
    if (current.state === "saved" || state === current.state) return current;
    return { state, server, at: now };
  });
}

export function commandIndices(progress: readonly CommandProgress[], state: CommandState): number[] {
  return progress.flatMap((command, index) => (command.state === state ? [index] : []));
}

export function allSaved(progress: readonly CommandProgress[]): boolean {
  return progress.every((command) => command.state === "saved");
}

/** Whether any command took effect somewhere (saved) or is in a world waiting for its save (given). */
export function tookEffect(progress: readonly CommandProgress[]): boolean {
  return progress.some((command) => command.state === "saved" || command.state === "given");
}
