// A TriPeaks puzzle (decision 0065): the position as a player sees it; a free card or the stock is the
// answer. The server judges it (the page knows neither the rules nor the hidden cards) and sends the
// solver's win from there, every position of it, to step through.
"use strict";

import { cardBack, cardFace, installCardDefs, setRankLetters } from "./cards.js";

const data = JSON.parse(document.getElementById("puzzle-data").textContent);
const T = (key) => data.texts[key] ?? key;
const labelled = (label) => (data.label ?? "{label}:").replace("{label}", label);
const $ = (id) => document.getElementById(id);
const ROW_DY = 0.73;

installCardDefs();
setRankLetters(data.rankLetters);

const board = $("board");
const slots = [];
let answered = false;
for (let p = 0; p < 28; p++) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = "card-slot";
  element.style.setProperty("--x", data.slots[p][0]);
  element.style.setProperty("--y", data.slots[p][1] * ROW_DY);
  element.style.zIndex = String(data.slots[p][1] + 1);
  element.addEventListener("click", () => {
    const code = element.dataset.card;
    if (code && !element.disabled) choose(code);
  });
  board.appendChild(element);
  slots.push(element);
}

function draw(view) {
  const free = new Set(view.free);
  for (let p = 0; p < 28; p++) {
    const element = slots[p];
    const code = view.places[p];
    element.hidden = code === null;
    if (code === null) continue;
    const up = code !== "back";
    if (element.dataset.shown !== code) {
      element.dataset.shown = code;
      element.innerHTML = up ? cardFace(code) : cardBack();
    }
    element.dataset.card = up ? code : "";
    element.classList.toggle("face-down", !up);
    element.classList.toggle("free", free.has(p));
    element.disabled = answered || !free.has(p);
    element.setAttribute("aria-label", up ? view.names[code] ?? code : T("hidden card"));
  }
  const stock = $("stock");
  const layers = Math.min(3, Math.ceil(view.stock / 8));
  stock.querySelector(".pile-cards").innerHTML =
    Array.from({ length: layers }, () => `<span class="pile-card">${cardBack()}</span>`).join("");
  $("stock-count").textContent = String(view.stock);
  stock.disabled = answered || view.stock === 0;
  stock.setAttribute("aria-label", `${labelled(T("Draw pile"))} ${view.stock}`);
  const discard = $("discard");
  discard.querySelector(".pile-cards").innerHTML =
    view.discard ? `<span class="pile-card" style="--i:0">${cardFace(view.discard)}</span>` : "";
  discard.setAttribute("aria-label", `${labelled(T("Discard pile"))} ${view.discard ? view.names[view.discard] ?? view.discard : T("empty")}`);
}

let positions = [];
let step = 0;

function showStep(next) {
  step = Math.max(0, Math.min(positions.length, next));
  draw(step === 0 ? data.board : positions[step - 1]);
  $("step-text").textContent = T("Step {step} of {count}").replace("{step}", String(step)).replace("{count}", String(positions.length));
  $("previous").disabled = step === 0;
  $("next").disabled = step === positions.length;
}

async function choose(move) {
  if (answered) return;
  const reply = await fetch(`/api/puzzles/tripeaks/${data.puzzle}/answer`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ move, mode: data.mode }),
  });
  const result = await reply.json();
  if (!reply.ok) {
    $("verdict").textContent = result.message ?? "";
    return;
  }
  answered = true;
  const section = document.querySelector(".puzzle");
  section.dataset.state = result.solved ? "solved" : "failed";
  const said = [result.solved ? T("Correct!") : T("Not this one. The move that keeps the deal winnable: {move}").replace("{move}", result.answer_name)];
  if (result.rated && result.rating.before && result.rating.after) {
    said.push(T("Your puzzle rating: {before} → {after}").replace("{before}", result.rating.before.rating).replace("{after}", result.rating.after.rating));
  }
  if (data.mode === "streak") {
    said.push(T("Streak: {n}").replace("{n}", String(result.streak)));
    if (!result.solved) $("next-puzzle").textContent = T("Try another streak");
  }
  $("verdict").textContent = said.join(" ");
  $("code").textContent = T("The deal: {code}").replace("{code}", result.code);
  positions = result.positions;
  $("after").hidden = false;
  showStep(1);
  $("next-puzzle").focus();
}

$("stock").addEventListener("click", () => choose("draw"));
$("previous").addEventListener("click", () => showStep(step - 1));
$("next").addEventListener("click", () => showStep(step + 1));
document.addEventListener("keydown", (event) => {
  if (!answered || event.target instanceof HTMLInputElement) return;
  if (event.key === "ArrowLeft") showStep(step - 1);
  else if (event.key === "ArrowRight") showStep(step + 1);
  else return;
  event.preventDefault();
});

draw(data.board);
