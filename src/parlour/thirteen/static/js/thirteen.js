// The Thirteen table: renders the person's view sent by the server and sends the person's actions.
// The server is authoritative: a click raises a card here and asks the server's selection rule, which
// plays the cards at once when the selection cannot be extended. Every text comes from the page's
// boot data (the server's catalogs); no other seat's cards ever reach this page.
// At a friends' table (boot.table) the page acts for the seat of its seat token: the table is turned
// so that seat sits at the bottom, and the seats, chat, timers and host's tools are drawn too.
"use strict";

import { EventLog, announce, commandWords, installKeysDialog, readCard, saidAs } from "./access.js";
import { cardBack, cardFace, installCardDefs, setRankLetters } from "./cards.js";
import { LiveGame } from "./live.js";
import { setSound, sound } from "./sounds.js";

const boot = JSON.parse(document.getElementById("thirteen-boot").textContent);
const T = (message) => boot.texts[message] ?? message;
const labelled = (label) => (boot.label ?? "{label}:").replace("{label}", label);
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, key) => values[key] ?? "");
const SEAT_AREAS = ["south", "west", "north", "east"];
const TABLE = boot.table ?? null; // a friends' table ({id, code, url}), or null against the computer
// Quick-chat phrases in the order a game uses them ([id, text] pairs), and the text of each id.
const PHRASES = new Map(boot.phrases ?? []);
const SEAT_KEY = TABLE ? `parlour.seat.${TABLE.id}` : null;
// A public table Play now seats people at: the site deals, and a claimed seat is this page's from the
// next round (claimSeat: the seat claimed and not handed over yet, or null).
const QUICK = Boolean(TABLE?.quick);
let claimSeat = TABLE?.claim ?? null;
// What this person chose not to see: seats whose chat is muted at this table, and names they reported
// (hidden at every table of this browser).
const MUTED_KEY = TABLE ? `parlour.muted.${TABLE.id}` : null;
const muted = new Set(JSON.parse((MUTED_KEY && localStorage.getItem(MUTED_KEY)) || "[]"));
const hiddenNames = new Set(JSON.parse(localStorage.getItem("parlour.hiddenNames") || "[]"));

const table = document.querySelector(".th-table");
const handEl = table.querySelector('[data-role="hand"]');
const pileEl = table.querySelector('[data-role="pile"]');
const pileLabel = table.querySelector('[data-role="pile-label"]');
const statusEl = table.querySelector('[data-role="status"]');
const playButton = table.querySelector('[data-action="play"]');
const passButton = table.querySelector('[data-action="pass"]');
const scoresEl = document.querySelector('[data-role="scores"]');
const codeEl = document.querySelector('[data-role="code"]');
const resultDialog = document.querySelector('[data-role="result"]');
const newDialog = document.querySelector('[data-role="new-game"]');
const seatingEl = document.querySelector('[data-role="seating"]');
const chatEl = document.querySelector('[data-role="chat"]');

let live = null;
let view = null;
let selection = new Set();
let note = null; // a transient message (a refusal, the selection rule's answer) shown instead of the status
let lastPlay = null; // {seat, cards} of the newest play, to animate it onto the table

// --- text helpers --------------------------------------------------------------------------------

// The seat this page plays from: 0 against the computer; at a friends' table the seat of its token
// (null while it has not sat down, watching from the lobby).
function mySeat() {
  if (!TABLE) return 0;
  return view?.tables?.you ?? null;
}

// Where a seat is drawn: 0 at the bottom (this page's own seat), then clockwise west, north, east.
function position(seat) {
  const me = mySeat();
  return me === null ? seat : (seat - me + 4) % 4;
}

function seatName(seat) {
  if (!TABLE) return boot.seatNames[seat];
  if (seat === mySeat()) return boot.seatNames[0];
  const entry = view?.tables?.seats?.[seat];
  if (!entry || entry.kind === "empty") return T("Free seat");
  if (entry.kind === "bot") {
    // Computer players are numbered in seat order: two of the same strength must not look the same.
    const number = view.tables.seats.slice(0, seat + 1).filter((other) => other.kind === "bot").length;
    return fill(T("Computer {n}"), { n: number });
  }
  return hiddenNames.has(entry.name) ? fill(T("Seat {n}"), { n: seat + 1 }) : entry.name;
}

function strengthName(entry) {
  return fill(T("Computer ({strength})"), { strength: boot.strengthNames?.[entry.strength] ?? entry.strength });
}

function inMatch() {
  return Boolean(view && Array.isArray(view.hand));
}

// The combination's name: the server names each kind (in the page's language) and counts its ``n``.
function comboName(combo) {
  if (!combo) return "";
  return fill(boot.comboNames?.[combo.kind] ?? combo.kind, { n: combo.n });
}

function cardName(code) {
  return fill(boot.cardPatterns[code.slice(0, -1)], { suit: boot.suitNames[code.slice(-1)] });
}

function cardsLabel(cards) {
  return cards.map(cardName).join(", ");
}

function placeName(index) {
  return [T("first out"), T("second"), T("third"), T("last")][index];
}

// --- rendering -----------------------------------------------------------------------------------

function makeCard(code, { button = false, small = false } = {}) {
  const element = document.createElement(button ? "button" : "span");
  element.className = small ? "card card-small" : "card";
  element.dataset.card = code;
  if (button) {
    element.type = "button";
    element.setAttribute("aria-pressed", "false");
    element.setAttribute("aria-label", cardName(code));
  }
  element.innerHTML = cardFace(code);
  return element;
}

function renderSeats() {
  for (let seat = 0; seat < 4; seat += 1) {
    const root = table.querySelector(`[data-seat="${position(seat)}"]`);
    renderSeatName(root, seat);
    if (!inMatch()) {
      root.querySelector('[data-role="chip"]').hidden = true;
      continue;
    }
    const count = view.hand_counts[seat];
    const place = view.finished.indexOf(seat);
    root.classList.toggle("is-turn", view.turn === seat && !view.between_rounds);
    root.classList.toggle("has-passed", view.passed[seat]);
    root.classList.toggle("is-out", place >= 0);
    const chip = root.querySelector('[data-role="chip"]');
    if (place >= 0) {
      chip.hidden = false;
      chip.textContent = placeName(place);
      chip.className = "th-chip th-chip-place";
    } else if (view.passed[seat]) {
      chip.hidden = false;
      chip.textContent = T("Passed");
      chip.className = "th-chip th-chip-pass";
    } else if (view.turn === seat && !view.between_rounds && turnLeft() !== null) {
      chip.hidden = false;
      chip.textContent = fill(T("{seconds} s left"), { seconds: turnLeft() });
      chip.className = "th-chip th-chip-turn th-chip-timer";
    } else if (view.turn === seat && !view.between_rounds && seat !== mySeat() && awayToMove(seat)) {
      chip.hidden = false; // nobody is thinking: the person to move has gone (for now)
      chip.textContent = T("Away");
      chip.className = "th-chip th-chip-away";
    } else if (view.turn === seat && !view.between_rounds && seat !== mySeat() && !tableDeserted()) {
      chip.hidden = false;
      chip.textContent = T("Thinking…");
      chip.className = "th-chip th-chip-turn";
    } else {
      chip.hidden = true;
    }
    const points = view.scores[seat];
    root.querySelector('[data-role="points"]').textContent =
      boot.pointCounts[Math.min(points, boot.pointCounts.length - 1)].replace(/\d+/, String(points));
    if (position(seat) === 0) continue;
    root.querySelector('[data-role="count"]').textContent = boot.cardCounts[count];
    const fan = root.querySelector('[data-role="fan"]');
    if (fan.childElementCount !== count) {
      fan.replaceChildren(...Array.from({ length: count }, () => {
        const back = document.createElement("span");
        back.className = "card-back";
        back.innerHTML = cardBack();
        return back;
      }));
    }
  }
}

