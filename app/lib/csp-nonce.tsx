// The Content-Security-Policy nonce of the page being rendered, for our own inline scripts.
// Only the server knows it (entry.server.tsx provides it); in the browser the nonce is empty,
// which is fine: hydration never runs an inline script again.
import { createContext, useContext } from "react";

export const CspNonceContext = createContext<string | undefined>(undefined);

export function useCspNonce(): string | undefined {
  return useContext(CspNonceContext);
}
