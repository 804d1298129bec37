// The top bar's menu.  On a narrow screen the tools that do not fit the bar (leave, the last
// trick, the shortcuts, the sound, the language, the rules) wait behind one button; on a
// wide screen the same tools stand in the bar and the button is not shown (style.css).
// The button says whether the menu is open (aria-expanded); Esc, a click elsewhere or a
// tool chosen closes it, and the focus goes back to the button.

import { $ } from "./util.js";
import { _ } from "./i18n.js";

const button = () => $("#menu-button");
const panel = () => $("#menu");

/** Whether the menu is open now. */
export const menuOpen = () => panel().classList.contains("open");

/** Close the menu; `refocus`: the focus goes back to its button. */
export function closeMenu(refocus = false) {
  if (!menuOpen()) return;
  panel().classList.remove("open");
  button().setAttribute("aria-expanded", "false");
  if (refocus) button().focus();
}

function openMenu() {
  panel().classList.add("open");
  button().setAttribute("aria-expanded", "true");
  const first = panel().querySelector("button, a[href], select");
  if (first) first.focus();
}

/** The menu button's words in the page's language. */
export function menuWords() {
  $("#menu-word").textContent = _("Menu");
}

/** Wire the menu once for the page's lifetime. */
export function initMenu() {
  button().addEventListener("click", () => (menuOpen() ? closeMenu(true) : openMenu()));
  // Esc closes the menu before anything else hears it (the table's Esc closes the hint)
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && menuOpen()) {
      e.preventDefault();
      e.stopPropagation();
      closeMenu(true);
    }
  }, true);
  document.addEventListener("click", (e) => {
    if (!menuOpen()) return;
    if (!e.target.closest("#menu, #menu-button")) closeMenu();
    else if (e.target.closest("#menu a[href], #menu button:not([data-keep-menu])")) closeMenu();
  });
}
