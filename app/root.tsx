import { useEffect } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from "react-router";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { pageRequest } from "#app/lib/page-request.server.ts";
import { UNKNOWN_SERVER_ERROR } from "#core/messages/common.ts";
import { chosenServerType } from "#core/shop/server-type-choice.ts";
import type { Route } from "./+types/root";
import { AuthErrorBanner } from "./components/auth-error-banner.tsx";
import { NotFoundView } from "./components/not-found-view.tsx";
import { PRELOADER_SEEN_CLASS, PRELOADER_SEEN_KEY, Preloader } from "./components/preloader.tsx";
import { SiteFooter } from "./components/site-footer.tsx";
import { SiteHeader } from "./components/site-header.tsx";
import { SiteLink, useSiteLinks } from "./components/site-link.tsx";
import { AuthProvider, authUserFrom } from "./lib/auth-context.tsx";
import { useCspNonce } from "./lib/csp-nonce.tsx";
import stylesheet from "./styles/app.css?url";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: Route.MetaFunction = () => [
  { title: "Свобода — бесплатные серверы Rust" },
  { name: "description", content: "Бесплатные серверы Rust: живой список серверов, магазин и сообщество в Discord." },
];

export async function loader(args: Route.LoaderArgs) {
  const deps = args.context.get(depsContext);
  return {
    user: await pageRequest(args).player(),
    // The server type the player chose in the shop: the header's «Магазин» and the home page's links open it.
    serverType: chosenServerType(args.request, args.url),
    discordUrl: deps.config.discordUrl,
    seller: deps.config.seller,
    year: deps.now().getFullYear(),
  };
}

// Marks <html> as "JavaScript runs" before first paint, so CSS may show the preloader; and, after the
// first full load of the browser session (sessionStorage), as "preloader seen", so later full loads show
// the rendered page at once (decisions 010 and 108). Storage refused (privacy modes): it plays each time.
const MARK_JS = `var h=document.documentElement;h.classList.add("js");try{if(sessionStorage.getItem("${PRELOADER_SEEN_KEY}"))h.classList.add("${PRELOADER_SEEN_CLASS}");else sessionStorage.setItem("${PRELOADER_SEEN_KEY}","1")}catch(e){}`;

export function Layout({ children }: { children: React.ReactNode }) {
  // Undefined when the root loader itself failed; the shell still renders.
  const data = useRouteLoaderData<typeof loader>("root");
  useSiteLinks();
  const nonce = useCspNonce();
  return (
    <html lang="ru" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1, user-scalable=no" />
        <meta name="theme-color" content="#15110f" />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant one-liner, no user input */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: MARK_JS }} />
        <Meta />
        <Links />
      </head>
      <body>
        <Preloader />
        <a className="skip-link" href="#content">
          К содержимому
        </a>
        <SiteHeader user={data?.user ?? null} serverType={data?.serverType ?? null} />
        <div id="content" className="site-main">
          {children}
        </div>
        <SiteFooter
          discordUrl={data?.discordUrl ?? "https://discord.com"}
          seller={data?.seller ?? null}
          year={data?.year ?? new Date().getFullYear()}
        />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

function useHydratedMark() {
  useEffect(() => {
    // Browser tests wait for this before they click.
    document.documentElement.dataset.hydrated = "";
  }, []);
}

export default function App({ loaderData }: Route.ComponentProps) {
  useHydratedMark();
  // The server already knows who is signed in (session cookie); the browser's auth state starts from that.
  return (
    <AuthProvider initialUser={authUserFrom(loaderData.user)}>
      <AuthErrorBanner />
      <Outlet />
    </AuthProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  useHydratedMark();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundView />;
  return (
    <main className="container page page--center">
      <h1>{UNKNOWN_SERVER_ERROR}</h1>
      <p className="muted">Что-то пошло не так. Попробуйте обновить страницу чуть позже.</p>
      <SiteLink to="/" className="button">
        На главную
      </SiteLink>
    </main>
  );
}
