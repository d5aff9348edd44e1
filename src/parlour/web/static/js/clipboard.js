// Copying to the clipboard, for the pages' Copy buttons.
"use strict";

// Put `text` on the clipboard. Where there is none (an insecure origin) or it is refused, select the
// element `shown`, which shows the text, for copying by hand. Resolves to whether the clipboard took it.
export async function copyText(text, shown) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (shown instanceof HTMLInputElement || shown instanceof HTMLTextAreaElement) {
      shown.focus();
      shown.select();
      return false;
    }
    const range = document.createRange();
    range.selectNodeContents(shown);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    return false;
  }
}
