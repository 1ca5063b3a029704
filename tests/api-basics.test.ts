import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

describe("/api", () => {
  it("answers unknown paths with a JSON 404, not a page", async () => {
    const response = await SELF.fetch("http://localhost/api/no-such-thing");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual({ error: "Не найдено" });
  });

  it("lists the five server types", async () => {
    const response = await SELF.fetch("http://localhost/api/server-types");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ types: ["SOLO", "VANILLA", "MAX2", "MAX3", "NO_LIMIT"] });
  });
});
