// The TriPeaks page: draws the server's view, sends taps, animates events. No rules live here: the
// server decides every move and sends only what the player may see.
"use strict";

import { EventLog, announce as readOut, commandWords, installKeysDialog, readCard, saidAs } from "./access.js";
import { cardBack, cardFace, installCardDefs, setRankLetters } from "./cards.js";
import { copyText } from "./clipboard.js";
import { LiveGame } from "./live.js";
import { setSound, sound } from "./sounds.js";

const data = JSON.parse(document.getElementById("tripeaks-data").textContent);
const T = (key) => data.texts[key] ?? key;
// "Draw pile:" in English, "Pioche :" (no-break space) in French: the colon comes from the catalog.
const labelled = (label) => (data.label ?? "{label}:").replace("{label}", label);
const names = {};
const cardName = (code) => names[code] ?? code;
const definiteNames = {};  // the same cards with the language's article: "the 4 of clubs", "le 4 de trèfle"
const definiteName = (code) => definiteNames[code] ?? cardName(code);
const settings = {
  ...data.settings,
  animations: localStorage.getItem("parlour.animations") !== "off" && !matchMedia("(prefers-reduced-motion: reduce)").matches,
};
const $ = (id) => document.getElementById(id);

// Layout: the server sends each slot's place from the engine's layout, [x in card widths, row]; the
// stylesheet turns x into columns (it overlaps the cards sideways on narrow screens), rows 0.73 apart.
const ROW_DY = 0.73;
const slotPosition = (p) => [data.slots[p][0], data.slots[p][1] * ROW_DY];
const ROW_OF = (p) => data.slots[p][1];

const section = document.querySelector(".tripeaks");
const board = $("board");
const stock = $("stock");
const discard = $("discard");
const helpMessage = $("help-message");
const announcer = $("announcer");
let view = null;
let live = null;
let helpTimer = null;

installCardDefs();
setRankLetters(data.rankLetters);
setSound(data.settings.sound);

// --- building and drawing -------------------------------------------------------------------------
const slots = [];
for (let p = 0; p < 28; p++) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "card-slot";
  button.dataset.position = String(p);
  const [x, y] = slotPosition(p);
  button.style.setProperty("--x", x);
  button.style.setProperty("--y", y);
  button.style.zIndex = String(ROW_OF(p) + 1);
  button.addEventListener("click", (event) => {
    if (dragged === button) {  // the end of a drag, not a tap: the drop already decided
      dragged = null;
      return;
    }
    play(intended(p, event));
  });
  button.addEventListener("pointerdown", (event) => startDrag(event, button, p));
  board.appendChild(button);
  slots.push(button);
}

// On a phone the bottom row's cards overlap and each shows a strip narrower than a finger. A tap on a
// card that cannot go onto the pile, close to the edge of one that can, is given to the one that can:
// every fitting card takes a target of at least TARGET pixels, borrowed from its neighbours.
const TARGET = 44;

function intended(p, event) {
  const fitting = new Set(view?.fitting ?? []);
  if (fitting.has(p) || event.detail === 0) return p; // (detail 0: a click from the keyboard, not a tap)
  let best = p;
  let nearest = Infinity;
  for (const q of fitting) {
    const box = slots[q].getBoundingClientRect();
    const strip = visibleWidth(q, box);
    const slack = Math.max(0, (TARGET - strip) / 2);
    const inside = event.clientX >= box.left - slack && event.clientX <= box.left + strip + slack
      && event.clientY >= box.top && event.clientY <= box.bottom;
    const distance = Math.abs(event.clientX - (box.left + strip / 2));
    if (inside && distance < nearest) {
      best = q;
      nearest = distance;
    }
  }
  return best;
}

// How much of a card shows from its left edge: up to the next card of its row lying over it.
function visibleWidth(q, box) {
  const neighbour = slots[q + 1];
  if (!neighbour || neighbour.hidden || ROW_OF(q + 1) !== ROW_OF(q)) return box.width;
  const next = neighbour.getBoundingClientRect();
  return next.left > box.left && next.left < box.right && Math.abs(next.top - box.top) < 1 ? next.left - box.left : box.width;
}

