// Every secret `.env.example` leaves to fill in is refused in production as it stands there, placeholder
// or empty, each naming the variable; the README's "then edit" line and `.env.example`'s own header
// name each of them (issue 34: its GAME_KEY_SECRET placeholder was accepted, and named nowhere).
import { readFileSync } from "node:fs";
import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { readNodeSettings, SettingError } from "#worker/node/settings.ts";

const exampleText = readFileSync(".env.example", "utf8");
const example = parseEnv(exampleText) as Record<string, string>;
/** The variables that hold a secret (or a payment account's id): none may stay as `.env.example` has it. */
const secrets = Object.keys(example).filter((name) => /SECRET|_KEY$|SHOP_ID/.test(name));

/** `.env.example` filled in as an owner should: every secret their own. */
const filledIn: Record<string, string> = {
  ...example,
  SESSION_SECRET: "owner-session-secret-owner-session-secret-0001",
  GAME_KEY_SECRET: "owner-game-key-secret-owner-game-key-secret-0001",
  STEAM_API_KEY: "0123456789ABCDEF0123456789ABCDEF",
  YOOKASSA_SHOP_ID: "123456",
  YOOKASSA_SECRET_KEY: "live_owner-yookassa-secret-key",
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    readNodeSettings(env);
    return [];
  } catch (error) {
    if (error instanceof SettingError) return error.problems;
    throw error;
  }
}

/** The variables a problem line names before its colon ("YOOKASSA_SHOP_ID, YOOKASSA_SECRET_KEY: not set"). */
const namedBy = (line: string) => (line.split(":")[0] ?? "").split(", ");

describe(".env.example's secrets in production", () => {
  it("are the ones the site needs, and with all of them filled in the settings are accepted", () => {
    expect(secrets.sort()).toEqual(
      ["GAME_KEY_SECRET", "SESSION_SECRET", "STEAM_API_KEY", "YOOKASSA_SECRET_KEY", "YOOKASSA_SHOP_ID"].sort(),
    );
    expect(example.APP_ENV).toBe("production");
    expect(problemsOf(filledIn)).toEqual([]);
  });

  for (const name of [
    "GAME_KEY_SECRET",
    "SESSION_SECRET",
    "STEAM_API_KEY",
    "YOOKASSA_SECRET_KEY",
    "YOOKASSA_SHOP_ID",
  ]) {
    it(`refuse ${name} as .env.example has it, in one line naming it`, () => {
      const problems = problemsOf({ ...filledIn, [name]: example[name] ?? "" });
      expect(problems).toHaveLength(1);
      expect(namedBy(problems[0] ?? "")).toContain(name);
    });
  }

  it("copied as it is, are all refused at once", () => {
    const named = problemsOf(example).flatMap(namedBy);
    for (const name of secrets) expect(named).toContain(name);
  });

  it("are each named by .env.example's header and the README's `then edit` line", () => {
    const header = exampleText.slice(0, exampleText.search(/^[A-Z]/m));
    const thenEdit = readFileSync("README.md", "utf8")
      .split("\n")
      .find((line) => line.startsWith("cp .env.example .env"));
    for (const name of secrets) {
      expect(header).toContain(name);
      expect(thenEdit).toContain(name);
    }
  });
});