// A panel over the table, opened by its button (which says whether it is open) and put away by a tap
// on it or Escape: the last trick, and the round's history.
function foldout(name) {
  const panel = table.querySelector(`[data-role="${name}"]`);
  const button = table.querySelector(`[data-action="${name}"]`);
  const show = (open) => {
    panel.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
  };
  button.addEventListener("click", () => show(panel.hidden));
  panel.addEventListener("click", () => show(false));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !panel.hidden) show(false);
  });
  return show;
}

const showLastTrick = foldout("last-trick");
const showRoundHistory = foldout("round-history");

// The current trick in order (who played what, who passed) and what has gone this round.
function renderTrick() {
  const trick = table.querySelector('[data-role="trick"]');
  trick.replaceChildren(...trickItems(view.trick ?? []));
  // On a phone the trick is one line that scrolls sideways: keep its newest step in view.
  trick.scrollLeft = trick.scrollWidth;
  const goneEl = table.querySelector('[data-role="gone"]');
  const gone = view.gone ?? { twos: [], bombs: 0 };
  const parts = [];
  if (gone.twos.length) parts.push(fill(T("2s played: {cards}"), { cards: gone.twos.map(prettyCard).join(" ") }));
  if (gone.bombs) parts.push(fill(T("Bombs played: {n}"), { n: gone.bombs }));
  goneEl.textContent = parts.join(" · ");
  // The trick before this one can be looked at again (the table was cleared: nothing in it is hidden).
  const last = view.last_trick ?? [];
  const button = table.querySelector('[data-action="last-trick"]');
  const shown = table.querySelector('[data-role="last-trick"]');
  button.hidden = last.length === 0;
  if (!last.length) showLastTrick(false);
  table.querySelector('[data-role="last-trick-steps"]').replaceChildren(...trickItems(last));
  const tricks = tricksOf(view.history ?? []);
  const history = table.querySelector('[data-action="round-history"]');
  history.hidden = tricks.length === 0;
  if (!tricks.length) showRoundHistory(false);
  table.querySelector('[data-role="round-history-tricks"]').replaceChildren(...historyItems(tricks));
  table.querySelector('[data-role="gone-line"]').hidden = parts.length === 0 && last.length === 0 && tricks.length === 0;
  button.setAttribute("aria-expanded", String(!shown.hidden));
}

// The round so far as its tricks, from the view's history (every step of the round: every seat sees
// them), each ending where the table was cleared.
function tricksOf(history) {
  const tricks = [];
  let trick = [];
  for (const step of history) {
    const pass = step.move === "pass";
    trick.push({ seat: step.seat, pass, cards: pass ? [] : step.move.split(" ") });
    if (step.cleared) {
      tricks.push(trick);
      trick = [];
    }
  }
  if (trick.length) tricks.push(trick);
  return tricks;
}

// A round's tricks in order, each numbered, with who played what and who passed (issue 53).
function historyItems(tricks) {
  return tricks.map((steps, index) => {
    const item = document.createElement("li");
    const title = document.createElement("span");
    title.className = "th-history-title";
    title.textContent = fill(T("Trick {n}"), { n: index + 1 });
    const list = document.createElement("ol");
    list.className = "th-trick";
    list.replaceChildren(...trickItems(steps));
    item.append(title, list);
    return item;
  });
}

// The steps of a trick as list items: who played what, or passed.
function trickItems(steps) {
  return steps.map((step) => {
    const item = document.createElement("li");
    item.className = step.pass ? "is-pass" : "";
    const who = document.createElement("span");
    who.className = "th-trick-seat";
    who.textContent = seatName(step.seat);
    item.append(who);
    if (step.pass) {
      const passed = document.createElement("span");
      passed.textContent = T("Passed");
      item.append(passed);
    } else {
      item.append(...step.cards.map(miniCard));
      item.setAttribute("aria-label", `${labelled(seatName(step.seat))} ${cardsLabel(step.cards)}`);
    }
    return item;
  });
}


function prettyCard(code) {
  const suit = { S: "♠", C: "♣", D: "♦", H: "♥" }[code.slice(-1)];
  const letter = code.slice(0, -1);
  const rank = letter === "T" ? "10" : boot.rankLetters?.[letter] ?? letter;
  return rank + suit;
}

// A card as a small readable label ("4♦" in red), for the trick and the cards left.
function miniCard(code) {
  const element = document.createElement("span");
  const red = code.endsWith("D") || code.endsWith("H");
  // suit-X: the suit's colour of the player's deck (two or four colours).
  element.className = `th-mini suit-${code.slice(-1)}${red ? " red" : ""}`;
  element.textContent = prettyCard(code);
  return element;
}

function bombCallout() {
  const badge = document.createElement("div");
  badge.className = "th-bomb";
  badge.textContent = T("Bomb!");
  badge.setAttribute("role", "status");
  table.querySelector(".th-center").append(badge);
  setTimeout(() => badge.remove(), 1600);
}

function renderPile() {
  const cards = view.table.cards;
  const owner = view.table.owner;
  const key = cards.join(" ");
  if (pileEl.dataset.cards !== key) {
    pileEl.dataset.cards = key;
    pileEl.replaceChildren(...cards.map((code) => makeCard(code)));
    pileEl.className = "th-pile";
    if (lastPlay && lastPlay.cards.join(" ") === key) {
      void pileEl.offsetWidth; // restart the animation
      pileEl.classList.add("arrive", `from-${SEAT_AREAS[position(lastPlay.seat)]}`);
    }
  }
  pileEl.setAttribute("aria-label", cards.length ? cardsLabel(cards) : T("The table is empty."));
  if (cards.length && owner !== null) {
    pileLabel.textContent = fill(T("{name} played {combo}"), {
      name: seatName(owner), combo: comboName(view.table.combo),
    });
  } else if (view.turn !== null && !view.between_rounds) {
    // The player's own turn has a sentence of its own: "You leads" is wrong in every language.
    pileLabel.textContent = view.turn === mySeat()
      ? T("The table is empty: you lead.")
      : fill(T("The table is empty: {name} leads."), { name: seatName(view.turn) });
  } else {
    pileLabel.textContent = T("The table is empty.");
  }
}

function renderHand() {
  const hand = view.hand;
  selection = new Set([...selection].filter((card) => hand.includes(card)));
  const shown = [...handEl.children].map((el) => el.dataset.card).join(" ");
  if (shown !== hand.join(" ")) {
    // The focus stays in the hand when its cards change (a play, a new deal): on the card that took
    // the place of the one focused, else the hand itself; never back on the page.
    const focused = handEl.contains(document.activeElement) ? [...handEl.children].indexOf(document.activeElement) : -1;
    handEl.replaceChildren(...hand.map((code) => makeCard(code, { button: true })));
    if (focused >= 0 || document.activeElement === document.body || document.activeElement === handEl) {
      const next = handEl.children[Math.min(Math.max(focused, 0), hand.length - 1)];
      (next ?? handEl).focus({ preventScroll: true });
    }
  }
  rovingFocus();
  handEl.style.setProperty("--cards", String(Math.max(hand.length, 1)));
  handEl.style.setProperty("--cols", String(Math.min(Math.max(hand.length, 1), 7)));
  [...handEl.children].forEach((el, index) => el.style.setProperty("--i", String(index)));
  for (const el of handEl.children) {
    const raised = selection.has(el.dataset.card);
    el.classList.toggle("selected", raised);
    el.setAttribute("aria-pressed", String(raised));
  }
}

