// Thirteen's board on the puzzle page: the other hands face up (a bridge problem), the cards to beat,
// and the player's hand as buttons: choose cards and press Play, or Pass. The choice goes to the
// puzzle script, which asks the server.
"use strict";

import { cardFace, installCardDefs, setRankLetters } from "./cards.js";

export function mount(data, choose) {
  const T = (key) => data.texts[key] ?? key;
  const labelled = (label) => (data.label ?? "{label}:").replace("{label}", label);
  installCardDefs();
  setRankLetters(data.rankLetters);
  const $ = (id) => document.getElementById(id);
  const chosen = new Set();
  let locked = false;
  const play = $("play");
  const pass = $("pass");
  play.textContent = T("Play");
  pass.textContent = T("Pass");
  play.addEventListener("click", () => {
    if (chosen.size) choose([...chosen].join(" "));
  });
  pass.addEventListener("click", () => choose("pass"));

  function cardList(codes, names) {
    return codes.map((code) => `<span class="th-mini-card" role="img" aria-label="${names[code] ?? code}">${cardFace(code)}</span>`).join("");
  }

  function draw(view, answered) {
    locked = answered;
    const others = view.seats.slice(1);
    $("seats").innerHTML = others
      .map((seat) => {
        const state = seat.out ? "" : seat.passed ? ` · ${T("passed")}` : "";
        return `<li class="th-puzzle-seat${seat.turn ? " is-turn" : ""}"><span class="th-puzzle-place">${labelled(seat.place)}${state}</span>` +
          `<span class="th-puzzle-cards">${cardList(seat.cards, view.names)}</span></li>`;
      })
      .join("");
    const table = $("table");
    if (view.table.length) {
      const by = view.seats[view.table_by]?.place ?? "";
      table.innerHTML = `<span class="th-puzzle-place">${labelled(T("To beat"))} ${by}</span><span class="th-puzzle-cards">${cardList(view.table, view.names)}</span>`;
    } else {
      table.innerHTML = `<span class="th-puzzle-place">${T("The table is empty: lead.")}</span>`;
    }
    table.setAttribute("aria-label", T("To beat"));
    const me = view.seats[0];
    const hand = $("hand");
    hand.setAttribute("aria-label", me.place);
    hand.innerHTML = "";
    for (const code of me.cards) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "th-puzzle-card";
      button.dataset.card = code;
      button.innerHTML = cardFace(code);
      button.setAttribute("aria-label", view.names[code] ?? code);
      button.setAttribute("aria-pressed", String(chosen.has(code)));
      button.disabled = answered;
      button.addEventListener("click", () => {
        if (locked) return;
        if (chosen.has(code)) chosen.delete(code);
        else chosen.add(code);
        button.setAttribute("aria-pressed", String(chosen.has(code)));
        play.disabled = chosen.size === 0;
      });
      hand.appendChild(button);
    }
    play.disabled = answered || chosen.size === 0;
    pass.disabled = answered || !view.can_pass;
    pass.hidden = !view.can_pass && !answered;
  }
  return { draw };
}
