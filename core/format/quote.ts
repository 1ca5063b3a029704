// Names in quotes the Russian way (issue 36): «Набор „Старт“», never «Набор «Старт»».

/**
 * `name` in «ёлочки»; quotes already inside it become „лапки“, so a name that has its own «…» reads
 * «Набор „Старт“» and «Подарок «Набор «Старт»»» can't happen.
 */
export function quoted(name: string): string {
  return `«${name.replace(/«/g, "„").replace(/»/g, "“")}»`;
}

/**
 * Text a player chose (a Steam name) or an operator typed, as Discord shows it literally: markdown's
 * characters escaped, so «[Проверьте оплату](https://…)» can't become a disguised link, a spoiler or
 * a heading in the operators' channel (issue 36). Mentions are off in the request itself.
 */
export function discordLiteral(text: string): string {
  return text.replace(/[\\*_~`|[\]()<>#]/g, (character) => `\\${character}`);
}
