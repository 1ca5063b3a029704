// The console's wipe forms (issue 46 item 10): each schedule kind's own form, a fair-play window's
// state now and the wipe it counts from, a wipe sale's next window. Times are Moscow's, said so.

export const WIPE_CONSOLE_TEXT = {
  /** The schedule form of one kind, named for the screen reader and the tests. */
  kindFormLabel: (serverId: number, kind: string) => `Расписание вайпов сервера №${serverId}: ${kind}`,
  /** Beside the kind in force now. */
  current: "сейчас",
  /** The wipe the fair-play windows count from (servers.last_wipe_at). */
  countedWipe: (moment: string) => `окна честной игры считаются от вайпа ${moment} (МСК)`,
  noCountedWipe: "вайпа, от которого считаются окна честной игры, ещё не было",
  /** A fair-play window's state now, on its servers' last wipe. */
  holdsNow: (until: string, from: string) => `действует сейчас, до ${until} (МСК), от вайпа ${from}`,
  endedAt: (until: string, from: string) => `сейчас не действует: закончилось ${until} (МСК), от вайпа ${from}`,
  noWipeYet: "сейчас не действует: у серверов этого типа ещё не было вайпа",
  /** The fair-play form lists the targets of one type; without JavaScript the type is picked first. */
  showType: "Показать товары типа",
  /** A wipe sale's next window. */
  saleWindowNow: (until: string) => `Идёт окно: до ${until} (МСК)`,
  saleNextWindow: (from: string) => `Следующее окно: с ${from} (МСК)`,
  saleNoWindow: "Следующего окна нет: у серверов этих типов нет вайпа в расписании",
} as const;