function myTurn() {
  return inMatch() && view.my_turn === true; // the server says so: it is this seat's move now
}

// At a friends' table: the person to move is away and no computer player plays for them yet.
function awayToMove(seat) {
  const entry = view.tables?.seats?.[seat];
  return Boolean(TABLE && entry?.kind === "person" && entry.away && !entry.computer);
}

// At a friends' table: every person has gone, and the table waits for them (nothing moves meanwhile).
function tableDeserted() {
  const people = (view.tables?.seats ?? []).filter((entry) => entry.kind === "person");
  return Boolean(TABLE && people.length && people.every((entry) => entry.away));
}

function statusText() {
  const me = mySeat();
  if (!inMatch()) {
    if (me === null) return T("Take a free seat to play.");
    if (view.tables.host !== me) return T("Waiting for the host to start.");
    const full = view.tables.seats.every((seat) => seat.kind !== "empty");
    return full ? T("Every seat is taken: start the game when you are ready.") : T("The host can start once every seat is taken.");
  }
  if (view.winners.length) return T("The game is over.");
  if (view.between_rounds) {
    return TABLE && view.tables.seats[me]?.ready ? T("Waiting for the others…") : T("The round is over.");
  }
  if (tableDeserted()) return T("Nobody is at the table: the game waits for its players to come back.");
  if (awayToMove(view.turn)) {
    return fill(T("{name} is away: a computer player takes their turns if they do not come back soon."), { name: seatName(view.turn) });
  }
  if (me === null) return fill(T("Waiting for {name}…"), { name: seatName(view.turn) });
  const place = view.finished.indexOf(me);
  if (place >= 0) return fill(T("You are out of this round ({place})."), { place: placeName(place) });
  if (view.passed[me]) return T("You passed: wait until the table is cleared.");
  if (view.turn === me) {
    if (view.must_include_three_of_spades) return T("Your turn: your play must include the 3 of spades.");
    if (!view.table.cards.length) return T("Your turn: lead any combination.");
    return fill(T("Your turn: beat {combo} or pass."), { combo: comboName(view.table.combo) });
  }
  return fill(T("Waiting for {name}…"), { name: seatName(view.turn) });
}

function renderControls() {
  if (!view) {
    statusEl.textContent = note ?? T("Connecting…");
    return;
  }
  const mine = myTurn();
  playButton.disabled = !mine || selection.size === 0;
  passButton.disabled = !view.can_pass || !inMatch();
  table.dataset.turn = view.turn ?? "";
  statusEl.textContent = note ?? statusText();
  statusEl.classList.toggle("is-note", note !== null);
}

function renderScores() {
  const body = scoresEl.tBodies[0];
  body.replaceChildren(...view.results.map((result) => {
    const row = document.createElement("tr");
    const head = document.createElement("th");
    head.scope = "row";
    head.textContent = String(result.round);
    row.append(head, ...result.points.map((points, seat) => {
      const cell = document.createElement("td");
      cell.textContent = String(points);
      if (result.order[0] === seat) cell.className = "won";
      return cell;
    }));
    return row;
  }));
  [...scoresEl.tFoot.rows[0].cells].slice(1).forEach((cell, seat) => {
    cell.textContent = String(view.scores[seat]);
  });
  renderFairness();
}

// The note under the points: the target, or where a duplicate set is (before the first deal too).
function renderTarget() {
  // The target is the match's own, or before the first deal the table's chosen rules (a friends' table
  // chooses them); a duplicate set says where it is, or before it starts how many deals it has.
  const chosen = view.rules ?? view.tables?.settings?.rules ?? {};
  const target = chosen.target_points ?? 10;
  const deals = chosen.duplicate_deals ?? 0;
  document.querySelector('[data-role="target-note"]').textContent = view.duplicate
    ? duplicateNote(view.duplicate)
    : deals === 1 ? T("Duplicate: 1 deal, played four times")
    : deals > 1 ? fill(T("Duplicate: {n} deals, each played four times"), { n: deals })
    : target === 1 ? T("First to 1 point wins.") : fill(T("First to {n} points wins."), { n: target });
}

// A counted daily match is the day's: its computer players' strength and its deal are nobody's to
// change while it is played, so neither the strength nor "New game" is offered until it is over.
function renderDaily() {
  const playing = Boolean(view.daily) && !(view.winners ?? []).length;
  const strength = document.querySelector('[data-setting="strength"]')?.closest("label");
  if (strength) strength.hidden = playing;
  const strengthNote = document.querySelector('[data-role="strength-note"]');
  if (strengthNote) strengthNote.hidden = playing;
  const fresh = document.querySelector('[data-role="side-new"]');
  if (fresh) fresh.hidden = playing;
}

// Where a duplicate set is: the deal, the rotation of the hands, and the hand this seat holds.
function duplicateNote(set) {
  const where = fill(T("Duplicate: deal {deal} of {deals}, rotation {rotation} of 4."), set);
  const me = mySeat();
  return me === null ? where : `${where} ${fill(T("You hold hand {hand}."), { hand: set.hands[me] })}`;
}

// A duplicate set's results deal by deal: each hand, each seat's points with it and, once all four
// have played it, the difference from their mean (the server works these out; this only draws them).
// A difference as the page's language writes it, with its sign: "+0.5", "-1,75" in French and Hungarian.
const signed = new Intl.NumberFormat(document.documentElement.lang || "en", {
  maximumFractionDigits: 2, signDisplay: "exceptZero",
});

function renderComparison() {
  const box = resultDialog.querySelector('[data-role="duplicate"]');
  const rows = (view.duplicate?.comparison ?? []).filter((hand) => hand.points.some((p) => p !== null));
  box.hidden = rows.length === 0;
  if (box.hidden) return;
  box.querySelector("thead tr").replaceChildren(
    ...[T("Hand"), ...[0, 1, 2, 3].map(seatName)].map((text) => {
      const head = document.createElement("th");
      head.scope = "col";
      head.textContent = text;
      return head;
    }),
  );
  box.querySelector("tbody").replaceChildren(...rows.map((hand) => {
    const row = document.createElement("tr");
    const head = document.createElement("th");
    head.scope = "row";
    head.textContent = `${hand.deal}${hand.hand}`;
    row.append(head, ...hand.points.map((points, seat) => {
      const cell = document.createElement("td");
      const versus = hand.versus[seat];
      cell.textContent = points === null ? "—"
        : versus === null ? String(points) : `${points} (${signed.format(versus)})`;
      if (seat === mySeat()) cell.className = "me";
      if (versus !== null && versus > 0) cell.classList.add("ahead");
      return cell;
    }));
    return row;
  }));
}

