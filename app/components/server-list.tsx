import { useEffect, useState } from "react";
import { formatMap, steamConnectUrl } from "#core/format/server-card.ts";
import { serverTypeLabel } from "#core/format/server-type.ts";
import { SERVER_CARD_TEXT } from "#core/messages/server-status.ts";
import { isServerType } from "#core/shop/server-types.ts";
import { NO_SCHEDULE, wipePhrase } from "#core/wipe/schedule.ts";
import { isOnline, parseServerStatus, type ServerView, serverIcon } from "../lib/servers.ts";
import { CopyButton } from "./copy-button.tsx";
import { Toast, useToast } from "./toast.tsx";

export const REFRESH_MS = 30_000;

export const TEXT = {
  loading: "Загрузка статуса серверов...",
  error: "Ошибка при загрузке статуса серверов. Пожалуйста, попробуйте позже.",
  empty: "Нет доступных серверов",
  copy: "Скопировать IP/Port",
  copied: "IP/Port скопирован",
  copyFailed: "Не удалось скопировать IP/Port",
} as const;

type ListState = ServerView[] | "loading" | "error";

/**
 * The live server list. The page renders it on the server from the loader's
 * KV read (`initial`); in the browser it asks `/api/server-status` every 30 s.
 * `initial`: the servers, `null` when the server could not read them, or
 * `undefined` when there is nothing yet (loading). `renderedAt`: the loader's clock (ms), so the
 * wipe's «N дней назад» reads the same on the server and in the browser that hydrates it.
 */
export function ServerList({
  initial,
  renderedAt = Date.now(),
}: {
  initial: ServerView[] | null | undefined;
  renderedAt?: number;
}) {
  const [state, setState] = useState<ListState>(() => fromInitial(initial));
  const [now, setNow] = useState(renderedAt);
  const [shownInitial, setShownInitial] = useState(initial);
  if (initial !== shownInitial) {
    // The loader ran again (a navigation or a form post): its answer is the freshest.
    setShownInitial(initial);
    setState(fromInitial(initial));
    setNow(renderedAt);
  }
  const toast = useToast();

  useEffect(() => {
    let active = true;
    async function refresh() {
      if (document.hidden) return;
      try {
        const response = await fetch("/api/server-status", {
          headers: { accept: "application/json" },
          signal: AbortSignal.timeout(10_000),
        });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const servers = parseServerStatus(await response.json());
        if (active) {
          setState(servers);
          setNow(Date.now());
        }
      } catch {
        if (active) setState("error");
      }
    }
    if (initial === undefined) void refresh();
    const timer = window.setInterval(refresh, REFRESH_MS);
    return () => {
      active = false;
      window.clearInterval(timer);
    };
  }, [initial]);

  function copied(ok: boolean) {
    toast.show(ok ? TEXT.copied : TEXT.copyFailed, ok ? "info" : "error");
  }

  let body: React.ReactNode;
  if (state === "loading") body = <p className="server-list__note">{TEXT.loading}</p>;
  else if (state === "error") body = <p className="server-list__note server-list__note--error">{TEXT.error}</p>;
  else if (state.length === 0) body = <p className="server-list__note">{TEXT.empty}</p>;
  else {
    body = (
      <ul className="server-list">
        {state.map((server) => (
          <ServerCard key={server.ip_port} server={server} now={now} onCopied={copied} />
        ))}
      </ul>
    );
  }

  return (
    <>
      {body}
      <Toast message={toast.message} />
    </>
  );
}

function fromInitial(initial: ServerView[] | null | undefined): ListState {
  if (initial === undefined) return "loading";
  return initial ?? "error";
}

function ServerCard({ server, now, onCopied }: { server: ServerView; now: number; onCopied: (ok: boolean) => void }) {
  const online = isOnline(server.status);
  const map = formatMap(server.map);
  // The next wipe from the schedule, or a fresh reported one (decision 128), as of the loader's clock.
  const wipe = wipePhrase(server.wipe ?? NO_SCHEDULE, server.wiped_at, now);
  // The shop's selector link for this type, so the shop keeps it in its cookie (decision 107).
  // Not knownServerType: its zod schema would ride into the browser's code (tests/server/browser-bundle.test.ts).
  const shopType = isServerType(server.server_type) ? server.server_type : null;
  return (
    <li className="server-card">
      <img className="server-card__icon" src={serverIcon(server.server_type)} width={56} height={56} alt="" />
      <div className="server-card__body">
        <span className="server-card__type">{serverTypeLabel(server.server_type)}</span>
        <h3 className="server-card__name">{server.name}</h3>
        <p className="server-card__meta">
          <span className={online ? "status status--online" : "status status--offline"}>
            {online ? "Онлайн" : "Оффлайн"}
          </span>
          <span>
            Игроки:{" "}
            <strong className="server-card__players">
              {server.players.current}/{server.players.max}
            </strong>
          </span>
        </p>
        {(map || wipe) && (
          <p className="server-card__meta server-card__world">
            {map && <span className="server-card__map">{map}</span>}
            {wipe && <span className="server-card__wipe">{wipe}</span>}
          </p>
        )}
      </div>
      <div className="server-card__address">
        <code className="server-card__ip">{server.ip_port}</code>
        <span className="server-card__actions">
          {/* Joining is the main action (issue 36); copying the address is the way round it. */}
          <a
            className="button button--small server-card__connect"
            href={steamConnectUrl(server.ip_port)}
            aria-label={SERVER_CARD_TEXT.connectLabel(server.ip_port)}
          >
            {SERVER_CARD_TEXT.connect}
          </a>
          <CopyButton text={server.ip_port} label={TEXT.copy} onResult={onCopied} />
          {shopType && (
            <a
              className="button button--small button--ghost server-card__shop"
              href={`/shop?server_type=${shopType}`}
              aria-label={SERVER_CARD_TEXT.shopLabel(serverTypeLabel(shopType))}
            >
              {SERVER_CARD_TEXT.shop}
            </a>
          )}
        </span>
      </div>
    </li>
  );
}
