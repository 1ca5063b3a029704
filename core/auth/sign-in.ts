/**
 * Where a signed-out visitor goes: Steam sign-in, coming back to `returnTo` (a path with its
 * query) afterwards. A plain link or a document redirect: /api is not a client route.
 */
export function signInHref(returnTo: string): string {
  return `/api/auth/steam?return_to=${encodeURIComponent(returnTo)}`;
}