// The fairness commitment: shown from the first card; the code and salt once the match is over.
function renderFairness() {
  const fair = view.fairness ?? {};
  const commitmentEl = document.querySelector('[data-role="commitment"]');
  commitmentEl.textContent = fair.commitment ? fair.commitment.slice(0, 16) + "…" : "—";
  commitmentEl.title = fair.commitment ?? "";
  const revealed = Boolean(fair.code);
  document.querySelector('[data-role="code-line"]').hidden = !revealed;
  const note = document.querySelector('[data-role="fair-note"]');
  note.hidden = revealed;
  // A daily match over before its day is: its code waits for the day's end (nobody may play it known).
  if (note.dataset.ends === undefined) note.dataset.ends = note.textContent;
  note.textContent = fair.later === "day" ? T("The code and salt are shown when the day is over.") : note.dataset.ends;
  codeEl.textContent = fair.code ?? "";
  const box = resultDialog.querySelector('[data-role="fairness"]');
  box.hidden = !(revealed && fair.salt && fair.commitment);
  if (box.hidden) return;
  box.querySelector('[data-role="reveal-code"]').textContent = fair.code;
  box.querySelector('[data-role="reveal-salt"]').textContent = fair.salt;
  box.querySelector('[data-role="reveal-commitment"]').textContent = fair.commitment;
  box.querySelector('[data-role="verify-command"]').textContent =
    `parlour thirteen verify ${fair.code} ${fair.salt} ${fair.commitment}`;
}

