// Everyone can play: what both games' pages share for players who use the keyboard or a screen reader.
//
// - The screen-reader mode (the player's screen_reader preference, data-reader on <html>): every event
//   of the game is written, in order, into the page's event log (role="log", a polite live region),
//   and a command box takes moves as text. Outside the mode the log stays hidden and only the page's
//   own short announcements are read.
// - "?" opens the page's list of keys; closing it puts the focus back where it was.
// - Cards typed as text: "3♠", "3s", "10h", "th", and the language's own letters for A, J, Q, K.
"use strict";

const root = document.documentElement;

export function readerOn() {
  return root.dataset.reader === "on";
}

// Turn the screen-reader mode on or off and keep it with the player (their preferences).
export async function setReader(on) {
  root.dataset.reader = on ? "on" : "off";
  try {
    await fetch("/api/preferences", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ screen_reader: on }),
    });
  } catch {
    // Offline: the mode holds for this page, and the next change saves it.
  }
}

// Read `words` out through a live region (`element`) at once, without moving the focus: emptied first,
// so that the same words said twice are read twice.
export function announce(element, words) {
  element.textContent = "";
  requestAnimationFrame(() => {
    element.textContent = words;
  });
}

// A command word as a player may type it: English, or in the page's language (`T` translates).
export function saidAs(word, T) {
  return new Set([word, T(word).toLowerCase()]);
}

// The event log of a page: lines appended in order (the newest last), read out by a screen reader as
// they come, at most `keep` lines kept.
export class EventLog {
  constructor(element, keep = 500) {
    this.element = element;
    this.keep = keep;
  }

  add(text) {
    if (!text || !this.element) return;
    const line = document.createElement("li");
    line.textContent = text;
    this.element.append(line);
    while (this.element.children.length > this.keep) this.element.firstElementChild.remove();
  }

  lines() {
    return [...(this.element?.children ?? [])].map((line) => line.textContent);
  }
}

// "?" opens `dialog` (the page's keys); it returns the focus where it was when it closes.
export function installKeysDialog(dialog) {
  if (!dialog) return;
  let before = null;
  document.addEventListener("keydown", (event) => {
    if (event.key !== "?" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
    if (document.querySelector("dialog[open]")) return;
    event.preventDefault();
    before = document.activeElement;
    dialog.showModal();
  });
  for (const opener of document.querySelectorAll(`[aria-controls="${dialog.id}"]`)) {
    opener.addEventListener("click", () => {
      before = opener;
      dialog.showModal();
    });
  }
  dialog.querySelector("[data-action=close-keys]")?.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    if (before && before.isConnected) before.focus();
    before = null;
  });
  const toggle = dialog.querySelector("[data-role=reader-toggle]");
  if (toggle) {
    toggle.checked = readerOn();
    toggle.addEventListener("change", () => setReader(toggle.checked));
  }
}

const RANKS = "A23456789TJQK";
const SUIT_LETTERS = { s: "S", c: "C", d: "D", h: "H", "♠": "S", "♣": "C", "♦": "D", "♥": "H" };

// One card typed as text ("3♠", "3s", "10H", "td", "R♣" with French letters) as its code ("3S"), or
// null. `letters` maps A, J, Q, K to the language's corner letters (French R for K …).
export function readCard(text, letters = {}) {
  const word = text.trim();
  if (word.length < 2) return null;
  const suit = SUIT_LETTERS[word.slice(-1).toLowerCase()];
  let rank = word.slice(0, -1).toUpperCase();
  if (!suit) return null;
  if (rank === "10") rank = "T";
  // A language whose letters reuse an English one for another rank (French D is the queen, V the
  // jack) reads its own letters first.
  const own = Object.entries(letters).find(([english, local]) => local.toUpperCase() === rank && english !== local);
  if (own) rank = own[0];
  return RANKS.includes(rank) && rank.length === 1 ? rank + suit : null;
}

// The words of a command: "play 3♠ 4♠", "3s, 4s" → ["play", "3♠", "4♠"] (commas and spaces part them).
export function commandWords(text) {
  return text.trim().split(/[\s,;]+/).filter(Boolean);
}
