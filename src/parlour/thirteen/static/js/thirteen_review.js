// The review of a finished Thirteen match: the four hands and the table after every move, stepped
// through with ←/→, the slider or the list of moves, the reviewed seat's decisions graded. Every
// position comes from the server (the page knows no rule); the match is over, so every hand may show.
"use strict";

const data = JSON.parse(document.getElementById("review-data").textContent);
const review = data.review;
const positions = data.positions;
const $ = (id) => document.getElementById(id);
const SUITS = { S: "♠", C: "♣", D: "♦", H: "♥" };
const seats = [...document.querySelectorAll(".th-review-seat")];
let step = 0;

function miniCard(code) {
  const element = document.createElement("span");
  const red = code.endsWith("D") || code.endsWith("H");
  // suit-X: the suit's colour of the player's deck (two or four colours).
  element.className = `th-mini suit-${code.slice(-1)}${red ? " red" : ""}`;
  const letter = code.slice(0, -1);
  element.textContent = (letter === "T" ? "10" : data.rankLetters?.[letter] ?? letter) + SUITS[code.slice(-1)];
  return element;
}

function draw(position) {
  seats.forEach((element, seat) => {
    const hand = position.hands[seat];
    element.querySelector('[data-role="cards"]').replaceChildren(...hand.map(miniCard));
    element.querySelector('[data-role="count"]').textContent = `(${hand.length})`;
    element.toggleAttribute("data-moved", position.seat === seat);
    element.toggleAttribute("data-reviewed", review.seat === seat);
  });
  $("table-cards").replaceChildren(...position.table.map(miniCard));
}

function show(next) {
  step = Math.max(0, Math.min(positions.length - 1, next));
  const slider = $("slider");
  slider.max = String(positions.length - 1);
  slider.value = String(step);
  draw(positions[step]);
  $("step-text").textContent = data.steps[step];
  $("previous").disabled = step === 0;
  $("next").disabled = step === positions.length - 1;
  for (const item of document.querySelectorAll("#moves li")) {
    const current = Number(item.dataset.step) === step;
    item.toggleAttribute("aria-current", current);
    if (current) item.scrollIntoView?.({ block: "nearest" });
  }
}

const graded = new Map(review.decisions.map((decision) => [decision.index, decision]));
const list = $("moves");
review.steps.forEach((move, index) => {
  const item = document.createElement("li");
  item.dataset.step = String(index + 1);
  const decision = graded.get(move.index);
  if (decision) item.dataset.grade = decision.grade;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "review-move";
  button.textContent = data.steps[index + 1];
  button.addEventListener("click", () => show(index + 1));
  item.appendChild(button);
  list.appendChild(item);
});

$("previous").addEventListener("click", () => show(step - 1));
$("next").addEventListener("click", () => show(step + 1));
$("slider").addEventListener("input", (event) => show(Number(event.target.value)));
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
  if (event.key === "ArrowLeft") show(step - 1);
  else if (event.key === "ArrowRight") show(step + 1);
  else if (event.key === "Home") show(0);
  else if (event.key === "End") show(positions.length - 1);
  else return;
  event.preventDefault();
});

// The first decision the expert graded worst is where a player looks first; else the deal.
const worst = ["blunder", "mistake", "inaccuracy"]
  .map((grade) => review.decisions.find((decision) => decision.grade === grade))
  .find(Boolean);
show(worst ? review.steps.findIndex((move) => move.index === worst.index) + 1 : 0);