async function verifyDeal() {
  const fair = view.fairness;
  const out = resultDialog.querySelector('[data-role="verify-result"]');
  if (!globalThis.crypto?.subtle) {
    out.textContent = T("This browser cannot compute SHA-256 on this page: use the command below.");
    return;
  }
  // The same computation as the server's and the command line's: SHA-256 of "CODE|SALT", in hex.
  const bytes = new TextEncoder().encode(`${fair.code}|${fair.salt}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  out.textContent = hex === fair.commitment
    ? T("The commitment matches this code and salt: the cards were not changed during the game.")
    : T("The commitment does not match this code and salt!");
}

function renderResult() {
  const over = view.winners.length > 0;
  const result = view.results[view.results.length - 1];
  if (!(over || view.between_rounds) || !result) {
    if (resultDialog.open) resultDialog.close();
    return;
  }
  const title = resultDialog.querySelector('[data-role="result-title"]');
  if (over) {
    const winner = view.winners[0];
    if (view.winners.length > 1) {
      title.textContent = fill(T("{names} share the win."), { names: view.winners.map(seatName).join(", ") });
    } else {
      title.textContent = winner === mySeat() ? T("You win the game!") : fill(T("{name} wins the game."), { name: seatName(winner) });
    }
  } else {
    title.textContent = fill(T("Round {n} is over"), { n: result.round });
  }
  // Whoever came back to a match a computer player partly played for them is told so.
  const playedFor = resultDialog.querySelector('[data-role="played-for"]');
  const rounds = over && mySeat() !== null ? view.played_for?.[mySeat()] ?? 0 : 0;
  playedFor.hidden = rounds === 0;
  playedFor.textContent = rounds ? boot.playedFor[Math.min(rounds, boot.playedFor.length - 1)] : "";
  const remaining = view.last_round?.remaining;
  const rows = result.order.map((seat, place) => {
    const row = document.createElement("tr");
    if (seat === mySeat()) row.className = "me";
    for (const text of [placeName(place), seatName(seat), `+${result.points[seat]}`, String(result.totals[seat])]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    // The cards each player still held when the round ended (the round is over: nothing is hidden).
    const left = document.createElement("td");
    left.className = "th-left";
    const cards = remaining?.[seat] ?? [];
    left.append(...cards.map(miniCard));
    if (cards.length) left.setAttribute("aria-label", cardsLabel(cards));
    row.append(left);
    return row;
  });
  resultDialog.querySelector('[data-role="result-table"] tbody').replaceChildren(...rows);
  // The round is over: every hand as it was dealt, and every trick, may be looked at (issue 53).
  const dealt = view.last_round?.dealt;
  resultDialog.querySelector('[data-role="dealt-section"]').hidden = !dealt;
  if (dealt) {
    resultDialog.querySelector('[data-role="dealt"]').replaceChildren(...dealt.map((cards, seat) => {
      const row = document.createElement("li");
      const who = document.createElement("span");
      who.className = "th-dealt-seat";
      who.textContent = seatName(seat);
      const hand = document.createElement("span");
      hand.className = "th-left";
      hand.append(...cards.map(miniCard));
      hand.setAttribute("aria-label", cardsLabel(cards));
      row.append(who, hand);
      return row;
    }));
    resultDialog.querySelector('[data-role="ended-tricks"]').replaceChildren(...historyItems(view.last_round.tricks ?? []));
  }
  renderComparison();
  const me = mySeat();
  resultDialog.querySelector('[data-action="continue"]').hidden = over || (TABLE && me === null);
  const newButton = resultDialog.querySelector('[data-action="new"]');
  if (newButton) newButton.hidden = !over;
  const rematch = resultDialog.querySelector('[data-action="rematch"]');
  // Anyone seated may deal again (the host may have left); everyone may go back to the tables.
  if (rematch) rematch.hidden = QUICK || !(over && me !== null);
  const leave = resultDialog.querySelector('[data-role="leave-table"]');
  if (leave) leave.hidden = !over;
  // Once the match is over its hands are public: a person who played it may review their decisions.
  const reviewLink = resultDialog.querySelector('[data-role="review"]');
  const reviewed = TABLE ? view.tables?.match : currentGame;
  // A daily match's review waits for the day's end with its code (fairness.later).
  reviewLink.hidden = !(over && me !== null && reviewed && !view.fairness?.later);
  if (reviewed) reviewLink.href = `/thirteen/review/${encodeURIComponent(reviewed)}`;
  const readyNote = resultDialog.querySelector('[data-role="ready-note"]');
  readyNote.textContent = TABLE && !over && me !== null && view.tables.seats[me]?.ready
    ? T("Waiting for the others…") : "";
  resultDialog.classList.toggle("is-final", over);
  if (!resultDialog.open) {
    const typing = document.activeElement === commandForm?.querySelector("input");
    resultDialog.show(); // (which focuses the window's first control)
    // The round's end is where play goes on: the focus is on the window's first button, unless the
    // player is typing in the command box (where "next" goes on).
    if (typing) commandForm.querySelector("input").focus();
    else [...resultDialog.querySelectorAll(".th-dialog-buttons .button")].find((b) => !b.hidden)?.focus();
  }
}

function render() {
  if (!view) return;
  table.dataset.version = String(live?.version ?? ""); // the event this view follows (tests wait on it)
  table.dataset.seat = String(mySeat() ?? ""); // the seat this page plays from ("" watching)
  const phase = view.tables?.phase ?? "playing";
  const started = table.dataset.phase === "gathering" && phase === "playing";
  table.dataset.phase = phase;
  renderSeats();
  if (TABLE) renderTable();
  renderTarget();
  renderDaily();
  if (!inMatch()) {
    renderControls();
    return;
  }
  renderPile();
  renderTrick();
  renderHand();
  renderControls();
  renderScores();
  renderResult();
  if (started) bringTableIntoView(); // measured once the seating has made way for the hand
}

// --- a friends' table: seats, people, the host's tools, chat, timers -----------------------------

// When the game starts, the table comes back into view: on a phone the host pressed Start in the side
// box below the table. The page goes to its top when the header and the table fit the window together.
function bringTableIntoView() {
  const bounds = table.getBoundingClientRect();
  if (bounds.top >= 0 && bounds.bottom <= innerHeight) return;
  if (bounds.bottom + scrollY <= innerHeight) window.scrollTo(0, 0);
  else table.scrollIntoView({ block: "start" });
}

let turnDeadline = null; // performance.now() when the player to move runs out of time, or null

function turnLeft() {
  if (turnDeadline === null) return null;
  return Math.max(0, Math.ceil((turnDeadline - performance.now()) / 1000));
}

function renderSeatName(root, seat) {
  root.querySelector('[data-role="name"]').textContent = seatName(seat);
  const presence = root.querySelector('[data-role="presence"]');
  const entry = view.tables?.seats?.[seat];
  if (!presence) return;
  if (entry?.kind === "bot") {
    presence.hidden = false;
    presence.textContent = strengthName(entry);
    presence.className = "th-presence";
    return;
  }
  if (!entry || entry.kind !== "person" || seat === mySeat()) {
    presence.hidden = true;
    return;
  }
  presence.hidden = false;
  presence.textContent = entry.computer ? fill(T("A computer player is playing for {name}."), { name: entry.name })
    : entry.connected ? T("Connected") : T("Away");
  presence.className = `th-presence ${entry.connected ? "is-connected" : "is-away"}`;
}

function seatButton(label, action) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "button";
  button.textContent = label;
  // An action may be made at the click (a seat taken with the name typed by then); null sends nothing.
  button.addEventListener("click", () => {
    const made = typeof action === "function" ? action() : action;
    if (made) send(made);
  });
  return button;
}

function renderTable() {
  const tables = view.tables;
  const me = mySeat();
  const host = !QUICK && tables.host !== null && tables.host === me;
  // The seating: shown while the table gathers its players (and to a page that has no seat yet).
  const gathering = tables.phase === "gathering";
  seatingEl.hidden = !gathering;
  table.classList.toggle("is-gathering", gathering);
  if (gathering) {
    const list = seatingEl.querySelector('[data-role="seating-list"]');
    list.replaceChildren(...tables.seats.map((entry, seat) => {
      const item = document.createElement("li");
      item.className = `th-seating-seat is-${entry.kind}`;
      const name = document.createElement("span");
      name.className = "th-seating-name";
      name.textContent = seatName(seat) + (tables.host === seat ? ` · ${T("Host")}` : "");
      item.append(name);
      if (entry.kind === "empty" && me === null) {
        item.append(seatButton(T("Sit here"), () => {
          const name = askName();
          const agreed = seatingEl.querySelector('[data-role="agree-rated"]').checked;
          if (name && tables.settings.rated && !agreed) {
            say(T("This table is rated: agree that your rounds count for your rating to sit here."));
            return null;
          }
          if (name) return tables.settings.rated ? { type: "sit", seat, name, agree_rated: true } : { type: "sit", seat, name };
          // No name typed: ask for one, rather than seating "Player 2" without a word.
          seatingEl.querySelector('[data-role="seat-name-error"]').hidden = false;
          seatingEl.querySelector('[data-role="seat-name"]').focus();
          return null;
        }));
      }
      if (entry.kind === "empty" && host) {
        item.append(seatButton(T("Add a computer player"), { type: "add_bot", seat, strength: botStrength() }));
      }
      if (entry.kind === "bot" && host) item.append(seatButton(T("Remove"), { type: "remove_bot", seat }));
      if (host) item.append(seatButton(T("Swap with the next seat"), { type: "swap", a: seat, b: (seat + 1) % 4 }));
      if (seat === me && !host) item.append(seatButton(T("Leave this seat"), { type: "stand" }));
      return item;
    }));
    seatingEl.querySelector('[data-role="seating-note"]').textContent = statusText();
    seatingEl.querySelector('[data-role="seat-name-field"]').hidden = me !== null;
    seatingEl.querySelector('[data-role="agree-rated-field"]').hidden = me !== null || !tables.settings.rated;
  }
  // The side box: who is here, and the host's buttons.
  const people = document.querySelector('[data-role="people"]');
  people.replaceChildren(...tables.seats.map((entry, seat) => {
    const item = document.createElement("li");
    const parts = [seatName(seat)];
    if (tables.host === seat) parts.push(T("Host"));
    if (entry.kind === "bot") parts.push(strengthName(entry));
    if (entry.kind === "person" && seat !== me) parts.push(entry.computer ? T("Computer") : entry.connected ? T("Connected") : T("Away"));
    item.textContent = parts.join(" · ");
    item.className = entry.kind === "person" && !entry.connected ? "is-away" : "";
    if (entry.kind === "person" && seat !== me) item.append(...personTools(seat, entry));
    return item;
  }));
  document.querySelector('[data-role="host-tools"]').hidden = !host;
  const start = document.querySelector('.th-side [data-action="start"]');
  start.hidden = !(host && gathering);
  start.disabled = tables.seats.some((entry) => entry.kind === "empty");
  // Anyone seated may ask for the rematch: the host may have gone home (a public table deals on itself).
  document.querySelector('.th-side [data-action="rematch"]').hidden = QUICK || !(tables.phase === "over" && me !== null);
  if (QUICK) renderQuick(tables, me);
  // The score table's heads follow the seats' names.
  const heads = scoresEl.tHead.rows[0].cells;
  for (let seat = 0; seat < 4; seat += 1) heads[seat + 1].textContent = seatName(seat);
  // Chat: at a seat only; typed text when the table allows it.
  const chatButton = document.querySelector('[data-action="chat"]');
  chatButton.hidden = me === null;
  chatEl.querySelector('[data-role="chat-text"]').hidden = !tables.settings.free_text;
  if (me === null) chatEl.hidden = true;
  turnDeadline = tables.turn_left === null ? null : performance.now() + tables.turn_left * 1000;
}

// Beside another person: mute their chat for oneself, and report their name (hidden here at once).
function personTools(seat, entry) {
  const mute = document.createElement("button");
  mute.type = "button";
  mute.className = "button th-person-tool";
  const key = `${seat}:${entry.name}`;
  mute.textContent = muted.has(key) ? T("Unmute") : T("Mute");
  mute.setAttribute("aria-pressed", String(muted.has(key)));
  mute.addEventListener("click", () => {
    if (muted.has(key)) muted.delete(key); else muted.add(key);
    localStorage.setItem(MUTED_KEY, JSON.stringify([...muted]));
    render();
  });
  const tools = [mute];
  if (!hiddenNames.has(entry.name)) {
    const report = document.createElement("button");
    report.type = "button";
    report.className = "button th-person-tool";
    report.textContent = T("Report name");
    report.addEventListener("click", async () => {
      try {
        const response = await fetch(`/api/tables/${encodeURIComponent(TABLE.id)}/report?lang=${boot.lang}`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ seat }),
        });
        const answer = await response.json();
        if (!response.ok) {
          say(answer.message);
          return;
        }
        hiddenNames.add(answer.name);
        localStorage.setItem("parlour.hiddenNames", JSON.stringify([...hiddenNames]));
        say(T("Name reported: it is hidden for you."));
        render();
      } catch {
        say(T("Connection lost: reconnecting…"));
      }
    });
    tools.push(report);
  }
  return tools;
}

// A public table's own tools: what kind of table it is, the seat claimed for the next round, taking a
// computer player's seat (a watcher) and leaving the table (a person seated).
function renderQuick(tables, me) {
  document.querySelector('[data-role="quick-tools"]').hidden = false;
  document.querySelector('[data-role="quick-kind"]').textContent = TABLE.rated
    ? T("Rated table: every round counts for your rating.")
    : T("Public table: the site deals, and computer players hold the free seats.");
  if (me !== null) claimSeat = null;
  const waiting = me === null && claimSeat !== null;
  document.querySelector('[data-role="claim-note"]').textContent = waiting
    ? fill(T("You take seat {seat} at the next round."), { seat: claimSeat + 1 }) : "";
  document.querySelector('[data-action="take-seat"]').hidden =
    me !== null || waiting || !tables.seats.some((entry) => entry.kind === "bot");
  document.querySelector('[data-action="leave-quick"]').hidden = me === null;
}

function installQuickTools() {
  document.querySelector('[data-action="take-seat"]').addEventListener("click", async () => {
    try {
      const response = await fetch(`/api/tables/${encodeURIComponent(TABLE.id)}/claim?lang=${boot.lang}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      });
      const answer = await response.json();
      if (!response.ok) {
        say(answer.message);
        return;
      }
      claimSeat = answer.seat;
      if (answer.seated) live.rejoin();
      render();
    } catch {
      say(T("Connection lost: reconnecting…"));
    }
  });
  document.querySelector('[data-action="leave-quick"]').addEventListener("click", async () => {
    await send({ type: "leave" });
    location.assign("/thirteen/tables");
  });
}