function setCard(element, code) {
  const key = code ?? "back";
  if (element.dataset.shown === key) return;
  element.dataset.shown = key;
  element.innerHTML = code ? cardFace(code) : cardBack();
}

function render(next, message) {
  const focusedCard = slots.includes(document.activeElement) ? document.activeElement : null;
  view = next;
  Object.assign(names, message.names ?? {});
  Object.assign(definiteNames, message.definite_names ?? {});
  const description = message.description;
  section.dataset.state = view.status;
  const free = new Set(view.free);
  for (let p = 0; p < 28; p++) {
    const slot = view.tableau[p];
    const button = slots[p];
    button.hidden = slot.removed;
    if (slot.removed) continue;
    setCard(button, slot.card);
    button.classList.toggle("free", free.has(p));
    button.classList.toggle("face-down", slot.card === null);
    button.setAttribute("aria-label", slot.card ? cardName(slot.card) : T("hidden card"));
    // A covered card is said to be unavailable, yet keeps its place in the keyboard's order and still
    // answers a tap with why it cannot be played.
    button.setAttribute("aria-disabled", free.has(p) ? "false" : "true");
    button.dataset.card = slot.card ?? "";
  }
  const stockCards = stock.querySelector(".pile-cards");
  const layers = Math.min(3, Math.ceil(view.stock / 8));
  if (stockCards.dataset.layers !== String(layers)) {
    stockCards.dataset.layers = String(layers);
    stockCards.innerHTML = Array.from({ length: layers }, () => `<span class="pile-card">${cardBack()}</span>`).join("");
  }
  $("stock-count").textContent = String(view.stock);
  stock.disabled = !view.can_draw;
  stock.classList.toggle("empty", view.stock === 0);
  stock.setAttribute("aria-label", `${labelled(T("Draw pile"))} ${view.stock}`);
  const pile = discard.querySelector(".pile-cards");
  const shown = view.discard.slice(-3);
  const key = shown.join(" ");
  if (pile.dataset.shown !== key) {
    pile.dataset.shown = key;
    pile.innerHTML = shown.map((code, i) => `<span class="pile-card" style="--i:${i - shown.length + 1}">${cardFace(code)}</span>`).join("");
  }
  const top = view.discard[view.discard.length - 1];
  discard.setAttribute("aria-label", `${labelled(T("Discard pile"))} ${top ? cardName(top) : T("empty")}`);
  discard.dataset.card = top ?? "";
  $("score").textContent = String(view.score);
  $("moves").textContent = String(view.moves);
  $("deal-code").textContent = view.code ?? "";
  $("deal-code").title = view.code ?? "";  // whole, where a long code is cut on a phone
  section.querySelector(".deal-code-box").hidden = !view.code;
  $("ranked-note").hidden = !view.ranked;  // a ranked deal: why undo may be greyed
  const number = $("game-number");
  number.hidden = view.numbered === null;
  if (view.numbered !== null) number.textContent = T("Game #{number}").replace("{number}", view.numbered);
  $("undo-button").disabled = !view.can_undo;
  $("restart-button").disabled = !view.code || view.moves === 0;
  const winnable = $("winnable");
  winnable.hidden = !view.winnable;
  // The verdict's words (with the plural the language needs) come with the view from the server.
  if (view.winnable && message.verdict) winnable.textContent = message.verdict;
  const hintButton = $("hint-button");
  if (hintButton) hintButton.disabled = view.status !== "playing";
  for (const hinted of document.querySelectorAll(".hinted")) hinted.classList.remove("hinted");
  if (description) $("board-description").textContent = description;
  keepFocusAfter(focusedCard);
  // Focus belongs to the table: a deal shown with the focus nowhere gives it to the first free card.
  if (document.activeElement === document.body && view.status === "playing") {
    freeInOrder()[0]?.focus({ preventScroll: true });
  }
  showEnding();
}

