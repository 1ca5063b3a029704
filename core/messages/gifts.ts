// Gifts to a friend (issue 24): the player's words.

export const GIFT_ERRORS = {
  badFriend:
    "Укажите SteamID64 друга или ссылку на его профиль Steam (steamcommunity.com/profiles/… или steamcommunity.com/id/…)",
  notFound: "Профиль Steam не найден",
  steamUnavailable: "Steam не ответил, попробуйте ещё раз",
  self: "Нельзя подарить самому себе",
  blocked: "Этому игроку нельзя сделать подарок",
} as const;

/** Too many friends looked up in a short time by this player or from this address (Steam's daily quota is the site's). */
export function giftLookupLimitText(minutes: number): string {
  return `Слишком много проверок получателя. Попробуйте через ${minutes} мин.`;
}

/** The whole site has asked Steam about recipients as much as it may this hour (issue 36). */
export function siteLookupLimitText(minutes: number): string {
  return `Сейчас на сайте слишком много проверок получателей. Попробуйте через ${minutes} мин.`;
}