// The name typed above the seats (kept in this browser for the next table).
function askName() {
  const input = seatingEl.querySelector('[data-role="seat-name"]');
  const name = input.value.trim();
  if (name) seatingEl.querySelector('[data-role="seat-name-error"]').hidden = true;
  if (name) localStorage.setItem("parlour.name", name);
  return name;
}

function botStrength() {
  return document.querySelector('[data-role="bot-strength"]')?.value ?? "heuristic";
}

function showBubble(seat, text) {
  const root = table.querySelector(`[data-seat="${position(seat)}"]`);
  const bubble = root?.querySelector('[data-role="bubble"]');
  if (!bubble) return;
  bubble.textContent = text; // text, never markup: what a person typed is shown as typed
  bubble.hidden = false;
  clearTimeout(bubble.timer);
  bubble.timer = setTimeout(() => { bubble.hidden = true; }, 4000);
}

// The table's own controls: chat, the copy-link button, the host's Start and Rematch, the timer.
function installTableTools() {
  if (!chatEl) return;
  const nameInput = seatingEl.querySelector('[data-role="seat-name"]');
  if (!nameInput.value) nameInput.value = localStorage.getItem("parlour.name") ?? "";
  const phrases = chatEl.querySelector('[data-role="chat-phrases"]');
  const choices = [...PHRASES, ...(boot.emoji ?? []).map((emoji) => [emoji, emoji])];
  phrases.replaceChildren(...choices.map(([key, text]) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button th-phrase";
    button.textContent = text;
    button.addEventListener("click", () => {
      send({ type: "chat", phrase: key });
      chatEl.hidden = true;
    });
    return button;
  }));
  const toggle = document.querySelector('[data-action="chat"]');
  toggle.addEventListener("click", () => {
    chatEl.hidden = !chatEl.hidden;
    toggle.setAttribute("aria-expanded", String(!chatEl.hidden));
  });
  chatEl.querySelector('[data-role="chat-text"]').addEventListener("submit", (event) => {
    event.preventDefault();
    const input = event.target.elements.text;
    const text = input.value.trim();
    if (text) send({ type: "chat", text });
    input.value = "";
    chatEl.hidden = true;
  });
  document.querySelector('[data-action="copy-link"]').addEventListener("click", async () => {
    const link = new URL(TABLE.url, location.origin).href;
    const out = document.querySelector('[data-role="copy-result"]');
    try {
      await navigator.clipboard.writeText(link);
      out.textContent = T("Link copied.");
    } catch {
      out.textContent = link; // no clipboard here (an insecure origin): show the link to copy by hand
    }
  });
  for (const button of document.querySelectorAll('[data-action="start"], [data-action="rematch"]')) {
    button.addEventListener("click", () => {
      if (resultDialog.open) resultDialog.close();
      send({ type: button.dataset.action });
    });
  }
  setInterval(() => { if (turnDeadline !== null && inMatch()) renderSeats(); }, 1000);
}

// --- talking to the server -----------------------------------------------------------------------

function say(message) {
  note = message;
  renderControls();
}

let inflight = false;
let queued = null; // the newest action asked for while another was on its way

async function send(action) {
  if (!live) return;
  if (inflight) {
    queued = action;
    return;
  }
  inflight = true;
  try {
    const reply = await live.act(action);
    if (reply?.seat_token && SEAT_KEY) localStorage.setItem(SEAT_KEY, reply.seat_token);
  } catch {
    say(T("Connection lost: reconnecting…"));
  } finally {
    inflight = false;
  }
  const next = queued;
  queued = null;
  if (!next) return;
  if (next.type === "select") {
    // The raised cards may have been played or changed meanwhile: ask about what is raised now.
    if (myTurn() && selection.size > 0) send({ type: "select", cards: [...selection] });
  } else {
    send(next); // a play, a pass, a chat line, the next round: sent as asked (the server judges it)
  }
}

function onEvent(message) {
  const before = view;
  view = message.view;
  const data = message.data || {};
  tell(before, message);
  // A claimed seat handed over at this round: the page joins again, from its seat now.
  if (QUICK && claimSeat !== null && (data.handed_over ?? []).includes(claimSeat)) {
    claimSeat = null;
    live.rejoin();
  }
  const rating = data.ratings?.[String(mySeat())];
  if (rating !== undefined) {
    const ratingNote = resultDialog.querySelector('[data-role="rating-note"]');
    ratingNote.textContent = fill(T("Your rating: {rating}"), { rating: rating.toLocaleString(boot.lang) });
    ratingNote.hidden = false;
  }
  const mutedSeat = view?.tables?.seats?.[data.seat];
  if (message.name === "chat" && mutedSeat && muted.has(`${data.seat}:${mutedSeat.name}`)) {
    // a muted person's phrase is not shown
  } else if (message.name === "chat") {
    showBubble(data.seat, data.text ?? PHRASES.get(data.phrase) ?? data.phrase);
  } else if (message.name === "started") {
    note = null;
    selection.clear();
    if (resultDialog.open) resultDialog.close();
    sound("deal");
  } else if (message.name === "play") {
    lastPlay = { seat: data.seat, cards: data.cards };
    if (data.bomb) bombCallout();
    sound(data.bomb ? "bomb" : data.winners ? "win" : "play");
    if (data.seat === mySeat()) selection.clear();
    note = null;
  } else if (message.name === "pass") {
    note = null;
    if (data.seat === mySeat()) selection.clear();
  } else if (message.name === "selection") {
    table.dataset.verdict = data.verdict; // what the server made of the raised cards (tests wait on it)
    note = data.verdict === "wait" ? T("Press Play to play these cards, or add more.")
      : boot.reasons?.[data.reason] ?? T("These cards cannot be played now.");
    if (data.verdict !== "wait") {
      shake();
      eventLog.add(note);
    }
  } else if (message.name === "next_round") {
    note = null;
    selection.clear();
  }
  render();
}

function shake() {
  for (const el of handEl.querySelectorAll(".selected")) {
    el.classList.remove("shake");
    void el.offsetWidth;
    el.classList.add("shake");
  }
}

let currentGame = null; // the match's record id (a player's own match; a table's comes in its view)