function showEnding() {
  const ending = $("ending");
  if (view.status === "playing") {
    ending.hidden = true;
    return;
  }
  const won = view.status === "won";
  $("ending-title").textContent = won ? T("You won!") : T("No more moves possible");
  if (!won) $("ending-news").hidden = true;
  $("ending-text").textContent = T("Final score: {score}").replace("{score}", view.score);
  $("ending-undo").hidden = won || !view.can_undo;
  // Today's daily deal cannot be offered as a challenge yet: its end leads to the day's leaderboard.
  // An answer to a challenge leads to the challenge's results (both sides, once it has counted).
  $("ending-challenge").hidden = view.daily || Boolean(view.challenge);
  $("ending-daily").hidden = !view.daily;
  $("ending-answer").hidden = !view.challenge;
  // ... and its review (every card, and the solver's line) waits for the day's end (decision 0060).
  if ($("ending-review")) $("ending-review").hidden = view.daily;
  if (ending.hidden) {
    for (const badge of section.querySelectorAll(".celebration")) badge.remove();
    if (won) winCelebration();
    ending.hidden = false;
    tell(`${$("ending-title").textContent} ${$("ending-text").textContent}`);
    // The end window is where play goes on, unless the player is typing in the command box.
    if (document.activeElement !== commandInput) $("ending-new").focus({ preventScroll: true });
  }
}

// --- animations (FLIP: draw the new state, then slide from where things were) ----------------------
function animate(element, from, flip = false) {
  if (!settings.animations || !element || !from) return;
  const to = element.getBoundingClientRect();
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  const frames = [
    { transform: `translate(${dx}px, ${dy}px)${flip ? " scaleX(0.05)" : ""}` },
    ...(flip ? [{ transform: `translate(${dx / 2}px, ${dy / 2}px) scaleX(0.05)`, offset: 0.45 }] : []),
    { transform: "none" },
  ];
  element.animate(frames, { duration: 240, easing: "cubic-bezier(.2,.7,.3,1)" });
}

function flipIn(element) {
  if (!settings.animations || !element) return;
  element.animate([{ transform: "scaleX(0.05)" }, { transform: "none" }], { duration: 220, easing: "ease-out" });
}

function topDiscardCard() {
  const cards = discard.querySelectorAll(".pile-card");
  return cards[cards.length - 1];
}

// Record news ("You are the first to win game #12!"), translated by the server: on the winning move's
// event, and in the answer to a new game when the game left behind (a lost one) set a best result.
function showNews(element, lines) {
  element.hidden = !lines?.length;
  element.textContent = lines?.length ? lines.join(" ") : "";
  if (lines?.length) announce(element.textContent);
}

function onEvent(message) {
  const { name, data: what } = message;
  if (message.news) showNews($("ending-news"), message.news);
  else $("record-news").hidden = true;  // the news of the last game stays until the first move
  const before = {
    slot: what.position !== undefined ? slots[what.position].getBoundingClientRect() : null,
    stock: stock.getBoundingClientRect(),
    discard: topDiscardCard()?.getBoundingClientRect(),
  };
  render(message.view, message);
  hideHelp();
  if (name === "remove") {
    sound(what.status === "won" ? "win" : "play");
    animate(topDiscardCard(), before.slot);
    for (const turned of what.flipped) flipIn(slots[turned.position]);
    let words = T("{card} removed.").replace("{card}", cardName(what.card));
    for (const turned of what.flipped) words += " " + T("{card} turned face up.").replace("{card}", cardName(turned.card));
    if (what.peak_cleared && what.status !== "won") {
      const cheer = T("Peak cleared! +{bonus}").replace("{bonus}", String(what.peak_bonus));
      words += " " + cheer;
      celebrate(cheer);
    }
    tell(words);
  } else if (name === "draw") {
    sound("draw");
    animate(topDiscardCard(), before.stock, true);
    tell(T("{card} drawn.").replace("{card}", cardName(what.card)));
  } else if (name === "undo") {
    if (what.position !== undefined) animate(slots[what.position], before.discard);
    tell(T("Move taken back."));
  }
}

// Confetti over the table for a win; none at all when the player prefers reduced motion (or turned
// animations off): the end window says it in words either way.
function winCelebration() {
  if (!settings.animations) return;
  const felt = section.querySelector(".felt");
  const colours = ["#e7c35a", "#c8102e", "#fbf8ef", "#2f8a55", "#2357a6"];
  const pieces = Array.from({ length: 36 }, (_, i) => {
    const piece = document.createElement("span");
    piece.className = "confetti";
    piece.style.left = `${(i * 37) % 100}%`;
    piece.style.background = colours[i % colours.length];
    piece.style.animationDelay = `${(i % 9) * 0.08}s`;
    piece.style.setProperty("--drift", `${((i * 53) % 60) - 30}px`);
    return piece;
  });
  felt.append(...pieces);
  setTimeout(() => pieces.forEach((piece) => piece.remove()), 2600);
}

