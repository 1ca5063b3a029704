/** Where a signed-out visitor goes: Steam sign-in, coming back to the page they asked for. */
export function signInHref(returnTo: string): string {
  return `/api/auth/steam?return_to=${encodeURIComponent(returnTo)}`;
}
