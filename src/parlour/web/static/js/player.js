// The player page: copy buttons for the recovery code (a file, so the page's CSP allows no inline script).
"use strict";

for (const button of document.querySelectorAll("[data-copy]")) {
  button.addEventListener("click", () => {
    const text = document.getElementById(button.dataset.copy).textContent.trim();
    navigator.clipboard?.writeText(text);
  });
}
