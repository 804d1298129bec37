// Small shared pieces: HTML escaping, the JSON API, the overlay and the toast.

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

export function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => (
    { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

export async function api(path, options = {}) {
  const init = { headers: { "Content-Type": "application/json" }, ...options };
  if (init.body && typeof init.body !== "string") init.body = JSON.stringify(init.body);
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch { /* no body */ }
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    if (data && typeof data.detail === "string") message = data.detail;
    else if (data && Array.isArray(data.detail)) {
      message = data.detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`)
        .join("; ");
    }
    throw new Error(message);
  }
  return data;
}

let toastTimer = null;
/** Hide the toast now. */
export function hideToast() {
  clearTimeout(toastTimer);
  $("#toast").hidden = true;
}

export function toast(text, ms = 2600) {
  const box = $("#toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, ms);
}

let overlayClose = null;
/** Show a dialog; returns its element.  `onClose` runs when it is closed. */
export function showOverlay(html, { onClose = null, className = "" } = {}) {
  const box = $("#overlay");
  box.innerHTML = `<div class="dialog ${className}" role="dialog" aria-modal="true">${html}</div>`;
  box.hidden = false;
  overlayClose = onClose;
  const focus = box.querySelector("[autofocus], .primary, button");
  if (focus) focus.focus();
  return box.firstElementChild;
}

export function closeOverlay() {
  const box = $("#overlay");
  if (box.hidden) return false;
  box.hidden = true;
  box.innerHTML = "";
  const done = overlayClose;
  overlayClose = null;
  if (done) done();
  return true;
}

export const overlayOpen = () => !$("#overlay").hidden;

export function storedName() {
  return localStorage.getItem("euchre.name") || "";
}

export function storeName(name) {
  if (name) localStorage.setItem("euchre.name", name);
}

export function setTopbar(middle = "", tools = "") {
  $("#topbar-middle").innerHTML = middle;
  $("#topbar-tools").innerHTML = tools;
}

export const VARIANT_NAMES = {
  2: "Two-handed", 3: "Three-handed", 4: "Four-handed", 5: "Five-handed",
};

/** The seat names around the table, as the player at `me` sees them. */
export function positionsFor(n) {
  // relative seat r (0 = you, then clockwise = to your left) -> place on the felt
  return {
    2: ["bottom", "top"],
    3: ["bottom", "left-top", "right-top"],
    4: ["bottom", "left", "top", "right"],
    5: ["bottom", "left", "top-left", "top-right", "right"],
  }[n];
}
