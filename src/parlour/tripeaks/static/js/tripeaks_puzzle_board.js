// TriPeaks' board on the puzzle page: the position as a player sees it (backs for face-down cards, a
// count for the stock). A free card or the stock is the player's move, handed to the puzzle script.
"use strict";

import { cardBack, cardFace, installCardDefs, setRankLetters } from "./cards.js";

const ROW_DY = 0.73;

export function mount(data, choose) {
  const T = (key) => data.texts[key] ?? key;
  const labelled = (label) => (data.label ?? "{label}:").replace("{label}", label);
  installCardDefs();
  setRankLetters(data.rankLetters);
  const boardElement = document.getElementById("board");
  const slots = [];
  for (let p = 0; p < 28; p++) {
    const element = document.createElement("button");
    element.type = "button";
    element.className = "card-slot";
    element.style.setProperty("--x", data.board.slots[p][0]);
    element.style.setProperty("--y", data.board.slots[p][1] * ROW_DY);
    element.style.zIndex = String(data.board.slots[p][1] + 1);
    element.addEventListener("click", () => {
      if (element.dataset.card && !element.disabled) choose(element.dataset.card);
    });
    boardElement.appendChild(element);
    slots.push(element);
  }
  const stock = document.getElementById("stock");
  stock.addEventListener("click", () => choose("draw"));

  function draw(view, answered) {
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
    const layers = Math.min(3, Math.ceil(view.stock / 8));
    stock.querySelector(".pile-cards").innerHTML =
      Array.from({ length: layers }, () => `<span class="pile-card">${cardBack()}</span>`).join("");
    document.getElementById("stock-count").textContent = String(view.stock);
    stock.disabled = answered || view.stock === 0;
    stock.setAttribute("aria-label", `${labelled(T("Draw pile"))} ${view.stock}`);
    const discard = document.getElementById("discard");
    discard.querySelector(".pile-cards").innerHTML =
      view.discard ? `<span class="pile-card" style="--i:0">${cardFace(view.discard)}</span>` : "";
    discard.setAttribute("aria-label", `${labelled(T("Discard pile"))} ${view.discard ? view.names[view.discard] ?? view.discard : T("empty")}`);
  }
  return { draw };
}
