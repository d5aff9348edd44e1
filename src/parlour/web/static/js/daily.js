// A day's deal page: copy the player's result to share it (a file, so the page's CSP allows no inline
// script). The text names the result and the place, never the deal; this page's address is added here,
// as the browser sees it (behind a proxy the server may not know the public address).
"use strict";

import { copyText } from "./clipboard.js";

const button = document.getElementById("share-button");
const text = document.getElementById("share-text");
const status = document.getElementById("share-status");

function shared() {
  const address = new URL(text.dataset.path, location.origin).href;
  return `${text.textContent.trim()}\n${address}`;
}

button?.addEventListener("click", async () => {
  const copied = await copyText(shared(), text);
  status.textContent = copied ? button.dataset.copied : button.dataset.byHand;
});
