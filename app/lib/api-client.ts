import { AUTH_REQUIRED, NETWORK_ERROR, serverErrorText, UNKNOWN_SERVER_ERROR } from "#core/messages/common.ts";

// The browser's generic request helper for /api: JSON,
// cookies, and the bearer token from local storage when there is one.

export const TOKEN_KEY = "jwt_token";
export const API_BASE = "/api";

/** A failed call: `status` 0 for the network, the HTTP status otherwise; `body` is the answer's text if any. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** The stored session token, or null (also when storage is unavailable). */
export function getStoredToken(): string | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function storeToken(token: string): void {
  try {
    window.localStorage.setItem(TOKEN_KEY, token);
  } catch {
    // Storage refused (private mode): the session cookie still signs the player in.
  }
}

export function clearStoredToken(): void {
  try {
    window.localStorage.removeItem(TOKEN_KEY);
  } catch {
    // nothing stored then
  }
}

/** The stored token, or an ApiError 401 «Необходима авторизация» when there is none. */
export function requireToken(): string {
  const token = getStoredToken();
  if (!token) throw new ApiError(401, AUTH_REQUIRED);
  return token;
}

export interface ApiRequestOptions extends Omit<RequestInit, "body"> {
  /** Sent as JSON. */
  json?: unknown;
  /** Append the answer's text to «Ошибка сервера: …» (the shop and purchase calls do). */
  appendBodyToError?: boolean;
}

/**
 * Calls `${API_BASE}${path}` and answers the parsed JSON (or null for an empty
 * body). Throws ApiError: «Ошибка сервера: {status} {statusText}» for a non-ok
 * answer, «Ошибка сети: сервер недоступен» (status 0) when the network fails,
 * «Неизвестная ошибка сервера» (status 500) for anything else.
 */
export async function apiRequest<T = unknown>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const { json, appendBodyToError, headers: extraHeaders, ...init } = options;
  const headers = new Headers(extraHeaders);
  headers.set("Content-Type", "application/json");
  headers.set("Accept", "application/json");
  const token = getStoredToken();
  if (token && !headers.has("Authorization")) headers.set("Authorization", `Bearer ${token}`);

  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      ...init,
      headers,
      credentials: "include",
      body: json === undefined ? undefined : JSON.stringify(json),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(0, NETWORK_ERROR);
  }

  try {
    const text = await response.text();
    if (!response.ok) {
      const base = serverErrorText(response.status, response.statusText);
      throw new ApiError(response.status, appendBodyToError && text ? `${base} ${text}` : base, text);
    }
    return (text ? JSON.parse(text) : null) as T;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(500, UNKNOWN_SERVER_ERROR);
  }
}
