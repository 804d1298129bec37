// The keyboard's place and the screen reader's voice: what can take the focus, a dialog
// that keeps it inside (Tab goes round) and gives it back when it closes, and the polite
// status line that says what happens at the table.

const FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), "
  + "textarea:not([disabled]), summary, [tabindex]:not([tabindex='-1'])";

/** The elements under `root` that Tab reaches, in order (those shown). */
export function focusables(root) {
  return Array.from(root.querySelectorAll(FOCUSABLE))
    .filter((el) => el.getClientRects().length > 0 && !el.closest("[hidden], [inert]"));
}

/** Focus the first of `candidates` that is there, without scrolling; says whether one was. */
export function focusFirst(...candidates) {
  const el = candidates.find((x) => x && x.isConnected);
  if (!el) return false;
  el.focus({ preventScroll: true });
  return document.activeElement === el;
}

/**
 * Hold the focus inside `dialog` while it is open: labelled by its first heading, Tab and
 * Shift+Tab go round its controls.  Returns what lets it go.
 */
export function holdInside(dialog) {
  const heading = dialog.querySelector("h1, h2, h3");
  if (heading) {
    if (!heading.id) heading.id = "dialog-title";
    dialog.setAttribute("aria-labelledby", heading.id);
  }
  const onKey = (e) => {
    if (e.key !== "Tab") return;
    const all = focusables(dialog);
    if (!all.length) { e.preventDefault(); return; }
    const first = all[0];
    const last = all[all.length - 1];
    const inside = dialog.contains(document.activeElement);
    if (e.shiftKey && (document.activeElement === first || !inside)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
      e.preventDefault();
      first.focus();
    }
  };
  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}

/** The text of a piece of the page's HTML ("<b>Dot</b> passes" is "Dot passes"). */
export function spokenText(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template.content.textContent.replace(/\s+/g, " ").trim();
}

const SAID_KEPT = 3; // lines kept in the status line; only new ones are read

/** Say `lines` in the page's polite status line (#table-status), as one new line. */
export function say(lines) {
  const box = document.getElementById("table-status");
  const text = lines.filter(Boolean).join(" ");
  if (!box || !text) return;
  const line = document.createElement("p");
  line.textContent = text;
  box.append(line);
  while (box.childElementCount > SAID_KEPT) box.firstElementChild.remove();
}
