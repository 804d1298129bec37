// The expert's review of your decisions in a finished game, as `euchre analyze` gives it in
// the terminal: each choice you had, what you chose, what the expert would have chosen and
// what the difference cost your side.  The server judges from your seat's view only and
// answers only your seat's token, sent in a header (never in the URL, which logs keep).

import { cardText } from "./cards.js";
import { _, fmt, ngettext, number, onLanguage } from "./i18n.js";
import { choiceWords, errorText } from "./messages.js";
import { $, attr, closeOverlay, esc, showOverlay } from "./util.js";

// the review shown now: { table, match, token, back, review, error }, null when none
let shown = null;

const PHASES = () => ({
  bid_turnup: _("Bidding, round 1"),
  bid_suit: _("Bidding, round 2"),
  name_trump: _("Naming trump"),
  exchange: _("The dealer's discard"),
  dummy: _("The dummy's discard"),
  call_partner: _("Calling a partner"),
  defend: _("Defend alone?"),
});

/** When the decision was: the bidding round, the discard or the trick. */
function when(d) {
  if (d.phase !== "play") return PHASES()[d.phase] || d.phase;
  return fmt(d.lead ? _("Trick {number}, your lead") : _("Trick {number}"), { number: d.trick });
}

/** Points with two decimals, as the page's language writes them: "0.25 points". */
export function points(value, signed = false) {
  const sign = signed ? (value >= 0 ? "+" : "−") : "";
  return fmt(ngettext("{value} point", "{value} points", Math.abs(value) === 1 ? 1 : 2),
    { value: sign + number(Math.abs(value), 2) });
}

/** The mistakes this browser keeps as puzzles: { table, match, k }, k the decision's index
 * in the review (the server rebuilds each from the game's record; the puzzles page serves
 * them with this table's seat token). */
export const MINE = "euchre.puzzles.mine";
export function keptMistakes() {
  try { return JSON.parse(localStorage.getItem(MINE)) || []; } catch { return []; }
}
const sameMistake = (a, b) => a.table === b.table && a.match === b.match && a.k === b.k;
const isKept = (m) => keptMistakes().some((x) => sameMistake(x, m));

function keepButton(k) {
  const kept = isKept({ table: shown.table, match: shown.match, k });
  return `<button class="small keep-mistake" data-k="${k}" ${kept ? "disabled" : ""}>${kept ? _("In your puzzles") : _("Add to my puzzles")}</button>`;
}

function decisionHTML(d, k) {
  const say = (action) => choiceWords(action, d.role, cardText);
  const same = d.best === d.played;
  const cost = d.cost > 0 ? fmt(_("Cost: {points}"), { points: points(d.cost) }) : _("No cost");
  const values = d.values.map((v) => `<li class="${v.action === d.played ? "played" : ""}">
      <span>${esc(say(v.action))}</span><span class="review-value">${esc(points(v.value, true))}</span></li>`).join("");
  return `<li class="review-decision${d.mistake ? " mistake" : ""}">
    <div class="review-when">${esc(when(d))}${d.mistake ? ` <b class="review-mistake">${_("Mistake")}</b>` : ""}</div>
    <div>${esc(fmt(_("You: {choice}"), { choice: say(d.played) }))}</div>
    <div>${same ? esc(_("The expert agrees.")) : esc(fmt(_("The expert: {choice}"), { choice: say(d.best) }))}</div>
    <div class="review-cost">${esc(cost)}</div>
    ${d.mistake ? keepButton(k) : ""}
    <details><summary>${_("Every choice, in points for your side")}</summary><ol class="review-values">${values}</ol></details>
  </li>`;
}

