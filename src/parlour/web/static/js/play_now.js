// Play now: one press seats the person at a public table (POST /api/play-now), then the page goes
// there. The options chosen last time are kept in this browser.
"use strict";

for (const form of document.querySelectorAll('[data-role="play-now"]')) {
  const game = form.dataset.game;
  const button = form.querySelector('[data-role="play-now-button"]');
  const errorEl = form.querySelector('[data-role="play-now-error"]');
  const key = `parlour.playNow.${game}`;
  let kept = {};
  try {
    kept = JSON.parse(localStorage.getItem(key) || "{}");
  } catch {
    kept = {};
  }
  for (const [name, value] of Object.entries(kept)) {
    const field = form.elements.namedItem(name);
    if (field instanceof RadioNodeList) {
      for (const radio of field) radio.checked = radio.value === value;
    } else if (field && [...(field.options || [])].some((option) => option.value === value)) {
      field.value = value;
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (button.disabled) return;
    errorEl.textContent = "";
    const data = new FormData(form);
    const chosen = Object.fromEntries([...data.entries()].map(([name, value]) => [name, String(value)]));
    localStorage.setItem(key, JSON.stringify(chosen));
    const body = { game, rated: chosen.rated === "rated" };
    if (chosen.target) body.target = Number(chosen.target);
    if (chosen.strength) body.strength = chosen.strength;
    const label = button.textContent;
    button.disabled = true;
    button.textContent = form.dataset.busy;
    const lang = document.documentElement.lang || "en";
    try {
      const response = await fetch(`/api/play-now?lang=${encodeURIComponent(lang)}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.message || form.dataset.offline);
      location.assign(answer.url);
    } catch (error) {
      errorEl.textContent = error instanceof SyntaxError || error instanceof TypeError
        ? form.dataset.offline : error.message;
      button.disabled = false;
      button.textContent = label;
    }
  });
}
