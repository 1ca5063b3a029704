// The seller's details (issue 20, item 10): SELLER_NAME, SELLER_INN and SUPPORT_EMAIL, validated with
// the rest of the configuration, shown in the footer and the terms only when set.
import { env } from "cloudflare:test";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { isValidInn } from "#core/seller.ts";
import { depsFor } from "#tests/support/deps.ts";
import { routeArgs } from "#tests/support/routes.ts";
import { ConfigError, loadConfig } from "#worker/config.ts";
import { SiteFooter } from "../app/components/site-footer.tsx";
import { loader as rootLoader } from "../app/root.tsx";

const seller = {
  SELLER_NAME: " ИП Иванов Иван Иванович ",
  SELLER_INN: "500100732259",
  SUPPORT_EMAIL: "help@rust.example",
};

function footer(details: Parameters<typeof SiteFooter>[0]["seller"]): string {
  // React marks text boundaries with empty comments; the reader sees the text without them.
  return renderToString(
    createElement(SiteFooter, { discordUrl: "https://discord.gg/x", seller: details, year: 2026 }),
  ).replaceAll("<!-- -->", "");
}

describe("seller details", () => {
  it("are read from the settings, trimmed; unset or empty is null", () => {
    expect(loadConfig({ ...env, ...seller }).seller).toEqual({
      name: "ИП Иванов Иван Иванович",
      inn: "500100732259",
      email: "help@rust.example",
    });
    expect(loadConfig(env).seller).toEqual({ name: null, inn: null, email: null });
    expect(loadConfig({ ...env, SELLER_NAME: "", SELLER_INN: " ", SUPPORT_EMAIL: "" }).seller).toEqual({
      name: null,
      inn: null,
      email: null,
    });
  });

  it("accept an ИНН of 10 or 12 digits with the right check digits, and refuse anything else", () => {
    expect(isValidInn("7707083893")).toBe(true);
    expect(isValidInn("500100732259")).toBe(true);
    expect(loadConfig({ ...env, SELLER_INN: "7707083893" }).seller.inn).toBe("7707083893");
    for (const inn of ["77070838", "77070838931", "7707083894", "500100732258", "77070838ab", "5001007322590"]) {
      expect(() => loadConfig({ ...env, SELLER_INN: inn }), inn).toThrow(ConfigError);
    }
    expect(() => loadConfig({ ...env, SELLER_INN: "123" })).toThrow(/SELLER_INN must be 10 digits/);
    expect(() => loadConfig({ ...env, SUPPORT_EMAIL: "не почта" })).toThrow(/SUPPORT_EMAIL must be an e-mail address/);
  });

  it("reach the pages through the root loader", async () => {
    const deps = depsFor({ ...env, ...seller });
    const data = await rootLoader(routeArgs(deps, "http://localhost/"));
    expect(data.seller).toEqual({ name: "ИП Иванов Иван Иванович", inn: "500100732259", email: "help@rust.example" });
  });

  it("are in the footer when set, each part on its own, and absent when none is", () => {
    const full = footer({ name: "ИП Иванов Иван Иванович", inn: "500100732259", email: "help@rust.example" });
    expect(full).toContain("Продавец: ИП Иванов Иван Иванович");
    expect(full).toContain("ИНН 500100732259");
    expect(full).toContain('E-mail поддержки: <a href="mailto:help@rust.example">help@rust.example</a>');
    const innOnly = footer({ name: null, inn: "7707083893", email: null });
    expect(innOnly).toContain("ИНН 7707083893");
    expect(innOnly).not.toContain("Продавец");
    expect(footer({ name: null, inn: null, email: null })).not.toContain('data-testid="seller-details"');
    expect(footer(null)).not.toContain('data-testid="seller-details"');
  });
});
