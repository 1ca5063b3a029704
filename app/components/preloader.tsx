import { useEffect, useState } from "react";

// Visible from first paint until the app is interactive, then 0.8 s more, then a 0.5 s fade — on the
// first full load of a browser session only.
const EXTRA_DELAY_MS = 800;
const FADE_MS = 500;

/** The sessionStorage key the inline script in <head> sets on the first full load of the session. */
export const PRELOADER_SEEN_KEY = "preloader-seen";
/** The class that script puts on <html> on every later full load: CSS hides the overlay at once. */
export const PRELOADER_SEEN_CLASS = "preloader-seen";

// One gear outline (12 teeth, outer radius 24), drawn three times.
const GEAR_PATH =
  "M19 -4.3L23.8 -3.1L23.8 3.1L19 4.3L18.6 5.8L22.2 9.2L19 14.6L14.3 13.2L13.2 14.3L14.6 19L9.2 22.2L5.8 18.6L4.3 19L3.1 23.8L-3.1 23.8L-4.3 19L-5.8 18.6L-9.2 22.2L-14.6 19L-13.2 14.3L-14.3 13.2L-19 14.6L-22.2 9.2L-18.6 5.8L-19 4.3L-23.8 3.1L-23.8 -3.1L-19 -4.3L-18.6 -5.8L-22.2 -9.2L-19 -14.6L-14.3 -13.2L-13.2 -14.3L-14.6 -19L-9.2 -22.2L-5.8 -18.6L-4.3 -19L-3.1 -23.8L3.1 -23.8L4.3 -19L5.8 -18.6L9.2 -22.2L14.6 -19L13.2 -14.3L14.3 -13.2L19 -14.6L22.2 -9.2L18.6 -5.8ZM7 0a7 7 0 1 0 -14 0a7 7 0 1 0 14 0Z";

// The three gears as one constant string: every page renders the preloader, and as elements its nine
// nodes and the outline's long path were re-escaped on each request.
const GEARS = {
  __html:
    `<defs><path id="preloader-gear" d="${GEAR_PATH}" fill-rule="evenodd"></path></defs>` +
    '<g transform="translate(36 40)"><use href="#preloader-gear" class="gear gear--big"></use></g>' +
    '<g transform="translate(76.5 22) scale(.62)"><use href="#preloader-gear" class="gear gear--small"></use></g>' +
    '<g transform="translate(84 54) scale(.5)"><use href="#preloader-gear" class="gear gear--tiny"></use></g>',
};

/**
 * The loading screen. Without JavaScript it is never shown: CSS displays it only
 * under `html.js` (set by an inline script in <head>), and hides it after a few
 * seconds on its own should hydration never happen. It plays on the first full load of a browser
 * session; later full loads find `preloader-seen` on <html> and never show it.
 */
export function Preloader() {
  const [phase, setPhase] = useState<"shown" | "fading" | "gone">("shown");

  useEffect(() => {
    if (document.documentElement.classList.contains(PRELOADER_SEEN_CLASS)) {
      setPhase("gone");
      return;
    }
    // Effects run once React has hydrated the page: the app is interactive now.
    const fade = window.setTimeout(() => setPhase("fading"), EXTRA_DELAY_MS);
    const gone = window.setTimeout(() => setPhase("gone"), EXTRA_DELAY_MS + FADE_MS);
    return () => {
      window.clearTimeout(fade);
      window.clearTimeout(gone);
    };
  }, []);

  if (phase === "gone") return null;
  return (
    <div className={phase === "fading" ? "preloader preloader--out" : "preloader"} aria-hidden="true">
      <img src="/images/logo.svg" width={200} height={48} alt="" />
      <svg
        className="preloader__gears"
        width="120"
        height="72"
        viewBox="0 0 120 72"
        aria-hidden="true"
        focusable="false"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: constant markup of ours, no input
        dangerouslySetInnerHTML={GEARS}
      />
    </div>
  );
}
