// Console command templates: {steamid} {nickname} {days} {server}.
// Values come from players (nickname) and operators (server name); neither may break out
// of the argument it fills, so quotes, separators and control characters are removed.

export interface CommandValues {
  steamId: string;
  nickname: string;
  days: number | null;
  server: string;
}

const MAX_NICKNAME_LENGTH = 32;

/** A value safe to put inside a console command: no quotes, semicolons, backslashes or control characters. */
export function sanitizeCommandValue(value: string, maxLength = 64): string {
  return (
    value
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
      .replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, " ")
      .replace(/["'`;\\]/g, "")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, maxLength)
      .trim()
  );
}

/** A chat message: the plugin shows its text as it is and never reads it for SteamIDs or arguments. */
const CHAT_COMMAND = /^\s*say\s/i;

export function renderCommand(template: string, values: CommandValues): string {
  // A nickname is the player's own text: it fills only a chat message (the catalog refuses it elsewhere;
  // a template saved before that rule gets the SteamID, so a name never becomes a command's argument).
  const nickname = CHAT_COMMAND.test(template)
    ? sanitizeCommandValue(values.nickname, MAX_NICKNAME_LENGTH) || values.steamId
    : values.steamId;
  const replacements: Record<string, string> = {
    steamid: /^[0-9]{17}$/.test(values.steamId) ? values.steamId : "",
    nickname,
    days: values.days === null ? "0" : String(Math.max(0, Math.trunc(values.days))),
    server: sanitizeCommandValue(values.server),
  };
  const rendered = template.replace(
    /\{(steamid|nickname|days|server)\}/g,
    (_, name: string) => replacements[name] ?? "",
  );
  // A command is one line: the plugin's response signature and the console both rely on it.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: newlines and control characters end a console line.
  return rendered.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").trim();
}
