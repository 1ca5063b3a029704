// The Node server reads the seller's details under the Worker's names, with the same rules.
import { describe, expect, it } from "vitest";
import { readNodeSettings, SettingError } from "#worker/node/settings.ts";

const base = { PUBLIC_URL: "http://localhost:3000", APP_ENV: "development" };

describe("the Node server's seller settings", () => {
  it("pass SELLER_NAME, SELLER_INN and SUPPORT_EMAIL to the site", () => {
    const { site } = readNodeSettings({
      ...base,
      SELLER_NAME: "ООО «Свобода»",
      SELLER_INN: "7707083893",
      SUPPORT_EMAIL: "help@rust.example",
    });
    expect(site).toMatchObject({
      SELLER_NAME: "ООО «Свобода»",
      SELLER_INN: "7707083893",
      SUPPORT_EMAIL: "help@rust.example",
    });
    expect(readNodeSettings(base).site.SELLER_INN).toBeUndefined();
  });

  it("refuse to start with an ИНН that is not 10 or 12 digits, or a bad check digit, naming the variable", () => {
    expect(() => readNodeSettings({ ...base, SELLER_INN: "12345" })).toThrow(SettingError);
    expect(() => readNodeSettings({ ...base, SELLER_INN: "12345" })).toThrow(
      /^SELLER_INN: SELLER_INN must be 10 digits/,
    );
    expect(() => readNodeSettings({ ...base, SELLER_INN: "7707083894" })).toThrow(/^SELLER_INN: .*check digit/);
    expect(() => readNodeSettings({ ...base, SUPPORT_EMAIL: "nope" })).toThrow(/^SUPPORT_EMAIL: /);
  });
});