function connect(gameId) {
  if (live) live.close();
  currentGame = TABLE ? null : gameId;
  view = null;
  selection.clear();
  note = null;
  lastPlay = null;
  pileEl.dataset.cards = "";
  const options = { lang: boot.lang };
  if (TABLE) {
    options.path = `/ws/table/${encodeURIComponent(TABLE.id)}`;
    options.hello = () => ({ seat_token: localStorage.getItem(SEAT_KEY) });
  }
  live = new LiveGame(gameId, {
    onState(state) {
      view = state;
      note = null;
      render();
    },
    onEvent,
    onError(message) {
      if (message.code === "bad_seat_token" && SEAT_KEY) {
        // A token that is no seat's here (the seat was given up, or another table's): watch from the
        // lobby instead, and say why.
        localStorage.removeItem(SEAT_KEY);
        live.rejoin();
      }
      say(message.message);
      eventLog.add(message.message);
      shake();
    },
    onStatus(status) {
      if (table.dataset.connection === "ended") return;
      table.dataset.connection = status;
      // An unavailable table's message stays up while the page waits to try again.
      const unavailable = T("The table cannot be reached just now: trying again…");
      if (status === "closed" && note !== unavailable) say(T("Connection lost: reconnecting…"));
      if (status === "open" && note === T("Connection lost: reconnecting…")) note = null;
    },
    onRefused() {
      say(T("This game cannot be opened here. Start a new game."));
    },
    onUnavailable(message) {
      say(message.message);
    },
    onEnded() {
      table.dataset.connection = "ended";
      say(T("This game was ended in another window or tab. Reload the page to go on."));
    },
  }, options);
}

// --- the keyboard and the screen-reader mode -------------------------------------------------------

const eventLog = new EventLog(document.querySelector('[data-role="event-log"]'));
const announcer = document.querySelector('[data-role="announcer"]');
const commandForm = document.querySelector('[data-role="command"]');
installKeysDialog(document.getElementById("th-keys"));

// A short answer read out at once (a question's, a refused command's), without moving the focus.
const answer = (words) => announce(announcer, words);

function handWords(cards) {
  return cards.length ? fill(T("Your hand: {cards}."), { cards: cardsLabel(cards) }) : T("Your hand is empty.");
}

// The sentences of one event for the log, in order: who played what, who passed, a trick won, who went
// out, a new round, whose turn it is now. `before` is the view before the event.
function tell(before, message) {
  const data = message.data || {};
  const name = message.name;
  if (name === "started" || name === "next_round") {
    if (view?.hand) eventLog.add(`${T("New round.")} ${handWords(view.hand)}`);
  } else if (name === "play") {
    const combo = comboName(comboOf(data.cards ?? []));
    const cards = cardsLabel(data.cards ?? []);
    eventLog.add(data.seat === mySeat()
      ? fill(T("You play {combo}: {cards}."), { combo, cards })
      : fill(T("{name} plays {combo}: {cards}."), { name: seatName(data.seat), combo, cards }));
    if (data.bomb) eventLog.add(T("Bomb!"));
  } else if (name === "pass") {
    eventLog.add(data.seat === mySeat() ? T("You pass.") : fill(T("{name} passes."), { name: seatName(data.seat) }));
  } else if (name === "chat") {
    const text = data.text ?? PHRASES.get(data.phrase) ?? data.phrase;
    if (text) eventLog.add(fill(T("{name} says: {text}"), { name: seatName(data.seat), text }));
  }
  if (!view || !Array.isArray(view.hand) || !before || !Array.isArray(before.hand)) return;
  for (const seat of view.finished ?? []) {
    if (!(before.finished ?? []).includes(seat) && !view.between_rounds) {
      eventLog.add(fill(T("{name} is out: {place}."), { name: seatName(seat), place: placeName(view.finished.indexOf(seat)) }));
    }
  }
  if (view.between_rounds || view.winners.length) {
    if (!before.between_rounds && !before.winners.length) eventLog.add(`${statusText()} ${pointsWords()}`);
    return;
  }
  const cleared = (before.table?.cards?.length ?? 0) > 0 && !(view.table?.cards?.length);
  if (cleared && (name === "play" || name === "pass")) {
    eventLog.add(view.turn === mySeat() ? T("The table is empty: you lead.") : fill(T("The table is empty: {name} leads."), { name: seatName(view.turn) }));
  }
  if (myTurn() && (name === "play" || name === "pass" || name === "started" || name === "next_round")) {
    eventLog.add(statusText());
  }
}

// The kind of a play the server accepted, from its cards alone (the play that ends a round leaves no
// combination on the table to read it from): n of one rank, pairs in a row, or a sequence.
function comboOf(cards) {
  const counts = new Map();
  for (const code of cards) counts.set(code[0], (counts.get(code[0]) ?? 0) + 1);
  if (!cards.length) return null;
  if (counts.size === 1) return { kind: ["single", "pair", "triple", "quad"][cards.length - 1], n: cards.length };
  if ([...counts.values()].every((count) => count === 2)) return { kind: "double_sequence", n: counts.size };
  return { kind: "sequence", n: cards.length };
}

function pointsWords() {
  const parts = [0, 1, 2, 3].map((seat) => `${labelled(seatName(seat))} ${view.scores[seat]}`);
  return `${labelled(T("Points"))} ${parts.join("; ")}.`;
}

// What the asking keys read: the table, the hand, the cards each seat holds, the last trick, the
// points, whose turn it is, the time left.
// A trick's steps in words: "West: 7 of hearts. North passes."
function stepsWords(steps) {
  return steps.map((step) => step.pass ? fill(T("{name} passes."), { name: seatName(step.seat) })
    : `${labelled(seatName(step.seat))} ${cardsLabel(step.cards)}.`).join(" ");
}

function tableWords() {
  if (!inMatch()) return statusText();
  const steps = view.trick ?? [];
  if (!steps.length) return pileLabel.textContent || T("The table is empty.");
  return stepsWords(steps);
}

const QUESTIONS = {
  t: tableWords,
  h: () => (inMatch() ? handWords(view.hand) : statusText()),
  c: () => (inMatch()
    ? [0, 1, 2, 3].map((seat) => `${labelled(seatName(seat))} ${boot.cardCounts[view.hand_counts[seat]]}`).join("; ") + "."
    : statusText()),
  l: () => {
    const last = view?.last_trick ?? [];
    if (!last.length) return T("There is no last trick yet.");
    return `${labelled(T("Last trick"))} ${stepsWords(last)}`;
  },
  s: () => (inMatch() ? pointsWords() : statusText()),
  w: statusText,
  i: () => {
    const left = turnLeft();
    if (left === null || !inMatch()) return T("There is no clock on this turn.");
    return fill(T("{seconds} s left for {name}."), { seconds: left, name: seatName(view.turn) });
  },
};

// One card of the hand can be reached with Tab; the arrows move along the hand from it.
function rovingFocus() {
  const cards = [...handEl.children];
  const current = cards.includes(document.activeElement) ? document.activeElement : null;
  cards.forEach((el, index) => { el.tabIndex = (current ? el === current : index === 0) ? 0 : -1; });
}

handEl.addEventListener("focusin", rovingFocus);

handEl.addEventListener("keydown", (event) => {
  const cards = [...handEl.children];
  const index = cards.indexOf(document.activeElement);
  const target = {
    ArrowRight: index + 1, ArrowDown: index + 1, ArrowLeft: index - 1, ArrowUp: index - 1,
    Home: 0, End: cards.length - 1,
  }[event.key];
  if (target === undefined || !cards.length) return;
  event.preventDefault();
  cards[(target + cards.length) % cards.length].focus();
});

// Play and Pass, from their buttons or their keys (a key says why when it cannot act; a button is
// disabled then).
function playRaised() {
  if (myTurn() && selection.size > 0) send({ type: "play", cards: [...selection] });
  else answer(statusText());
}

function passTurn() {
  if (view?.can_pass && inMatch()) send({ type: "pass" });
  else answer(statusText());
}

