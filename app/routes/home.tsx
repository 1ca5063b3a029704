import { useRouteLoaderData } from "react-router";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { GUIDE_COPY_STEP } from "#core/messages/history.ts";
import { WIPE_PAGE_TEXT } from "#core/messages/wipe.ts";
import { readServerStatus } from "#worker/services/server-status.ts";
import { ServerList } from "../components/server-list.tsx";
import { SiteLink } from "../components/site-link.tsx";
import { shopUrl } from "../lib/shop/query.ts";
import type { loader as rootLoader } from "../root.tsx";
import type { Route } from "./+types/home";

const STEAM_STORE_URL = "https://store.steampowered.com/app/252490/Rust/";
const TUTORIAL_VIDEO_URL =
  "https://www.youtube.com/results?search_query=rust+%D0%B3%D0%B0%D0%B9%D0%B4+%D0%B4%D0%BB%D1%8F+%D0%BD%D0%BE%D0%B2%D0%B8%D1%87%D0%BA%D0%BE%D0%B2";

export const meta: Route.MetaFunction = () => [
  { title: "Свобода — бесплатные серверы Rust" },
  {
    name: "description",
    content:
      "Полностью бесплатные серверы Rust: SOLO, VANILLA, MAX2, MAX3 и NO LIMIT x5. Живой список серверов, гайд для новичков и сообщество в Discord.",
  },
];

export async function loader({ context }: Route.LoaderArgs) {
  const deps = context.get(depsContext);
  const status = await readServerStatus(deps);
  // null: the status store could not be read; the list shows its error text.
  return { servers: status.state === "unavailable" ? null : status.servers, renderedAt: deps.now().getTime() };
}

const SCREENSHOTS = [
  { src: "/images/screenshot-1.svg", alt: "Закат над базой на холме" },
  { src: "/images/screenshot-2.svg", alt: "Ночной рейд: взрыв у стены базы" },
  { src: "/images/screenshot-3.svg", alt: "Лес у реки в утреннем тумане" },
  { src: "/images/screenshot-4.svg", alt: "Радиационный объект с градирнями" },
  { src: "/images/screenshot-5.svg", alt: "Побережье с лодкой и скалами" },
];

export default function Home({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const discordUrl = root?.discordUrl ?? "https://discord.com";
  return (
    <main>
      <section className="cover" aria-labelledby="cover-title">
        <div className="container cover__inner">
          <a className="cover__discord" href={discordUrl} target="_blank" rel="noopener noreferrer">
            <DiscordIcon /> Наш Discord — присоединяйтесь
          </a>
          <h1 id="cover-title">Бесплатные серверы Rust</h1>
          <p className="cover__subtitle">
            Все наши серверы полностью бесплатны: добывайте ресурсы, устраивайте рейды, прокачивайте скилл и
            объединяйтесь с другими игроками.
          </p>
          <div className="cover__actions">
            <a className="button button--large" href="#tutorial">
              Играть
            </a>
            <SiteLink className="button button--large button--ghost" to={shopUrl({ server_type: root?.serverType })}>
              Магазин
            </SiteLink>
          </div>
        </div>
      </section>

      <section className="section container" aria-labelledby="screenshots-title">
        <h2 id="screenshots-title">Скриншоты</h2>
        <ul className="gallery">
          {SCREENSHOTS.map((shot, index) => (
            <li key={shot.src} className="gallery__item">
              {/* The first shot is in a phone's first screen and is its largest paint: load it at once. */}
              <img
                src={shot.src}
                width={640}
                height={360}
                alt={shot.alt}
                loading={index === 0 ? "eager" : "lazy"}
                fetchPriority={index === 0 ? "high" : undefined}
                decoding="async"
              />
            </li>
          ))}
        </ul>
      </section>

      <section id="servers" className="section container" aria-labelledby="servers-title">
        <h2 id="servers-title">Серверы Rust</h2>
        <ServerList initial={loaderData.servers} renderedAt={loaderData.renderedAt} />
        <p className="server-list__more">
          <SiteLink to="/wipes">{WIPE_PAGE_TEXT.linkFromList}</SiteLink>
        </p>
      </section>

      <section id="tutorial" className="section container" aria-labelledby="tutorial-title">
        <h2 id="tutorial-title">Как начать играть</h2>
        <ol className="steps">
          <li className="step">
            <h3>Установите Rust</h3>
            <p>Купите и установите Rust в Steam — это единственное, за что придётся заплатить.</p>
            <a className="button" href={STEAM_STORE_URL} target="_blank" rel="noopener noreferrer">
              Скачать
            </a>
          </li>
          <li className="step">
            <h3>Скопируйте IP и порт сервера</h3>
            <p>
              Выберите сервер в <a href="#servers">списке выше</a>{" "}
              {/* The copy button needs JavaScript (it is hidden without it): each reader gets the instruction that works. */}
              <span className="js-only">{GUIDE_COPY_STEP.withScript}</span>
              <span className="no-js-only">{GUIDE_COPY_STEP.withoutScript}</span>
            </p>
            <img
              className="step__picture"
              src="/images/ip-port.svg"
              width={480}
              height={200}
              alt="Консоль Rust: client.connect, затем IP и порт сервера через двоеточие"
              loading="lazy"
              decoding="async"
            />
            <a className="button" href="#servers">
              {GUIDE_COPY_STEP.toServers}
            </a>
          </li>
          <li className="step">
            <h3>Посмотрите обучающее видео</h3>
            <p>Короткие гайды для новичков: первые минуты, крафт, постройка дома и защита от рейдов.</p>
            <a className="button" href={TUTORIAL_VIDEO_URL} target="_blank" rel="noopener noreferrer">
              Смотреть видео
            </a>
          </li>
          <li className="step">
            <h3>Заходите в игру и в сообщество</h3>
            <p>
              В игре нажмите F1 и введите <code>client.connect</code> с адресом сервера. Вопросы, друзья для команды и
              новости вайпов — в нашем Discord.
            </p>
            <a className="button" href={discordUrl} target="_blank" rel="noopener noreferrer">
              Чат сообщества
            </a>
          </li>
        </ol>
      </section>
    </main>
  );
}

function DiscordIcon() {
  return (
    <svg width="20" height="16" viewBox="0 0 24 18" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M20.3 1.5A19.8 19.8 0 0 0 15.4 0l-.6 1.3a18.4 18.4 0 0 0-5.5 0L8.6 0a19.7 19.7 0 0 0-4.9 1.5C.6 6.1-.3 10.6.1 15a19.9 19.9 0 0 0 6 3l1.3-2a12.9 12.9 0 0 1-2-1l.5-.4a14.2 14.2 0 0 0 12.2 0l.5.4-2 1 1.3 2a19.8 19.8 0 0 0 6-3c.5-5.1-.8-9.6-3.6-13.5ZM8 12.3c-1.2 0-2.2-1.1-2.2-2.4S6.8 7.5 8 7.5s2.2 1.1 2.2 2.4-1 2.4-2.2 2.4Zm8 0c-1.2 0-2.2-1.1-2.2-2.4s1-2.4 2.2-2.4 2.2 1.1 2.2 2.4-1 2.4-2.2 2.4Z"
      />
    </svg>
  );
}
