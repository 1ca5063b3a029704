import type { ShouldRevalidateFunctionArgs } from "react-router";

/**
 * The profile pages skip reloading their data when the only change in the address is the
 * removed `payment` parameter (the return message is shown, then the parameter is dropped).
 */
export function skipPaymentParamRemoval(args: ShouldRevalidateFunctionArgs): boolean {
  const { currentUrl, nextUrl, formMethod, defaultShouldRevalidate } = args;
  if (!formMethod && currentUrl.pathname === nextUrl.pathname && currentUrl.searchParams.has("payment")) {
    const current = new URLSearchParams(currentUrl.search);
    current.delete("payment");
    if (current.toString() === nextUrl.searchParams.toString()) return false;
  }
  return defaultShouldRevalidate;
}
