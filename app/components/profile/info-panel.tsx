import { formatRubles } from "#core/format/money.ts";
import type { PagePlayer } from "#core/profile/player.ts";
import { SiteLink } from "../site-link.tsx";

/** Avatar, nickname, Steam ID, balance and the discount, which the product spec fixes at 0 %. */
export function InfoPanel({ user }: { user: PagePlayer }) {
  return (
    <aside className="profile-info" aria-label="Информация об игроке">
      <img
        className="profile-info__avatar"
        src={user.avatarUrl || "/images/avatar-default.svg"}
        width={96}
        height={96}
        alt={`Аватар ${user.nickname}`}
      />
      <p className="profile-info__nickname">{user.nickname}</p>
      <ul className="profile-info__facts">
        <li>
          Steam ID: <span className="profile-info__steam-id">{user.steamId}</span>
        </li>
        <li>
          Баланс:{" "}
          <strong className="profile-info__balance" data-testid="profile-balance">
            {formatRubles(user.balance)}
          </strong>
        </li>
        <li>Скидка: 0%</li>
      </ul>
      <SiteLink to="/balance" className="button profile-info__top-up">
        Пополнить баланс
      </SiteLink>
    </aside>
  );
}
