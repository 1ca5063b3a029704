// The Steam OpenID validator, one rejection at a time, against a fake Steam at
// the network boundary (production configuration: Steam's real endpoint).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { depsFor } from "#tests/support/deps.ts";
import { type OpenIdFailure, verifySteamAssertion } from "#worker/integrations/steam/openid.ts";
import { FakeSteamOpenId, STEAM_OPENID_ENDPOINT, STEAM_WEBAPI, steamAssertion } from "./fakes/steam-openid.ts";
import { testClock } from "./support/deps.ts";

const CALLBACK = "http://localhost:5173/api/auth/steam/callback";
const RETURN_TO = `${CALLBACK}?state=abc&next=%2F`;

function setup() {
  const clock = testClock(Date.now());
  const steam = new FakeSteamOpenId();
  const deps = depsFor(
    { ...env, STEAM_OPENID_ENDPOINT: STEAM_OPENID_ENDPOINT, STEAM_WEBAPI_BASE: STEAM_WEBAPI },
    { fetch: steam.fetch, now: clock.now },
  );
  const assertion = (overrides: Record<string, string> = {}) => {
    const params = steamAssertion({ returnTo: RETURN_TO, at: clock.now() });
    for (const [key, value] of Object.entries(overrides)) params.set(key, value);
    return params;
  };
  const verify = (params: URLSearchParams) => verifySteamAssertion(deps, params, CALLBACK);
  return { clock, steam, deps, assertion, verify };
}

async function refused(promise: Promise<unknown>, reason: OpenIdFailure) {
  await expect(promise).rejects.toMatchObject({ name: "SteamOpenIdError", reason });
}

