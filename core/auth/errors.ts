// Why a Steam sign-in did not happen, as `?auth_error=<code>` on the page the
// player comes back to. Only codes travel in the address; the texts are in the message catalogue.

import { AUTH_ERROR_MESSAGES } from "../messages/auth.ts";

export type AuthErrorCode = keyof typeof AUTH_ERROR_MESSAGES;

export const AUTH_ERROR_PARAM = "auth_error";

/** The message for an `auth_error` value, or null for anything we did not send. */
export function authErrorMessage(code: string | null | undefined): string | null {
  if (!code || !Object.hasOwn(AUTH_ERROR_MESSAGES, code)) return null;
  return AUTH_ERROR_MESSAGES[code as AuthErrorCode];
}
