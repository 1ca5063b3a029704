// The one-time sign-in code /auth-success trades for the bearer token (POST /api/auth/exchange).

import { z } from "zod";

/** Codes are 43 base64url characters; anything far longer is not looked up. */
export const signInCodeSchema = z.string().min(1).max(200);

export const codeExchangeBodySchema = z.object({ code: signInCodeSchema });
