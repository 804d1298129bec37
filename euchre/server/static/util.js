// Small shared pieces: HTML escaping, the JSON API, the overlay and the toast.

import { _, fmt, language } from "./i18n.js";
import { errorText } from "./messages.js";
import { focusFirst, holdInside } from "./focus.js";
import { patch } from "./patch.js";

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

/** Give each element under `root` with a `data-style` its computed inline style, through
 * the CSSOM: the page's Content-Security-Policy refuses `style` attributes in markup. */
export function applyStyles(root) {
  for (const el of root.querySelectorAll("[data-style]")) el.style.cssText = el.dataset.style;
}

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
    // the server's refusal worded by its code, in the page's language
    let message = fmt(_("The server answered {status}."), { status: response.status });
    if (data && data.code) message = errorText(data.code, data.params, data.detail);
    else if (data && typeof data.detail === "string") message = data.detail;
    const error = new Error(message);
    error.status = response.status;
    error.code = data && data.code;
    error.params = (data && data.params) || {};
    throw error;
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
let overlayOpener = null; // what had the focus before the dialog: it gets it back
let overlayRelease = null;

/** Show a dialog; returns its element.  `onClose` runs when it is closed.  The focus goes
 * into it and stays there (Tab goes round) until it closes. */
export function showOverlay(html, { onClose = null, className = "" } = {}) {
  const box = $("#overlay");
  if (box.hidden) overlayOpener = document.activeElement;
  if (overlayRelease) overlayRelease();
  box.innerHTML = `<div class="dialog ${className}" role="dialog" aria-modal="true">${html}</div>`;
  box.hidden = false;
  overlayClose = onClose;
  overlayRelease = holdInside(box.firstElementChild);
  const focus = box.querySelector("[autofocus], .primary, button");
  if (focus) focus.focus();
  return box.firstElementChild;
}

export function closeOverlay() {
  const box = $("#overlay");
  if (box.hidden) return false;
  box.hidden = true;
  box.innerHTML = "";
  if (overlayRelease) overlayRelease();
  overlayRelease = null;
  const opener = overlayOpener;
  overlayOpener = null;
  // back where it was; or, where that is gone, in your hand or the page's main part
  focusFirst(opener && opener !== document.body ? opener : null, $(".hand-card"), $("#app"));
  const done = overlayClose;
  overlayClose = null;
  if (done) done();
  return true;
}

export const overlayOpen = () => !$("#overlay").hidden;

/** This browser's key to a table (its seat token, host key or watch key): a private table's
 * facts and games are shown only with one. */
export function tableKey(id) {
  return ["token", "host", "watch"].map((k) => localStorage.getItem(`euchre.${k}.${id}`))
    .find((v) => v) || "";
}

/** A finished game's record or replay, as this browser may see it (see tableKey). */
export function gameURL(id, number, what) {
  const key = tableKey(id);
  return `/api/tables/${id}/matches/${number}/${what}${key ? `?key=${encodeURIComponent(key)}` : ""}`;
}

export function storedName() {
  return localStorage.getItem("euchre.name") || "";
}

export function storeName(name) {
  if (name) localStorage.setItem("euchre.name", name);
}

/**
 * The top bar's middle (the page's title), its tools always in view, and the tools of its
 * menu (`menu`): in the bar on a wide screen, behind the menu button on a narrow one.
 */
export function setTopbar(middle = "", tools = "", menu = "") {
  // in place: a tool that stays keeps the focus
  patch($("#topbar-middle"), middle);
  patch($("#topbar-tools"), tools);
  patch($("#menu-items"), menu);
}

let rulesVariant = null;

/** The address of the rules page in the page's language: at a table (or a replay), with
 * the section of its variant open and in view. */
export function rulesHref() {
  const v = rulesVariant;
  return `/rules/${language()}${v ? `?variant=${v}#variant-${v}` : ""}`;
}

/** The variant the page shows (2 to 5 players; null in the lobby), for the rules link. */
export function setRulesVariant(players) {
  rulesVariant = players || null;
  const link = $(".rules-link");
  if (link) link.href = rulesHref();
}

/** The variants' names, by number of players. */
export const VARIANT_NAMES = () => ({
  2: _("Two-handed"), 3: _("Three-handed"), 4: _("Four-handed"), 5: _("Five-handed"),
});

const SERVER_VARIANTS = { 2: "two-handed", 3: "three-handed", 4: "four-handed", 5: "five-handed" };

/** A table without a name of its own is named after its variant, whole, so that each
 * language words it its own way ("Euchre à quatre", "Euchre zu viert"). */
const VARIANT_TABLES = () => ({
  2: _("Two-handed euchre"), 3: _("Three-handed euchre"), 4: _("Four-handed euchre"),
  5: _("Five-handed euchre"),
});

/** A table's name: a name someone gave it, or its variant's, in the page's language (the
 * server stores no name for a table created without one; tables stored before that hold
 * the variant's English name, which is worded the same way). */
export function tableName(name, players) {
  const given = String(name || "");
  const english = `${SERVER_VARIANTS[players]} euchre`;
  if (!given || given.toLowerCase() === english) return VARIANT_TABLES()[players];
  return given;
}

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

/** An attribute with its value escaped: ` title="…"` (keeps quotes out of the templates,
 * where Babel's extractor would take them for strings). */
export function attr(name, value) {
  return ` ${name}="${esc(value)}"`;
}
