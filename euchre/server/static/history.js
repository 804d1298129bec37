// The history page: a finished game replayed deal by deal, every hand face up.

import {
  $, attr, $$, api, esc, gameURL, positionsFor, setRulesVariant, setTopbar, tableName,
} from "./util.js";
import { cardSVG, cardText, SUITS, suitIcon } from "./cards.js";
import { _, fmt } from "./i18n.js";
import { actionSentence, summaryText } from "./messages.js";
import { showReview } from "./review.js";

let H = null;

/** The replay again in another language, at the same action. */
export function relabelHistory() {
  if (!H) return;
  topbar();
  render();
}

function topbar() {
  const { data, id, number } = H;
  setTopbar(`<span class="table-title">${esc(tableName(data.name, data.games[0].seats.length))}</span>
    <span class="muted small-hide">${esc(fmt(_("game {number} · replay"), { number }))}</span>`,
  `<a class="tool" href="${gameURL(id, number, "record")}" download>${_("Record")}</a>`);
  setRulesVariant(data.games[0].seats.length);
}

export function leaveHistory() {
  if (H) document.removeEventListener("keydown", H.onKey);
  H = null;
}

export async function showHistory(root, id, number) {
  leaveHistory();
  root.innerHTML = `<p class="loading">${_("Loading the game…")}</p>`;
  let data;
  try {
    data = await api(gameURL(id, number, "replay"));
  } catch (e) {
    root.innerHTML = `<div class="panel narrow"><h1>${_("No replay")}</h1><p>${esc(e.message)}</p>
      <p><a class="button primary" href="/">${_("Back to the lobby")}</a></p></div>`;
    return;
  }
  H = { id, number, data, game: 0, deal: 0, frame: 0, root, onKey: null };
  H.onKey = (e) => {
    const tag = (e.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select") return;
    if (e.key === "ArrowRight") step(1);
    else if (e.key === "ArrowLeft") step(-1);
    else if (e.key === "ArrowDown" || e.key === "PageDown") jumpDeal(1);
    else if (e.key === "ArrowUp" || e.key === "PageUp") jumpDeal(-1);
    else if (e.key === "Home") { H.frame = 0; render(); } else if (e.key === "End") {
      H.frame = currentDeal().frames.length - 1; render();
    } else return;
    e.preventDefault();
  };
  document.addEventListener("keydown", H.onKey);
  topbar();
  render();
}

const currentGame = () => H.data.games[H.game];
/** The seat this browser holds at the table, whose decisions the expert reviews. */
const seatToken = () => localStorage.getItem(`euchre.token.${H.id}`);
const currentDeal = () => currentGame().deals[H.deal];

function step(k) {
  const deal = currentDeal();
  const f = H.frame + k;
  if (f < 0) { if (H.deal > 0) { H.deal -= 1; H.frame = currentDeal().frames.length - 1; } }
  else if (f >= deal.frames.length) { if (H.deal < currentGame().deals.length - 1) { H.deal += 1; H.frame = 0; } }
  else H.frame = f;
  render();
}

function jumpDeal(k) {
  H.deal = Math.max(0, Math.min(currentGame().deals.length - 1, H.deal + k));
  H.frame = 0;
  render();
}

function actionWords(a, names, dealer) {
  if (!a) return _("The cards are dealt.");
  const n = names.length;
  // an order is the dealer's taking it up, or four-handed its partner's assist (RULES §5)
  const role = a.seat === dealer ? "dealer" : n === 4 && a.seat === (dealer + 2) % 4 ? "assist" : "";
  return actionSentence(a.action, esc(names[a.seat]), role, cardText);
}

function finalScore(game) {
  const names = game.seats;
  if (names.length === 4) {
    return [[0, 2], [1, 3]].map(([a, b]) => `${esc(names[a])} &amp; ${esc(names[b])} <b>${game.scores[a]}</b>`).join(" · ");
  }
  return names.map((n, s) => `${esc(n)} <b>${game.scores[s]}</b>`).join(" · ");
}

/** The scores after a deal: one per side four-handed (partners share theirs), else one
 * per seat, in the order of `scoreOrder`. */
function scoreNumbers(game, scores) {
  return (game.seats.length === 4 ? [scores[0], scores[1]] : scores).join("–");
}

/** Whose scores `scoreNumbers` lists, in that order. */
function scoreOrder(game) {
  const names = game.seats;
  const who = names.length === 4 ? [[0, 2], [1, 3]].map(([a, b]) => `${names[a]} & ${names[b]}`) : names;
  return fmt(_("Score after each deal: {order}"), { order: who.join(" – ") });
}

function render() {
  const game = currentGame();
  const deal = currentDeal();
  const frame = deal.frames[H.frame];
  const names = game.seats;
  const n = names.length;
  const pos = positionsFor(n);
  const seatPos = (seat) => pos[seat % n];
  const trick = frame.trick.length ? frame.trick : [];
  const seats = names.map((name, seat) => `
    <div class="seat history-seat pos-${seatPos(seat)} ${frame.to_move === seat ? "to-move" : ""}
        ${frame.sitting_out.includes(seat) ? "out" : ""}">
      <div class="seat-name"><span>${esc(name)}</span>
        ${deal.dealer === seat ? `<span class="badge dealer">${_("Dealer")}</span>` : ""}
        ${frame.maker === seat ? `<span class="badge maker">${frame.alone ? _("Maker, alone") : _("Maker")}</span>` : ""}
        ${frame.partner === seat ? `<span class="badge partner">${_("Partner")}</span>` : ""}
        ${frame.tricks_won[seat] ? `<span class="badge tricks">${frame.tricks_won[seat]}</span>` : ""}</div>
      <div class="open-hand">${frame.hands[seat].map((c) => cardSVG(c, "mini-face")).join("")}</div>
    </div>`).join("");
  const centre = trick.length
    ? trick.map((c) => `<div class="trick-card tpos-${seatPos(c.seat)}${c.seat === frame.trick_winner ? " winner" : ""}"
        data-seat="${c.seat}">${cardSVG(c.card)}</div>`).join("")
    : frame.phase === "bid_turnup" || H.frame === 0
      ? `<div class="turnup"><div class="turnup-label">${_("Turn-up")}</div>${cardSVG(deal.turnup)}</div>` : "";
  const dealList = game.deals.map((d, i) => `
    <li><button class="deal-link ${i === H.deal ? "current" : ""}" data-deal="${i}">
      <b>${esc(fmt(_("Deal {number}"), { number: i + 1 }))}</b> ${esc(d.message ? summaryText(d.message, (seat) => names[seat]) : d.text)} <span class="muted">(${scoreNumbers(game, d.score_after)})</span></button></li>`).join("");
  const games = H.data.games.length > 1 ? `<div class="segmented small">${H.data.games.map((g, i) => `
      <label><input type="radio" name="hgame" value="${i}" ${i === H.game ? "checked" : ""}><span>${esc(fmt(_("Game {number}"), { number: i + 1 }))}</span></label>`).join("")}</div>` : "";
  // the trump on the felt; on a phone, above the controls (the felt has no free corner)
  const trump = frame.trump ? `<div class="chip">${suitIcon(frame.trump)} ${_("Trump")} <b>${SUITS[frame.trump]}</b></div>` : "";
  H.root.innerHTML = `
    <div class="history-page">
      <div class="felt-wrap"><div class="felt history players-${n}">
        ${trump ? `<div class="chips on-felt">${trump}</div>` : ""}
        ${seats}
        <div class="center">${centre}</div>
      </div></div>
      <div class="controls">
        ${trump ? `<div class="chips below-felt">${trump}</div>` : ""}
        <div class="prompt">${actionWords(frame.action, names, deal.dealer)}</div>
        <div class="buttons">
          <button id="h-prev" ${attr("aria-label", _("previous action"))}>◀ <kbd>←</kbd></button>
          <input type="range" id="h-frame" min="0" max="${deal.frames.length - 1}" value="${H.frame}"
            ${attr("aria-label", _("action in this deal"))}>
          <button id="h-next" ${attr("aria-label", _("next action"))}><kbd>→</kbd> ▶</button>
          <span class="muted">${H.frame}/${deal.frames.length - 1}</span>
        </div>
        <p class="muted small">${esc(fmt(_("Kitty: {cards}"), { cards: deal.kitty.map(cardText).join(" ") }))}${deal.dummy ? ` · ${esc(fmt(_("dummy: {cards}"), { cards: deal.dummy.map(cardText).join(" ") }))}` : ""}
          ${deal.discards.some((x) => x.length) ? ` · ${esc(fmt(_("discards: {cards}"), { cards: deal.discards.map((x, s) => (x.length ? `${names[s]} ${x.map(cardText).join(" ")}` : "")).filter(Boolean).join("; ") }))}` : ""}</p>
      </div>
      <aside class="side">${games}
        <h2 class="log-title">${_("Deals")} <small class="muted keys-hint">(<kbd>↑</kbd> <kbd>↓</kbd>)</small></h2>
        <p class="muted small score-order">${esc(scoreOrder(game))}</p>
        <ol class="deal-list">${dealList}</ol>
        <p>${_("Final score:")} ${finalScore(game)}</p>
        ${seatToken() ? `<p><button id="h-review">${_("Review my decisions")}</button></p>` : ""}
      </aside>
    </div>`;
  const review = $("#h-review");
  if (review) review.onclick = () => showReview(H.id, H.number, seatToken());
  $("#h-prev").onclick = () => step(-1);
  $("#h-next").onclick = () => step(1);
  $("#h-frame").oninput = (e) => { H.frame = Number(e.target.value); render(); $("#h-frame").focus(); };
  $$(".deal-link").forEach((b) => b.addEventListener("click", () => {
    H.deal = Number(b.dataset.deal); H.frame = 0; render();
  }));
  $$("input[name=hgame]").forEach((r) => r.addEventListener("change", () => {
    H.game = Number(r.value); H.deal = 0; H.frame = 0; render();
  }));
}