function reviewHTML(r) {
  if (!r.decisions.length) return `<p>${_("You had no choice to make in this game.")}</p>`;
  const totals = [
    fmt(ngettext("{count} decision", "{count} decisions", r.decisions.length), { count: r.decisions.length }),
    fmt(_("expected cost {points}"), { points: points(r.total_cost) }),
    fmt(ngettext("{count} mistake", "{count} mistakes", r.mistakes), { count: r.mistakes }),
  ].join(" · ");
  let html = `<p class="review-totals"><b>${esc(totals)}</b></p>
    <p class="muted">${esc(fmt(_("The expert judged each of your choices from what you could see then. The cost is what your side could expect to lose in that deal by your choice instead of the expert's; a mistake costs {threshold} or more."), { threshold: points(r.threshold) }))}</p>`;
  let game = -1;
  let deal = -1;
  let open = false;
  for (const [k, d] of r.decisions.entries()) {
    if (d.game !== game || d.deal !== deal) {
      if (open) html += "</ol>";
      if (d.game !== game && r.games > 1) html += `<h3>${esc(fmt(_("Game {number}"), { number: d.game + 1 }))}</h3>`;
      html += `<h4>${esc(fmt(_("Deal {number}"), { number: d.deal + 1 }))}</h4><ol class="review-list">`;
      game = d.game;
      deal = d.deal;
      open = true;
    }
    html += decisionHTML(d, k);
  }
  return open ? `${html}</ol>` : html;
}

/** The dialog as it stands: thinking, refused, or the review. */
function render() {
  const s = shown;
  let body;
  if (s.error) body = `<p class="error" role="alert">${esc(s.error)}</p>`;
  else if (s.review) body = reviewHTML(s.review);
  else body = `<p class="muted" aria-live="polite">${_("The expert is reviewing your decisions…")}</p>`;
  // the heading takes the focus: the dialog opens at its top, not scrolled to its buttons
  const dialog = showOverlay(`<h2 tabindex="-1" autofocus>${_("Your decisions")}</h2>
    <div class="review-body" ${attr("aria-busy", String(!s.review && !s.error))}>${body}</div>
    <div class="buttons">
      ${s.back ? `<button id="review-back">${_("Back")}</button>` : ""}
      <button class="primary" id="close-dialog">${_("Close")}</button>
    </div>`, { className: "review", onClose: () => { if (shown === s) shown = null; } });
  $("#close-dialog", dialog).onclick = closeOverlay;
  dialog.querySelectorAll(".keep-mistake").forEach((b) => b.addEventListener("click", () => {
    const m = { table: s.table, match: s.match, k: Number(b.dataset.k) };
    if (!isKept(m)) localStorage.setItem(MINE, JSON.stringify([...keptMistakes(), m]));
    b.disabled = true;
    b.textContent = _("In your puzzles");
  }));
  const back = $("#review-back", dialog);
  if (back) back.onclick = () => { shown = null; s.back(); };
}

/** The server's refusal in the page's words. */
function refusal(status, data) {
  if (data && data.code === "rate_limited") return _("Too many reviews asked for: try again in a moment.");
  if (data && data.code) return errorText(data.code, data.params, data.detail);
  return fmt(_("The server answered {status}."), { status });
}

/**
 * Open the review of your decisions in match `match` of table `table`, your seat's
 * `token` proving whose they are; `back()`, if given, returns to the dialog before.
 */
export async function showReview(table, match, token, back = null) {
  const s = { table, match, token, back, review: null, error: null };
  shown = s;
  render();
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(table)}/matches/${match}/review`,
      { headers: { "X-Seat-Token": token || "" } });
    let data = null;
    try { data = await response.json(); } catch { /* no body */ }
    if (!response.ok) s.error = refusal(response.status, data);
    else s.review = data;
  } catch {
    s.error = _("The server could not be reached.");
  }
  if (stillShown(s)) render(); // not if the dialog was closed, or another opened, meanwhile
}

/** Is `s` the review in the dialog now? */
const stillShown = (s) => shown === s && $("#overlay .dialog.review") !== null;

// another language chosen while the review is open: the same review, new words
onLanguage(() => { if (stillShown(shown)) render(); });
