// The security headers of every answer, with a Content-Security-Policy whose inline scripts run
// only with this response's nonce (decision 098): injected markup can't run script.
import { NONCE, secureHeaders } from "hono/secure-headers";

/** Where players' Steam avatars come from (GetPlayerSummaries' `avatarfull`, current and older hosts). */
export const STEAM_AVATAR_HOSTS = [
  "https://avatars.steamstatic.com",
  "https://avatars.akamai.steamstatic.com",
  "https://avatars.cloudflare.steamstatic.com",
  "https://avatars.fastly.steamstatic.com",
  "https://steamcdn-a.akamaihd.net",
];

/**
 * Where a page's form may send the browser: our own actions, and the payment provider's page that
 * the top-up form's action redirects to without JavaScript (browsers check form-action on redirects).
 */
export const FORM_TARGETS = ["https://yoomoney.ru", "https://*.yoomoney.ru"];

export const securityHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    // React Router's hydration data and module imports, React's streaming scripts and root.tsx's carry the nonce.
    scriptSrc: ["'self'", NONCE],
    scriptSrcAttr: ["'none'"],
    // Stylesheets are files; only the local stand-ins' pages have a <style>, with the nonce. No style attributes.
    styleSrc: ["'self'", NONCE],
    imgSrc: ["'self'", "data:", ...STEAM_AVATAR_HOSTS],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    frameAncestors: ["'self'"],
    formAction: ["'self'", ...FORM_TARGETS],
  },
  crossOriginEmbedderPolicy: false,
  referrerPolicy: "strict-origin-when-cross-origin",
});