function celebrate(words) {
  const badge = document.createElement("div");
  badge.className = "celebration";
  badge.textContent = words;
  section.querySelector(".felt").appendChild(badge);
  setTimeout(() => badge.remove(), 1600);
}

// --- talking to the server --------------------------------------------------------------------------
function showHelp(text, lasting = false) {
  helpMessage.textContent = text;
  helpMessage.hidden = false;
  clearTimeout(helpTimer);
  if (!lasting) helpTimer = setTimeout(hideHelp, 4000);
}

function hideHelp() {
  helpMessage.hidden = true;
}

const announce = (words) => readOut(announcer, words);

// An event of the game: read out now, and kept in order in the screen-reader mode's log.
const eventLog = new EventLog(document.querySelector('[data-role="event-log"]'));

function tell(words) {
  announce(words);
  eventLog.add(words);
}

function onError(message) {
  const quiet = (view?.quiet_refusals ?? []).includes(message.code);
  sound("refuse");
  if (quiet && !settings.error_help) return;
  showHelp(message.message);
  tell(message.message);
}

function shake(element) {
  if (!settings.animations || !element) return;
  element.animate(
    [{ transform: "translateX(0)" }, { transform: "translateX(-6%)" }, { transform: "translateX(6%)" }, { transform: "none" }],
    { duration: 260 },
  );
}

async function send(action, position) {
  if (!live || !view) return;
  try {
    const reply = await live.act(action);
    if (reply.type === "error" && position !== undefined) shake(slots[position]);
  } catch {
    // Not connected: the page reconnects by itself and the player can tap again.
  }
}

function play(position) {
  send({ position }, position);
}

// Dragging a card onto the discard pile plays it, as a tap does; dropped anywhere else it goes back.
// The server still decides: a card that does not fit is refused and explained like a tap.
let drag = null;
let dragged = null;

function startDrag(event, button, position) {
  if (event.button > 0 || button.classList.contains("face-down")) return;
  drag = { button, position, x: event.clientX, y: event.clientY, moved: false, pointer: event.pointerId };
  button.setPointerCapture?.(event.pointerId);
}

document.addEventListener("pointermove", (event) => {
  if (!drag || event.pointerId !== drag.pointer) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.moved && Math.hypot(dx, dy) < 6) return;
  drag.moved = true;
  drag.button.classList.add("dragging");
  drag.button.style.translate = `${dx}px ${dy}px`;
});

function endDrag(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const { button, position, moved } = drag;
  drag = null;
  button.classList.remove("dragging");
  button.style.translate = "";
  if (!moved) return;
  dragged = button;  // swallow the click that follows this pointerup
  setTimeout(() => { if (dragged === button) dragged = null; }, 0);
  const pile = discard.getBoundingClientRect();
  const margin = 12;
  if (event.type === "pointerup" && event.clientX >= pile.left - margin && event.clientX <= pile.right + margin
      && event.clientY >= pile.top - margin && event.clientY <= pile.bottom + margin) {
    play(position);
  }
}
document.addEventListener("pointerup", endDrag);
document.addEventListener("pointercancel", endDrag);

function draw() {
  send({ move: "draw" });
}

function undo() {
  send({ move: "undo" });
}

async function hint() {
  const button = $("hint-button");
  if (!live || !view || !button || button.disabled) return;
  button.disabled = true;
  showHelp(T("Thinking…"));
  try {
    const reply = await live.ask("hint", { strength: settings.hint_strength });
    if (reply.type !== "hint") return;
    const found = reply.hint;  // TriPeaks' own hint: the move, its place, its chance and interval
    const words = found.move === "draw"
      ? T("Hint: draw a card.")
      : T("Hint: play {the_card}.").replace("{the_card}", definiteName(found.move)).replace("{card}", cardName(found.move));
    (found.position === null ? stock : slots[found.position]).classList.add("hinted");
    // The chance is an honest estimate for a player who cannot see the hidden cards, with its margin.
    const percent = new Intl.NumberFormat(document.documentElement.lang || "en", { style: "percent" });
    const chance = T("Chance of winning: {chance} (± {margin})")
      .replace("{chance}", percent.format(found.chance))
      .replace("{margin}", percent.format((found.high - found.low) / 2));
    showHelp(`${words} ${chance}`);
    tell(`${words} ${chance}`);
  } catch {
    hideHelp();
  } finally {
    button.disabled = view?.status !== "playing";
  }
}

