import { useEffect } from "react";
import { useLocation } from "react-router";
import { AUTH_ERROR_PARAM, authErrorMessage } from "#core/auth/errors.ts";

/**
 * Says why a Steam sign-in did not happen (`?auth_error=<code>` from the
 * callback), in Russian, server-rendered. With JavaScript the code then leaves
 * the address so a reload does not repeat the message.
 */
export function AuthErrorBanner() {
  const location = useLocation();
  const message = authErrorMessage(new URLSearchParams(location.search).get(AUTH_ERROR_PARAM));

  useEffect(() => {
    if (!message) return;
    const url = new URL(window.location.href);
    url.searchParams.delete(AUTH_ERROR_PARAM);
    window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
  }, [message]);

  if (!message) return null;
  return (
    <div className="container auth-error" role="alert">
      <p className="auth-error__text">{message}</p>
    </div>
  );
}
