// A day's deal page: copy the player's result to share it (a file, so the page's CSP allows no inline
// script). The text names the result and the place, never the deal; this page's address is added here,
// as the browser sees it (behind a proxy the server may not know the public address).
"use strict";

const button = document.getElementById("share-button");
const text = document.getElementById("share-text");
const status = document.getElementById("share-status");

function shared() {
  const address = new URL(text.dataset.path, location.origin).href;
  return `${text.textContent.trim()}\n${address}`;
}

button?.addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(shared());
    status.textContent = button.dataset.copied;
  } catch {
    // No clipboard here (an insecure origin, or refused): select the text to be copied by hand.
    const range = document.createRange();
    range.selectNodeContents(text);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    status.textContent = button.dataset.byHand;
  }
});