let currentGame = null;

function connect(gameId) {
  currentGame = gameId;
  if (live) live.close();
  view = null;
  $("ending-news").hidden = true;
  live = new LiveGame(gameId, {
    onState: (next, message) => render(next, message),
    onEvent,
    onError,
    onStatus: (status) => {
      if (section.dataset.connection === "ended") return;
      section.dataset.connection = status;
      if (status === "closed") showHelp(T("Connection lost: reconnecting…"));
      if (status === "open") hideHelp();
    },
    onRefused: () => showHelp(T("This game cannot be opened here. Start a new game.")),
    onEnded: () => {
      // A newer game was dealt elsewhere: this board is only a picture now, and says so until reloaded.
      section.dataset.connection = "ended";
      showHelp(T("This game was ended in another window or tab. Reload the page to go on."), true);
      announce(T("This game was ended in another window or tab. Reload the page to go on."));
    },
  }, { lang: data.lang });
}

// Ask the server to deal (POST /api/games/tripeaks): {answer} ({game, news}), or {error} ({code, message},
// and retry_after when the server asks to wait) when it refused or could not be reached.
async function requestDeal(options) {
  try {
    const response = await fetch(`/api/games/tripeaks?lang=${data.lang}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(options),
    });
    const answer = await response.json();
    return response.ok ? { answer } : { error: answer };
  } catch {
    return { error: { code: "unreachable", message: T("Connection lost: reconnecting…") } };
  }
}

// A visitor who is not a player yet gets the page without a game: dealing the first one (the deal a
// link named, if any) makes the player. A refusal that can pass (too many new players from one
// address, a server away) is retried after the wait the server asks for; a bad link's deal is not.
async function dealFirst(options) {
  const { answer, error } = await requestDeal(options);
  if (error && (error.code === "rate_limited" || error.code === "unreachable" || error.code === "not_saved")) {
    showHelp(error.message, true);
    setTimeout(() => dealFirst(options), Math.max(2000, (error.retry_after ?? 0) * 1000));
    return;
  }
  if (error) {
    showHelp(error.message, true);
    if (Object.keys(options).length) dealFirst({});  // the link named no deal that can be played
    return;
  }
  // The address no longer names a deal to make: a reload shows this game (and never asks to deal it).
  if (location.search) history.replaceState(null, "", location.pathname);
  connect(answer.game);
}

// --- buttons, dialogs, keys -------------------------------------------------------------------------
stock.addEventListener("click", draw);
$("undo-button").addEventListener("click", undo);
$("hint-button")?.addEventListener("click", hint);
$("ending-undo").addEventListener("click", undo);

const newGameDialog = $("new-game-dialog");
const newGameForm = $("new-game-form");
function openNewGame() {
  hideHelp();
  $("new-game-error").hidden = true;
  newGameDialog.showModal();
}
$("new-game-button").addEventListener("click", openNewGame);
// The same deal (and, for a numbered game, the same numbered game) from its first card.
// Asked in the page's own dialog (in the page's language and style, not the browser's box).
const restartDialog = $("restart-dialog");
$("restart-button").addEventListener("click", () => {
  if (!view?.code) return;
  restartDialog.returnValue = "";
  restartDialog.showModal();
});
restartDialog.addEventListener("close", async () => {
  if (restartDialog.returnValue !== "restart" || !view?.code) return;
  const { answer, error } = await requestDeal({ code: view.code });
  if (error) {
    showHelp(error.message);
    return;
  }
  $("ending").hidden = true;
  showNews($("record-news"), answer.news);
  sound("deal");
  connect(answer.game);
});
$("ending-new").addEventListener("click", openNewGame);
$("ending-review")?.addEventListener("click", reviewGame);
$("ending-challenge")?.addEventListener("click", challengeGame);
$("ending-daily").addEventListener("click", dailyBoard);
$("ending-answer").addEventListener("click", challengeResults);

// A game that is over but stuck could still be taken back: the review and a challenge, which see or
// share its deal, end it first (as dealing a new one would). Returns false for a game still in play.
async function endGameFirst() {
  if (!currentGame || !view || view.status === "playing") return false;
  if (view.status !== "won") {
    try {
      await fetch(`/api/games/${currentGame}/leave`, { method: "POST" });
    } catch {
      // the review page, or the challenge's answer, says so if the game could not be ended
    }
  }
  return true;
}

async function reviewGame() {
  if (await endGameFirst()) location.assign(`/tripeaks/review/${currentGame}`);
}

// The day's leaderboard after an attempt at the daily deal: a stuck attempt is ended first, so that it
// counts and the page shows its place (as leaving it by dealing another game would).
async function dailyBoard() {
  if (await endGameFirst()) location.assign(`/tripeaks/daily?rules=${encodeURIComponent(view.rules)}`);
}

// A stuck answer is ended first, so that it counts and the challenge's page shows both results.
async function challengeResults() {
  const challenge = view?.challenge;
  if (challenge && (await endGameFirst())) location.assign(`/tripeaks/challenge/${encodeURIComponent(challenge)}`);
}

// A challenge offers the finished game's deal to friends by a link. Today's daily deal cannot be
// offered until the day is over: the page says why.
async function challengeGame() {
  if (!(await endGameFirst())) return;
  try {
    const response = await fetch(`/api/games/${currentGame}/challenge`, { method: "POST" });
    const answer = await response.json();
    if (response.ok) {
      location.assign(answer.url);
      return;
    }
    showHelp(T("This game cannot be offered as a challenge now."));
  } catch {
    showHelp(T("This game cannot be offered as a challenge now."));
  }
}
$("new-game-cancel").addEventListener("click", () => newGameDialog.close());
for (const input of newGameForm.querySelectorAll('input[name="number"], input[name="code"]')) {
  input.addEventListener("focus", () => {
    newGameForm.querySelector(`input[name="deal"][value="${input.name}"]`).checked = true;
  });
}
newGameForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(newGameForm);
  const options = { rules: form.get("rules"), variants: form.getAll("variants") };
  const deal = form.get("deal");
  if (deal === "number") options.number = Number.parseInt(form.get("number"), 10) || form.get("number");
  if (deal === "code") {
    for (const key of Object.keys(options)) delete options[key];
    options.code = String(form.get("code")).trim();
  }
  const { answer, error } = await requestDeal(options);
  if (error) {
    $("new-game-error").textContent = error.message;
    $("new-game-error").hidden = false;
    return;
  }
  newGameDialog.close();
  $("ending").hidden = true;
  showNews($("record-news"), answer.news);  // what leaving the last numbered game did to its records
  sound("deal");
  connect(answer.game);
});

const settingsDialog = $("settings-dialog");
$("settings-button").addEventListener("click", () => {
  hideHelp();
  settingsDialog.showModal();
});
$("setting-animations").checked = settings.animations;
$("setting-animations").addEventListener("change", (event) => {
  settings.animations = event.target.checked;
  localStorage.setItem("parlour.animations", settings.animations ? "on" : "off");
});
$("setting-sound").addEventListener("change", (event) => {
  settings.sound = event.target.checked;
  setSound(settings.sound);
  fetch("/api/preferences", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ sound: settings.sound }),
  });
});
$("setting-hint-strength")?.addEventListener("change", (event) => {
  settings.hint_strength = event.target.value;
  fetch("/api/preferences", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ hint_strength: settings.hint_strength }),
  });
});
$("setting-error-help").addEventListener("change", (event) => {
  settings.error_help = event.target.checked;
  fetch("/api/preferences", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ error_help: settings.error_help }),
  });
});

$("copy-code-button").addEventListener("click", async () => {
  const code = view?.code;
  if (!code) return;
  await copyText(code, $("deal-code"));
  showHelp(T("Deal code copied"));
});

// Keyboard order: the cards from left to right (the lower of two at one place first), then the stock.
function byPlace(a, b) {
  return a.style.getPropertyValue("--x") - b.style.getPropertyValue("--x") || ROW_OF(+b.dataset.position) - ROW_OF(+a.dataset.position);
}

function freeInOrder() {
  const cards = slots.filter((s) => !s.hidden && s.classList.contains("free")).sort(byPlace);
  return [...cards, stock];
}

function focusNeighbour(step) {
  const free = freeInOrder();
  const index = free.indexOf(document.activeElement);
  const next = free[(index + step + free.length) % free.length] ?? free[0];
  next?.focus();
}

// A card played from the keyboard leaves the board: the focus goes on to the next free card at its
// place (or the stock), so that the next arrow key continues from there and a screen reader keeps it.
function keepFocusAfter(left) {
  if (!left || (!left.hidden && left.classList.contains("free"))) return; // still there: nothing to do
  const free = freeInOrder();
  const next = free.find((el) => el !== stock && byPlace(el, left) >= 0) ?? free[free.length - 1];
  next?.focus({ preventScroll: true });
}

// The asking keys' answers: the score and moves, and the two piles.
function scoreWords() {
  return view ? `${labelled(T("Score"))} ${view.score}. ${labelled(T("Moves"))} ${view.moves}.` : "";
}

function pileWords() {
  if (!view) return "";
  const top = view.discard[view.discard.length - 1];
  return `${labelled(T("Draw pile"))} ${view.stock}. ${labelled(T("Discard pile"))} ${top ? cardName(top) : T("empty")}.`;
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (document.querySelector("dialog[open]")) return;
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  const key = event.key.toLowerCase();
  if (key === "arrowright" || key === "arrowdown") focusNeighbour(1);
  else if (key === "arrowleft" || key === "arrowup") focusNeighbour(-1);
  else if (key === "d") draw();
  else if (key === "u" || key === "z") undo();
  else if (key === "n") openNewGame();
  else if (key === "b") announce($("board-description").textContent);
  else if (key === "h") hint();
  else if (key === "s") announce(scoreWords());
  else if (key === "p") announce(pileWords());
  else if (key === "/") commandInput?.focus();
  else return;
  event.preventDefault();
});

// The command box: a card to play ("7♣", "7c", "play 7c"), or draw, undo, hint, new. A command is the
// action a tap makes (the card's place on the board): the server judges it the same way, and a refusal
// is its reason, read out and logged.
const commandForm = document.querySelector('[data-role="command"]');
const commandInput = commandForm?.querySelector("input") ?? null;
const WORDS = Object.fromEntries(["play", "draw", "undo", "hint", "new"].map((word) => [word, saidAs(word, T)]));
installKeysDialog($("tp-keys"));

function runCommand(text) {
  const words = commandWords(text);
  const help = T("Type a card such as 7♣ (or 7c) to play it, or draw, undo, hint.");
  if (!words.length) return help;
  const first = words[0].toLowerCase();
  const whole = words.join(" ").toLowerCase(); // a command word may be two ("đi lại")
  const actions = [[WORDS.draw, draw], [WORDS.undo, undo], [WORDS.hint, hint], [WORDS.new, openNewGame]];
  const action = actions.find(([said]) => said.has(whole));
  if (action) {
    action[1]();
    return null;
  }
  const cards = WORDS.play.has(first) ? words.slice(1) : words;
  if (cards.length !== 1) return help;
  const code = readCard(cards[0], data.rankLetters);
  if (!code) return T("Not a card: “{word}”. Write a card as 7♣ or 7c.").replace("{word}", cards[0]);
  const position = view?.tableau.findIndex((slot) => !slot.removed && slot.card === code) ?? -1;
  if (position < 0) return T("{card} is not face up on the board.").replace("{card}", cardName(code));
  play(position);
  return null;
}

commandForm?.addEventListener("submit", (event) => {
  event.preventDefault();
  const problem = runCommand(commandInput.value);
  if (problem) tell(problem);
  else commandInput.value = "";
  commandInput.focus(); // the focus stays where the player types
});

if (data.game) connect(data.game);
else dealFirst(data.firstDeal);
