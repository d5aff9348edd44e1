// Pebbles' page: deals a game (or opens the player's open one), draws the pile and the score, and takes.
"use strict";

import { LiveGame } from "./live.js";

const boot = JSON.parse(document.getElementById("pebbles-boot").textContent);
const T = (message) => boot.texts[message] ?? message;
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));
const $ = (role) => document.querySelector(`[data-role="${role}"]`);
const takes = [...document.querySelectorAll("[data-take]")];
let live = null;
let view = null;

function say(text) {
  $("status").textContent = text;
}

function draw(next) {
  view = next;
  const pile = $("pile");
  pile.replaceChildren(...Array.from({ length: view.pile }, () => document.createElement("span")));
  pile.setAttribute("aria-label", fill(T("{n} pebbles left"), { n: view.pile }));
  $("round").textContent = fill(T("Round {round}"), { round: view.round });
  $("score-0").textContent = String(view.scores[0]);
  $("score-1").textContent = String(view.scores[1]);
  const mine = view.turn === view.seat && !view.between_rounds;
  takes.forEach((button) => { button.disabled = !mine || Number(button.dataset.take) > view.pile; });
  $("next-round").hidden = !view.between_rounds;
  const won = view.scores.findIndex((points) => points >= view.target_points);
  if (won >= 0) say(T(won === view.seat ? "You win the game!" : "The computer wins the game."));
  else if (mine) say(T("Your turn: take 1, 2 or 3 pebbles."));
  else if (!view.between_rounds) say(T("The computer is thinking…"));
}

function told(message) {
  const data = message.data ?? {};
  if (message.name === "take") {
    const who = data.seat === view?.seat ? "You took {count}." : "The computer took {count}.";
    let words = fill(T(who), { count: data.count });
    if (data.round_won) {
      words += " " + T(data.seat === view?.seat
        ? "You took the last pebble and win the round."
        : "The computer took the last pebble and wins the round.");
    }
    draw(message.view);
    if (!view.scores.some((points) => points >= view.target_points)) say(words);
  } else if (message.view) {
    draw(message.view);
  }
}

function connect(gameId) {
  live?.close();
  live = new LiveGame(gameId, {
    onState: (next) => draw(next),
    onEvent: told,
    onError: (message) => say(message.message ?? message.code),
    onStatus: (status) => { if (status === "closed") say(T("Connection lost: reconnecting…")); },
  });
}

async function deal() {
  const answer = await fetch(`/api/games/pebbles?lang=${document.documentElement.lang}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: "{}",
  });
  const made = await answer.json();
  if (answer.ok) connect(made.game);
  else say(made.message ?? made.code);
}

takes.forEach((button) => button.addEventListener("click", () => {
  live?.act({ type: "take", count: Number(button.dataset.take) });
}));
$("next-round").addEventListener("click", () => live?.act({ type: "continue" }));
$("new-game").addEventListener("click", deal);

if (boot.game) connect(boot.game);
else deal();
