// Every page: on a phone the header's links fold into one Menu button, so a game starts at the top of
// the screen. Loaded in <head> (not deferred) so that the "js" class is there before the first paint;
// without this script the links stay open in the header, as before.
document.documentElement.classList.add("js");

// The theme "auto" follows the device: more contrast asked for → high contrast, else a dark scheme →
// dark, else the felt. The page's data-look is the theme applied; it follows the device's changes live.
const root = document.documentElement;
const moreContrast = matchMedia("(prefers-contrast: more)");
const darkScheme = matchMedia("(prefers-color-scheme: dark)");
function applyLook() {
  if (root.dataset.theme !== "auto") return;
  root.dataset.look = moreContrast.matches ? "high_contrast" : darkScheme.matches ? "dark" : "felt";
}
applyLook();
moreContrast.addEventListener("change", applyLook);
darkScheme.addEventListener("change", applyLook);

document.addEventListener("DOMContentLoaded", () => {
  const button = document.querySelector(".site-menu-button");
  const menu = document.getElementById("site-menu");
  if (!button || !menu) return;
  const setOpen = (open) => {
    button.setAttribute("aria-expanded", String(open));
    menu.classList.toggle("is-open", open);
  };
  const isOpen = () => button.getAttribute("aria-expanded") === "true";
  button.addEventListener("click", () => {
    setOpen(!isOpen());
    if (isOpen()) menu.querySelector("a")?.focus();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && isOpen()) {
      setOpen(false);
      button.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (isOpen() && !menu.contains(event.target) && !button.contains(event.target)) setOpen(false);
  });
});