describe("Steam OpenID validation", () => {
  it("accepts Steam's genuine answer after asking Steam with every parameter and mode=check_authentication", async () => {
    const { steam, assertion, verify } = setup();
    const params = assertion({ "openid.claimed_id": "https://steamcommunity.com/openid/id/76561198099999999" });
    params.set("openid.identity", "https://steamcommunity.com/openid/id/76561198099999999");
    await expect(verify(params)).resolves.toEqual({ steamId: "76561198099999999", returnTo: RETURN_TO });
    expect(steam.checks).toHaveLength(1);
    const check = steam.checks[0];
    expect(check?.get("openid.mode")).toBe("check_authentication");
    for (const [key, value] of params) {
      if (key !== "openid.mode") expect(check?.get(key)).toBe(value);
    }
  });

  it("refuses any repeated openid field without asking Steam, whichever value comes first", async () => {
    const { steam, assertion, verify } = setup();
    const victim = "https://steamcommunity.com/openid/id/76561198000000001";
    for (const key of ["openid.claimed_id", "openid.identity", "openid.sig", "openid.ns", "openid.extra"]) {
      const genuine = assertion();
      const params = new URLSearchParams([
        [key, key === "openid.claimed_id" || key === "openid.identity" ? victim : "x"],
      ]);
      for (const [name, value] of genuine) params.append(name, value);
      if (key === "openid.extra") params.append(key, "y");
      await refused(verify(params), "repeated_param");
    }
    expect(steam.checks).toHaveLength(0);
  });

  it("refuses a mode other than id_res without asking Steam", async () => {
    const { steam, assertion, verify } = setup();
    await refused(verify(assertion({ "openid.mode": "checkid_setup" })), "mode");
    expect(steam.checks).toHaveLength(0);
  });

  it("reports a cancelled sign-in as cancelled", async () => {
    const { verify } = setup();
    await refused(
      verify(new URLSearchParams({ "openid.ns": "http://specs.openid.net/auth/2.0", "openid.mode": "cancel" })),
      "cancelled",
    );
  });

  it("refuses a wrong namespace", async () => {
    const { verify, assertion } = setup();
    await refused(verify(assertion({ "openid.ns": "http://openid.net/signon/1.1" })), "ns");
  });

  it("refuses a signed list that differs from Steam's exact one", async () => {
    const { steam, verify, assertion } = setup();
    await refused(
      verify(assertion({ "openid.signed": "signed,op_endpoint,claimed_id,identity,return_to,response_nonce" })),
      "signed",
    );
    await refused(
      verify(
        assertion({ "openid.signed": "op_endpoint,signed,claimed_id,identity,return_to,response_nonce,assoc_handle" }),
      ),
      "signed",
    );
    expect(steam.checks).toHaveLength(0);
  });

  it("refuses a foreign op_endpoint and never posts to it", async () => {
    const { steam, verify, assertion } = setup();
    await refused(verify(assertion({ "openid.op_endpoint": "https://evil.example/openid/login" })), "op_endpoint");
    expect(steam.requested).toEqual([]);
  });

  it("refuses claimed_id different from identity", async () => {
    const { verify, assertion } = setup();
    await refused(
      verify(assertion({ "openid.claimed_id": "https://steamcommunity.com/openid/id/76561198000000077" })),
      "claimed_id",
    );
  });

  it("refuses identities that are not Steam's SteamID64 URLs", async () => {
    const { verify, assertion } = setup();
    for (const identity of [
      "https://evil.example/openid/id/76561198012345678",
      "http://steamcommunity.com/openid/id/76561198012345678",
      "https://steamcommunity.com/openid/id/12345",
      "https://steamcommunity.com/openid/id/76561198012345678/extra",
    ]) {
      await refused(verify(assertion({ "openid.claimed_id": identity, "openid.identity": identity })), "identity");
    }
  });

  it("refuses a return_to on another host", async () => {
    const { verify, assertion } = setup();
    await refused(
      verify(assertion({ "openid.return_to": "https://evil.example/api/auth/steam/callback" })),
      "return_to",
    );
    await refused(
      verify(assertion({ "openid.return_to": "http://localhost:5173.evil.example/api/auth/steam/callback" })),
      "return_to",
    );
  });

  it("refuses a return_to that only starts with our callback's text", async () => {
    const { verify, assertion } = setup();
    await refused(verify(assertion({ "openid.return_to": `${CALLBACK}EVIL` })), "return_to");
    await refused(verify(assertion({ "openid.return_to": `${CALLBACK}/../../evil` })), "return_to");
    await refused(verify(assertion({ "openid.return_to": "http://localhost:5173/api/auth/steam" })), "return_to");
  });

  it("refuses a nonce older than five minutes, or from the future", async () => {
    const { clock, verify, assertion } = setup();
    const stale = assertion();
    clock.advance(5 * 60 * 1000 + 1000);
    await refused(verify(stale), "nonce_stale");
    const future = assertion();
    clock.advance(-(5 * 60 * 1000 + 1000) * 2);
    await refused(verify(future), "nonce_stale");
  });

  it("refuses a malformed nonce", async () => {
    const { verify, assertion } = setup();
    await refused(verify(assertion({ "openid.response_nonce": "yesterday-abc" })), "nonce_format");
  });

  it("refuses a nonce seen before, even when Steam would still call it valid", async () => {
    const { steam, verify, assertion } = setup();
    const params = assertion();
    await verify(params);
    await refused(verify(params), "nonce_replayed");
    expect(steam.checks).toHaveLength(1);
  });

  it("refuses what Steam answers is_valid:false", async () => {
    const { steam, verify, assertion } = setup();
    steam.answerCheck("invalid");
    await refused(verify(assertion()), "not_valid");
  });

  for (const status of [403, 429, 500]) {
    it(`fails when Steam answers check_authentication with HTTP ${status}`, async () => {
      const { steam, verify, assertion } = setup();
      steam.answerCheck({ status, body: status === 500 ? "" : `ns:http://specs.openid.net/auth/2.0\nis_valid:true\n` });
      await refused(verify(assertion()), "provider_unavailable");
    });
  }

  it("fails when Steam answers with an empty body or not at all", async () => {
    const { steam, verify, assertion } = setup();
    steam.answerCheck("empty");
    await refused(verify(assertion()), "provider_unavailable");
    steam.answerCheck("network-error");
    await refused(verify(assertion()), "provider_unavailable");
  });

  it("refuses an answer with a required parameter missing", async () => {
    const { verify, assertion } = setup();
    const params = assertion();
    params.delete("openid.sig");
    await refused(verify(params), "missing_param");
  });
});
