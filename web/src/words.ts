// The page's words, in its language: its own (``web.*``), the chat's it says too, and the
// cards' and suits' names. They come from the server once, at the start.

import type { Words } from "./wire";

export let WORDS: Words = { lang: "en", words: {}, cards: {}, suits: {} };

/** The words the server sent, from now on. */
export function setWords(words: Words): void {
  WORDS = words;
}

/** The chat's words the page says too (``tables.btn.*``: its buttons' labels). */
export function said(key: string): string {
  return WORDS.words[key] ?? key;
}

/** The page's text ``web.<key>`` in its language, with ``{name}`` filled in. */
export function w(key: string, params: Record<string, string | number> = {}): string {
  const template = WORDS.words[`web.${key}`] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

export function cardName(code: string): string {
  return WORDS.cards[code] ?? code;
}

export function pickLanguage(params: URLSearchParams): string {
  const asked = (params.get("lang") ?? navigator.language ?? "en").toLowerCase();
  return asked.startsWith("es") ? "es" : "en";
}
