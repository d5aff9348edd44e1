// Play with friends: the form that makes a table. The new table's seat token is kept in this browser
// (it is the key to the host's seat), then the page goes to the table.
"use strict";

const form = document.querySelector('[data-role="create-table"]');
const errorEl = form.querySelector('[data-role="create-error"]');
const RULES = ["bomb_after_pass", "quad_beats_pair_of_twos", "instant_wins"];
const scoring = form.querySelector('[data-role="scoring"]');

// A duplicate set is played to its number of deals, not to points: the points field goes away.
function showScoring() {
  const duplicate = Number(scoring.value) > 0;
  form.querySelector('[data-role="points-field"]').hidden = duplicate;
  form.querySelector('[data-role="duplicate-note"]').hidden = !duplicate;
}
scoring.addEventListener("change", showScoring);
showScoring();

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorEl.textContent = "";
  const data = new FormData(form);
  const rules = { target_points: Number(data.get("target_points")) };
  const deals = Number(data.get("duplicate_deals"));
  if (deals > 0) rules.duplicate_deals = deals;
  for (const name of RULES) rules[name] = data.get(name) === "on";
  const body = {
    name: String(data.get("name") ?? "").trim(),
    settings: {
      rules,
      strength: data.get("strength"),
      turn_seconds: Number(data.get("turn_seconds")),
      grace_seconds: Number(data.get("grace_seconds")),
      free_text: data.get("free_text") === "on",
      public: data.get("public") === "on",
      rated: data.get("rated") === "on",
    },
  };
  if (body.name) localStorage.setItem("parlour.name", body.name);
  const lang = document.documentElement.lang || "en";
  let response;
  try {
    response = await fetch(`/api/tables?lang=${lang}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    errorEl.textContent = form.dataset.offline ?? "";
    return;
  }
  const answer = await response.json();
  if (!response.ok) {
    errorEl.textContent = answer.message;
    return;
  }
  localStorage.setItem(`parlour.seat.${answer.table}`, answer.seat_token);
  location.assign(answer.url);
});
