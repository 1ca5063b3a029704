// The browser-side helpers that don't need a browser: the generic request
// helper's Russian error texts and useAuth outside its provider.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiRequest, requireToken } from "../app/lib/api-client.ts";
import { useAuth } from "../app/lib/auth-context.tsx";

function Consumer() {
  useAuth();
  return null;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The network as the browser would see it, answering every call with `answer`. */
function network(answer: () => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(input), init });
    return answer();
  });
  return calls;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

describe("apiRequest", () => {
  it("sends JSON with credentials to /api and answers the parsed body", async () => {
    const calls = network(() => Response.json({ ok: true }));
    await expect(apiRequest("/promos/validate", { method: "POST", json: { code: "X" } })).resolves.toEqual({
      ok: true,
    });
    const [call] = calls;
    expect(call?.url).toBe("/api/promos/validate");
    expect(new Headers(call?.init.headers).get("content-type")).toBe("application/json");
    expect(call?.init.credentials).toBe("include");
    expect(call?.init.body).toBe('{"code":"X"}');
  });

  it("a non-ok answer is «Ошибка сервера: {status} {statusText}», optionally with the body", async () => {
    network(() => new Response("нет такого", { status: 404, statusText: "Not Found" }));
    const plain = await failure(apiRequest("/x"));
    expect(plain.status).toBe(404);
    expect(plain.message).toBe("Ошибка сервера: 404 Not Found");
    const withBody = await failure(apiRequest("/x", { appendBodyToError: true }));
    expect(withBody.message).toBe("Ошибка сервера: 404 Not Found нет такого");
  });

  it("a network failure is status 0 «Ошибка сети: сервер недоступен»", async () => {
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    const error = await failure(apiRequest("/profile"));
    expect(error.status).toBe(0);
    expect(error.message).toBe("Ошибка сети: сервер недоступен");
  });

  it("anything else (an answer that is not JSON) is status 500 «Неизвестная ошибка сервера»", async () => {
    network(() => new Response("<html>", { status: 200 }));
    const error = await failure(apiRequest("/profile"));
    expect(error.status).toBe(500);
    expect(error.message).toBe("Неизвестная ошибка сервера");
  });

  it("without a stored token, requireToken is 401 «Необходима авторизация»", () => {
    expect(() => requireToken()).toThrow("Необходима авторизация");
  });
});

describe("useAuth", () => {
  it("outside an AuthProvider raises «useAuth must be used within an AuthProvider»", () => {
    expect(() => renderToString(createElement(Consumer))).toThrow("useAuth must be used within an AuthProvider");
  });
});
