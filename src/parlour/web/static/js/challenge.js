// A challenge's page: copy its link to send it (a file, so the page's CSP allows no inline script).
"use strict";

import { copyText } from "./clipboard.js";

const button = document.getElementById("copy-link-button");
const link = document.getElementById("challenge-link");
const status = document.getElementById("copy-link-status");

button?.addEventListener("click", async () => {
  const copied = await copyText(link.value, link);
  status.textContent = copied ? button.dataset.copied : button.dataset.byHand;
});
