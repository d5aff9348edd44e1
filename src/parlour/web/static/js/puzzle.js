// A puzzle of any game (decision 0065): the game's board module draws the position and reports the
// player's move; this script sends it to the server, says the verdict and the rating, and steps
// through the solution's positions. The page knows no rule: the server judges.
"use strict";

const data = JSON.parse(document.getElementById("puzzle-data").textContent);
const T = (key) => data.texts[key] ?? key;
const $ = (id) => document.getElementById(id);
let answered = false;
let positions = [];
let steps = [];
let step = 0;

const { mount } = await import(`/static/${data.boardScript}`);
const board = mount(data, choose);

function showStep(next) {
  step = Math.max(0, Math.min(positions.length, next));
  board.draw(step === 0 ? data.board : positions[step - 1], answered);
  const said = T("Step {step} of {count}").replace("{step}", String(step)).replace("{count}", String(positions.length));
  $("step-text").textContent = step === 0 ? said : `${said}: ${steps[step - 1]}`;
  $("previous").disabled = step === 0;
  $("next").disabled = step === positions.length;
}

async function choose(move) {
  if (answered) return;
  const reply = await fetch(`/api/puzzles/${data.game}/${data.puzzle}/answer`, {
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
  const said = [result.solved ? T("Correct!") : T("wrong").replace("{move}", result.answer_words)];
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
  steps = result.steps;
  $("after").hidden = false;
  showStep(1);
  $("next-puzzle").focus();
}

$("previous").addEventListener("click", () => showStep(step - 1));
$("next").addEventListener("click", () => showStep(step + 1));
document.addEventListener("keydown", (event) => {
  if (!answered || event.target instanceof HTMLInputElement) return;
  if (event.key === "ArrowLeft") showStep(step - 1);
  else if (event.key === "ArrowRight") showStep(step + 1);
  else return;
  event.preventDefault();
});

board.draw(data.board, false);
