// The review of a finished TriPeaks game: the board at every position, stepped through with ←/→, the
// slider or the list of moves; and the shortest win from before the move that lost the game. Every
// position comes from the server (the page knows no rule); the game is over, so its cards may show.
"use strict";

import { cardBack, cardFace, installCardDefs, setRankLetters } from "./cards.js";

const data = JSON.parse(document.getElementById("review-data").textContent);
const review = data.review;
const T = (key) => data.texts[key] ?? key;
const labelled = (label) => (data.label ?? "{label}:").replace("{label}", label);
const $ = (id) => document.getElementById(id);
const ROW_DY = 0.73;

installCardDefs();
setRankLetters(data.rankLetters);

const board = $("board");
const slots = [];
for (let p = 0; p < 28; p++) {
  const element = document.createElement("div");
  element.className = "card-slot";
  element.setAttribute("role", "img");
  element.style.setProperty("--x", data.slots[p][0]);
  element.style.setProperty("--y", data.slots[p][1] * ROW_DY);
  element.style.zIndex = String(data.slots[p][1] + 1);
  board.appendChild(element);
  slots.push(element);
}

const positions = review.positions;
const linePositions = review.line_positions ?? [];
const lostAt = review.first_losing_move;  // the move (1-based) after which the game could not be won
let showingLine = false;
let step = 0;

function draw(position) {
  for (let p = 0; p < 28; p++) {
    const element = slots[p];
    element.hidden = position.removed[p] === "1";
    const up = position.up[p] === "1";
    const code = review.deal.tableau[p];
    const key = up ? code : "back";
    if (element.dataset.shown !== key) {
      element.dataset.shown = key;
      element.innerHTML = up ? cardFace(code) : cardBack();
    }
    element.classList.toggle("face-down", !up);
    element.setAttribute("aria-label", up ? code : T("hidden card"));
  }
  const stock = $("stock");
  const layers = Math.min(3, Math.ceil(position.stock / 8));
  stock.querySelector(".pile-cards").innerHTML =
    Array.from({ length: layers }, () => `<span class="pile-card">${cardBack()}</span>`).join("");
  $("stock-count").textContent = String(position.stock);
  stock.setAttribute("aria-label", `${labelled(T("Draw pile"))} ${position.stock}`);
  const discard = $("discard");
  discard.querySelector(".pile-cards").innerHTML =
    position.discard ? `<span class="pile-card" style="--i:0">${cardFace(position.discard)}</span>` : "";
  discard.setAttribute("aria-label", `${labelled(T("Discard pile"))} ${position.discard ?? T("empty")}`);
}

// The shortest win is shown from the position before the losing move: its steps follow that position.
const lineStart = lostAt === null ? 0 : lostAt - 1;
const count = () => (showingLine ? linePositions.length : positions.length - 1);

function show(next) {
  step = Math.max(0, Math.min(count(), next));
  const slider = $("slider");
  slider.max = String(count());
  slider.value = String(step);
  if (showingLine) {
    draw(step === 0 ? positions[lineStart] : linePositions[step - 1]);
    const moves = data.line.slice(0, step).join(" ");  // in the page's language, not the engine's codes
    $("step-text").textContent = `${labelled(T("Show the shortest win"))} ${step}/${count()} ${moves}`;
  } else {
    draw(positions[step]);
    $("step-text").textContent = data.steps[step];
  }
  $("previous").disabled = step === 0;
  $("next").disabled = step === count();
  for (const item of document.querySelectorAll("#moves li")) {
    item.toggleAttribute("aria-current", !showingLine && Number(item.dataset.step) === step);
  }
}

const list = $("moves");
review.moves.forEach((move, index) => {
  const item = document.createElement("li");
  item.dataset.step = String(index + 1);
  const button = document.createElement("button");
  button.type = "button";
  button.className = "review-move";
  button.textContent = data.steps[index + 1];
  if (move.grade) item.dataset.grade = move.grade;
  if (move.index === lostAt) item.dataset.lost = "true";
  button.addEventListener("click", () => {
    if (showingLine) toggleLine();
    show(index + 1);
  });
  item.appendChild(button);
  list.appendChild(item);
});

function toggleLine() {
  showingLine = !showingLine;
  const button = $("best-line");
  button.setAttribute("aria-pressed", String(showingLine));
  button.textContent = showingLine ? T("Back to the game's moves") : T("Show the shortest win");
  show(showingLine ? 0 : lineStart);
}

$("previous").addEventListener("click", () => show(step - 1));
$("next").addEventListener("click", () => show(step + 1));
$("slider").addEventListener("input", (event) => show(Number(event.target.value)));
$("best-line")?.addEventListener("click", toggleLine);
document.addEventListener("keydown", (event) => {
  if (trying) return;  // trying a line: the review's keys wait
  if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
  if (event.key === "ArrowLeft") show(step - 1);
  else if (event.key === "ArrowRight") show(step + 1);
  else if (event.key === "Home") show(0);
  else if (event.key === "End") show(count());
  else return;
  event.preventDefault();
});

// Try again from here (issue 53): play on from the position shown, unranked, the solver's verdict after
// each move. The server replays the game to that point and the moves tried; nothing is kept, so going
// back is sending fewer moves.
const gameId = location.pathname.split("/").pop();
let trying = null;  // {at, moves}
const tryPanel = $("try-panel");

async function tryPosition() {
  const reply = await fetch(`/api/tripeaks/review/${gameId}/try`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ at: trying.at, moves: trying.moves }),
  });
  const answer = await reply.json();
  if (!reply.ok) {
    trying.moves.pop();
    $("try-verdict").textContent = answer.message ?? "";
    return;
  }
  draw(answer.position);
  $("try-verdict").textContent = answer.verdict.words;
  const buttons = answer.legal.map((move) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button";
    button.dataset.move = move;
    button.textContent = move === "draw" ? T("draw") : prettyMove(move);
    button.addEventListener("click", () => {
      trying.moves.push(move);
      tryPosition();
    });
    return button;
  });
  $("try-moves").replaceChildren(...buttons);
  $("try-undo").disabled = trying.moves.length === 0;
}

function prettyMove(code) {
  const suit = { S: "♠", C: "♣", D: "♦", H: "♥" }[code.slice(-1)] ?? "";
  return `${code.slice(0, -1).replace("T", "10")}${suit}`;
}

function startTrying() {
  trying = { at: showingLine ? lineStart : step, moves: [] };
  if (showingLine) toggleLine();
  tryPanel.hidden = false;
  for (const id of ["previous", "next", "slider", "try-here"]) $(id).disabled = true;
  tryPosition();
  $("try-title").focus?.();
}

function stopTrying() {
  trying = null;
  tryPanel.hidden = true;
  for (const id of ["slider", "try-here"]) $(id).disabled = false;
  show(step);
}

$("try-here").addEventListener("click", startTrying);
$("try-undo").addEventListener("click", () => {
  if (trying?.moves.length) {
    trying.moves.pop();
    tryPosition();
  }
});
$("try-back").addEventListener("click", stopTrying);

show(lostAt === null ? 0 : lostAt);
