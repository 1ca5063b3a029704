// How the shop's search reads words (issue 20, item 7; decision 108): the same folding for the
// catalog's texts and for the query, so «ак», «АК», «ak» and «C4»/«С4» on either keyboard layout
// find the same items. Every word of the query must begin a word of the item's name, description,
// category or kit contents.

/** Latin letters that look like Cyrillic ones: a Rust name typed on the other layout still matches. */
const LATIN_TO_CYRILLIC: Record<string, string> = {
  a: "а",
  b: "в",
  c: "с",
  e: "е",
  h: "н",
  k: "к",
  m: "м",
  o: "о",
  p: "р",
  t: "т",
  x: "х",
  y: "у",
};

const FOLDABLE = /[abcehkmoptxyё]/g;
const WORD_SEPARATORS = /[^\p{L}\p{N}]+/u;

/** Lower case (Cyrillic and Latin), «ё» as «е», Latin look-alikes as their Cyrillic twins. */
export function foldForSearch(text: string): string {
  return text
    .toLowerCase()
    .replace(FOLDABLE, (letter) => (letter === "ё" ? "е" : (LATIN_TO_CYRILLIC[letter] ?? letter)));
}

/** The folded words of a text, each once. */
export function searchWords(text: string): string[] {
  return [...new Set(foldForSearch(text).split(WORD_SEPARATORS).filter(Boolean))];
}

/** What an item is searched in: its folded words, each after a space, so a word's start is « word». */
export function searchIndexText(texts: readonly string[]): string {
  return ` ${searchWords(texts.join(" ")).join(" ")}`;
}

/** True when every query word begins a word of the indexed text (a query without words matches nothing). */
export function matchesSearch(indexText: string, queryWords: readonly string[]): boolean {
  if (queryWords.length === 0) return false;
  return queryWords.every((word) => indexText.includes(` ${word}`));
}