function lowerAll() {
  if (!selection.size) return;
  selection.clear();
  selectionChanged();
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement
    || event.target instanceof HTMLSelectElement;
  if (typing || document.querySelector("dialog[open]:modal")) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (QUESTIONS[key]) answer(QUESTIONS[key]());
  else if (key === "p") playRaised();
  else if (key === "x") passTurn();
  else if (key === "r" && !table.querySelector('[data-action="round-history"]').hidden) {
    showRoundHistory(table.querySelector('[data-role="round-history"]').hidden);
  } else if (key === "Escape" && selection.size) lowerAll();
  else if (key === "/") commandForm?.querySelector("input").focus();
  else if (key === "m" && chatEl && !document.querySelector('[data-action="chat"]').hidden) {
    document.querySelector('[data-action="chat"]').click();
    chatEl.querySelector("button, input")?.focus();
  } else return;
  event.preventDefault();
});

// The command box: cards to play ("3♠ 4♠ 5♠", "3s 4s 5s", "play 3s"), or pass. A command becomes the
// action a click makes: the server checks it the same way, and a refusal is its reason, read out.
const PLAY_WORDS = saidAs("play", T);
const PASS_WORDS = saidAs("pass", T);
const NEXT_WORDS = saidAs("next", T).add("continue");

function runCommand(text) {
  const words = commandWords(text);
  if (!words.length) return T("Type cards such as 3♠ 4♠ 5♠ (or 3s 4s 5s) to play them, or pass.");
  const first = words[0].toLowerCase();
  const whole = words.join(" ").toLowerCase(); // a command word may be two ("bỏ lượt")
  if (NEXT_WORDS.has(whole)) {
    if (!inMatch() || !view.between_rounds || resultDialog.querySelector('[data-action="continue"]').hidden) return statusText();
    resultDialog.close();
    send({ type: "continue" });
    return null;
  }
  if (PASS_WORDS.has(whole)) {
    if (!inMatch() || !view.can_pass) return statusText();
    send({ type: "pass" });
    return null;
  }
  const cardWords = PLAY_WORDS.has(first) ? words.slice(1) : words;
  if (!cardWords.length) return T("Type cards such as 3♠ 4♠ 5♠ (or 3s 4s 5s) to play them, or pass.");
  const cards = [];
  for (const word of cardWords) {
    const code = readCard(word, boot.rankLetters);
    if (!code) return fill(T("Not a card: “{word}”. Write a card as 3♠ or 3s."), { word });
    if (!inMatch() || !view.hand.includes(code)) return fill(T("You do not hold {card}."), { card: cardName(code) });
    if (!cards.includes(code)) cards.push(code);
  }
  if (!myTurn()) return statusText();
  selection = new Set(cards);
  renderHand();
  send({ type: "play", cards });
  return null;
}

commandForm?.addEventListener("submit", (event) => {
  event.preventDefault();
  const input = commandForm.querySelector("input");
  const problem = runCommand(input.value);
  if (problem) {
    eventLog.add(problem);
    answer(problem);
  } else {
    input.value = "";
  }
  input.focus(); // the focus stays where the player types
});

// --- the person's actions ------------------------------------------------------------------------

// Selecting: a click (or tap) raises or lowers one card; pressing on a card and sliding across others
// gives them all the state the first card took. The selection goes to the server when the press ends.
let dragging = null;

function selectionChanged() {
  note = null;
  delete table.dataset.verdict;
  renderHand();
  renderControls();
  if (myTurn() && selection.size > 0) send({ type: "select", cards: [...selection] });
}

function setCard(el, raised) {
  const code = el.dataset.card;
  if (raised) selection.add(code);
  else selection.delete(code);
  el.classList.toggle("selected", raised);
}

handEl.addEventListener("pointerdown", (event) => {
  const el = event.target.closest(".card");
  if (!el || !view || event.button > 0) return;
  dragging = { raise: !selection.has(el.dataset.card), moved: false, start: el };
  setCard(el, dragging.raise);
  handEl.releasePointerCapture?.(event.pointerId);  // let the cards under the finger get the events
  event.preventDefault();
});

handEl.addEventListener("pointerover", (event) => {
  if (!dragging) return;
  const el = event.target.closest(".card");
  if (!el || el === dragging.start) return;
  dragging.moved = true;
  setCard(el, dragging.raise);
});

document.addEventListener("pointerup", () => {
  if (!dragging) return;
  dragging = null;
  selectionChanged();
});

handEl.addEventListener("keydown", (event) => {
  const el = event.target.closest(".card");
  if (!el || !view || (event.key !== "Enter" && event.key !== " ")) return;
  event.preventDefault();
  setCard(el, !selection.has(el.dataset.card));
  selectionChanged();
});

playButton.addEventListener("click", playRaised);
passButton.addEventListener("click", passTurn);

resultDialog.querySelector('[data-action="verify"]').addEventListener("click", () => verifyDeal());
resultDialog.querySelector('[data-action="continue"]').addEventListener("click", () => {
  resultDialog.close();
  send({ type: "continue" });
  handEl.focus(); // back to the hand, where the next round's cards come
});

for (const button of newDialog ? document.querySelectorAll('[data-action="new"]') : []) {
  button.addEventListener("click", () => {
    if (resultDialog.open) resultDialog.close();
    newDialog.querySelector('[data-role="new-error"]').textContent = "";
    newDialog.showModal();
  });
}
newDialog?.querySelector('[data-action="cancel"]').addEventListener("click", () => newDialog.close());

newDialog?.querySelector('[data-role="new-form"]').addEventListener("submit", async (event) => {
  event.preventDefault();
  const code = new FormData(event.target).get("code").trim();
  const options = { strength: setting("strength"), speed: setting("speed") };
  if (code) options.code = code;
  const response = await fetch(`/api/games/thirteen?lang=${boot.lang}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(options),
  });
  const answer = await response.json();
  if (!response.ok) {
    newDialog.querySelector('[data-role="new-error"]').textContent = answer.message;
    return;
  }
  newDialog.close();
  connect(answer.game);
});

function setting(name) {
  return document.querySelector(`[data-setting="${name}"]`).value;
}

for (const select of document.querySelectorAll("[data-setting]")) {
  select.addEventListener("change", async () => {
    const response = await fetch(`/api/thirteen/settings?lang=${boot.lang}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ [select.dataset.setting]: select.value }),
    });
    if (!response.ok) say((await response.json()).message);
  });
}

document.querySelector('[data-role="sound"]').addEventListener("change", (event) => {
  setSound(event.target.checked);
  fetch("/api/preferences", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ sound: event.target.checked }),
  });
});

installCardDefs();
setRankLetters(boot.rankLetters);
setSound(boot.sound);
if (TABLE) installTableTools();
if (QUICK) installQuickTools();
// A visitor who is not a player yet gets the match page without a match, and a table's page without a
// player: the first request that needs one (dealing the match; joining the table's socket, which seats
// and chat need) makes the player, so that a page view makes nobody. A refusal that can pass (too many
// new players from one address, a server away) is tried again after the wait the server asks for.
async function startWithoutPlayer() {
  const url = TABLE ? `/api/player?lang=${boot.lang}` : `/api/games/thirteen?lang=${boot.lang}`;
  const body = TABLE ? {} : { strength: setting("strength"), speed: setting("speed") };
  let wait = 2;
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (response.ok) {
      boot.player = true;
      connect(TABLE ? TABLE.id : answer.game);
      return;
    }
    wait = Math.max(wait, answer.retry_after ?? 0);
    say(answer.message);
  } catch {
    say(T("Connection lost: reconnecting…"));
  }
  setTimeout(startWithoutPlayer, wait * 1000);
}

if (!boot.player) startWithoutPlayer();
else connect(TABLE ? TABLE.id : boot.game);
