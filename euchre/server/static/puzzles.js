// The puzzles: real positions where one decision matters.  The position is drawn by the
// table's own code (showPosition); the server sends it without its answer, judges the
// answer and computes the new rating (Glicko-2, as the terminal).  The rating, the puzzles
// seen and the best streak are kept in this browser, per variant; the rating and the best
// streak on the server too, under a puzzle player's key (made at the first answer), so that
// a link opens them on another device.

import { $, $$, api, attr, closeOverlay, esc, setRulesVariant, setTopbar, showOverlay, toast, VARIANT_NAMES } from "./util.js";
import { cardText, SUITS } from "./cards.js";
import { _, fmt, joinNames, ngettext, number } from "./i18n.js";
import { choiceWords, sentence } from "./messages.js";
import { keptMistakes, MINE, points } from "./review.js";
import { answeredPosition, leaveTable, showPosition } from "./table.js";

const MODES = () => ({ rated: _("Rated"), daily: _("Daily"), streak: _("Streak"), mine: _("Your mistakes") });

// every theme a puzzle may have (euchre.puzzles.THEMES), in the page's words
const THEMES = () => ({
  bid: _("bid"), "go alone": _("go alone"), discard: _("discard"), call: _("call"),
  "defend alone": _("defend alone"), lead: _("lead"), follow: _("follow"), ruff: _("ruff"),
  "throw off": _("throw off"), next: _("next"), loner: _("loner"),
  "stick the dealer": _("stick the dealer"), "trump lead": _("trump lead"),
  "save the bower": _("save the bower"), "count trumps": _("count trumps"),
  "partner's ace": _("partner's ace"),
});

// the places around the table from your seat (South), clockwise, as the terminal names them
const AROUND = () => ({
  2: ["", _("North")],
  3: ["", _("West"), _("East")],
  4: ["", _("West"), _("North"), _("East")],
  5: ["", _("West"), _("Northwest"), _("Northeast"), _("East")],
});

const NEW_PLAYER = { rating: 1500, rd: 350, vol: 0.06 };

let P = null; // the puzzles page shown now
const THEME_COUNTS = {}; // by variant: how many of its puzzles have each theme (the server counts)

const key = (what) => `euchre.puzzles.${what}.${P.players}`;
const stored = (what, fallback) => {
  try { return JSON.parse(localStorage.getItem(key(what))) ?? fallback; } catch { return fallback; }
};
const store = (what, value) => localStorage.setItem(key(what), JSON.stringify(value));

export function leavePuzzles() {
  if (P) leaveTable();
  P = null;
}

/** The page again in another language: the same puzzle, new words. */
export function relabelPuzzles() {
  if (P) draw();
}

export async function showPuzzles(root) {
  leavePuzzles();
  const players = Number(localStorage.getItem("euchre.puzzles.players")) || 4;
  P = { root, players, mode: "rated", theme: "", puzzle: null, result: null, step: 0, error: null, mineAt: 0 };
  await openPlayer();
  await load();
}

// -- the puzzle player: the ratings the server keeps under a key, for every device -------

const PLAYER = "euchre.puzzles.player";

/** This browser's puzzle player ({id, key}), or null before the first answer. */
function player() {
  try { return JSON.parse(localStorage.getItem(PLAYER)); } catch { return null; }
}

const playerHeaders = (p) => ({ "Content-Type": "application/json", "X-Euchre-Key": p.key });

/** The link that opens this browser's puzzle ratings on another device (the key in the
 * fragment: it never reaches a server's logs). */
const playerLink = (p) => `${location.origin}/puzzles#player=${encodeURIComponent(p.id)}.${encodeURIComponent(p.key)}`;

/** Keep the server's rating and best streak of each variant in this browser. */
function keepVariants(variants) {
  for (const [n, v] of Object.entries(variants || {})) {
    localStorage.setItem(`euchre.puzzles.rating.${n}`, JSON.stringify(v.rating));
    localStorage.setItem(`euchre.puzzles.streak.${n}`, JSON.stringify(v.streak));
  }
}

/** A link from another device (#player=ID.KEY) makes its player this browser's; then the
 * server's ratings replace the ones kept here.  A player the server no longer knows (or
 * whose key it refuses) is forgotten: the next answer makes a new one. */
async function openPlayer() {
  const m = /^#player=([^.]+)\.(.+)$/.exec(location.hash);
  if (m) {
    localStorage.setItem(PLAYER, JSON.stringify({ id: decodeURIComponent(m[1]), key: decodeURIComponent(m[2]) }));
    history.replaceState(null, "", location.pathname + location.search);
  }
  const p = player();
  if (!p) return;
  try {
    keepVariants((await api(`/api/puzzles/players/${encodeURIComponent(p.id)}`, { headers: playerHeaders(p) })).variants);
  } catch (e) {
    if (e.code === "no_puzzle_player" || e.code === "not_puzzle_player") {
      localStorage.removeItem(PLAYER);
      if (m) toast(e.message, 5000);
    }
  }
}

/** This browser's puzzle player, made on the server from the ratings kept here if there is
 * none yet; null if the server could not make one (the answer is then judged without). */
async function ensurePlayer() {
  const known = player();
  if (known) return known;
  const variants = {};
  for (const n of [2, 3, 4, 5]) {
    let rating = null;
    let streak = 0;
    try { rating = JSON.parse(localStorage.getItem(`euchre.puzzles.rating.${n}`)); } catch { /* none */ }
    try { streak = Number(JSON.parse(localStorage.getItem(`euchre.puzzles.streak.${n}`))) || 0; } catch { /* none */ }
    if (rating || streak) variants[n] = { ...(rating ? { rating } : {}), streak };
  }
  try {
    const made = await api("/api/puzzles/players", { method: "POST", body: { variants } });
    const p = { id: made.id, key: made.key };
    localStorage.setItem(PLAYER, JSON.stringify(p));
    return p;
  } catch {
    return null;
  }
}

/** The link for another device, to copy or share. */
function showDeviceLink() {
  const p = player();
  if (!p) return;
  const url = playerLink(p);
  const share = typeof navigator.share === "function";
  showOverlay(`<h2 id="pz-device-title">${_("Your puzzle ratings on another device")}</h2>
    <p>${_("Open this link on your other device: both keep the same ratings and best streaks. Keep it to yourself: whoever opens it answers as you.")}</p>
    <div class="invite"><input readonly id="pz-device-link" ${attr("value", url)} ${attr("aria-label", _("Your puzzle ratings on another device"))}>
      ${share ? `<button class="small share primary">${_("Share")}</button>` : ""}
      <button class="small copy">${_("Copy")}</button></div>
    <div class="buttons"><button id="close-dialog">${_("Close")}</button></div>`, { className: "pz-device-dialog" });
  $("#close-dialog").onclick = closeOverlay;
  const copy = $(".pz-device-dialog .copy");
  if (copy) {
    copy.onclick = async () => {
      try { await navigator.clipboard.writeText(url); toast(_("Link copied")); } catch {
        $("#pz-device-link").select(); toast(_("Press Ctrl+C to copy"));
      }
    };
  }
  const shareButton = $(".pz-device-dialog .share");
  if (shareButton) shareButton.onclick = async () => { try { await navigator.share({ title: _("Euchre"), url }); } catch { /* dismissed */ } };
}

/** The mistake the "your mistakes" mode shows now, with where the server finds it and the
 * seat token that opens it (this browser's, kept when it took the seat). */
function currentMistake() {
  const kept = keptMistakes();
  if (!kept.length) return null;
  const m = kept[P.mineAt % kept.length];
  return {
    ...m,
    url: `/api/tables/${encodeURIComponent(m.table)}/matches/${m.match}/puzzles/${m.k}`,
    headers: { "Content-Type": "application/json", "X-Seat-Token": localStorage.getItem(`euchre.token.${m.table}`) || "" },
  };
}

/** Fetch the puzzle the mode asks for, and draw it. */
async function load() {
  const s = P;
  try { OPTIONS = OPTIONS || (await api("/api/rules/options")).options; } catch { /* the house rules by their names */ }
  if (s.mode === "mine") {
    s.result = null;
    s.puzzle = null;
    const m = currentMistake();
    s.error = m ? null : _("No mistakes of yours kept yet: in the review of a game you played here, add its mistakes to your puzzles.");
    if (m) {
      try { s.puzzle = await api(m.url, { headers: m.headers }); } catch (e) { s.error = e.message; }
    }
    if (P === s) draw();
    return;
  }
  const q = new URLSearchParams({ players: String(s.players) });
  let path = "/api/puzzles/next";
  if (s.mode === "daily") path = "/api/puzzles/daily";
  else if (s.mode === "streak") { path = "/api/puzzles/streak"; q.set("step", String(s.step)); } else {
    q.set("rating", String(Math.round(stored("rating", NEW_PLAYER).rating)));
    if (s.theme) q.set("themes", s.theme);
    q.set("skip", stored("seen", []).slice(-100).join(","));
  }
  s.result = null;
  s.error = null;
  try {
    if (!THEME_COUNTS[s.players]) THEME_COUNTS[s.players] = (await api(`/api/puzzles/themes?players=${s.players}`)).themes;
    if (s.theme && !THEME_COUNTS[s.players][s.theme]) { s.theme = ""; q.delete("themes"); }
    s.puzzle = await api(`${path}?${q}`);
  } catch (e) {
    s.puzzle = null;
    s.error = e.message;
  }
  if (P === s) draw();
}

function topbar() {
  setTopbar(`<span class="table-title">${_("Puzzles")}</span>`, `<a class="tool" href="/">${_("Lobby")}</a>`);
  setRulesVariant(P.players);
}

function barHTML() {
  const s = P;
  const rating = stored("rating", NEW_PLAYER);
  const variants = [2, 3, 4, 5].map((n) => `<option value="${n}" ${n === s.players ? "selected" : ""}>${esc(VARIANT_NAMES()[n])}</option>`).join("");
  const modes = Object.entries(MODES()).map(([m, word]) => `<label><input type="radio" name="pz-mode" value="${m}"
    ${m === s.mode ? "checked" : ""}><span>${esc(word)}</span></label>`).join("");
  const themes = s.mode === "rated" ? `<label class="pz-theme">${_("Theme")}
    <select id="pz-theme"><option value="">${_("any")}</option>${Object.entries(THEME_COUNTS[s.players] || {}).map(([t, count]) => `
      <option value="${esc(t)}" ${t === s.theme ? "selected" : ""}>${esc(`${THEMES()[t] || t} (${number(count)})`)}</option>`).join("")}</select></label>` : "";
  const kept = keptMistakes().length;
  const facts = s.mode === "streak"
    ? fmt(_("Streak: {count} · your best: {best}"), { count: s.step, best: stored("streak", 0) })
    : s.mode === "mine" ? fmt(ngettext("{count} mistake kept", "{count} mistakes kept", kept), { count: kept })
      : fmt(_("Your rating: {rating}"), { rating: Math.round(rating.rating) });
  return `<section class="panel puzzle-bar" aria-labelledby="pz-title">
    <h1 id="pz-title" class="sr-only">${_("Puzzles")}</h1>
    <select id="pz-players" ${attr("aria-label", _("Players"))} ${s.mode === "mine" ? "hidden" : ""}>${variants}</select>
    <div class="segmented small" role="radiogroup" ${attr("aria-label", _("Mode"))}>${modes}</div>
    ${themes}
    <p class="pz-facts" id="pz-facts"><b>${esc(facts)}</b>${s.puzzle ? ` · <span class="muted">${esc(fmt(_("puzzle rated {rating}"), { rating: s.puzzle.rating }))}</span>` : ""}</p>
    ${player() ? `<button type="button" class="small" id="pz-device">${_("On another device")}</button>` : ""}
    ${s.mode === "daily" ? `<p class="pz-ask">${esc(_("The puzzle of the day: the same for everyone today."))}</p>` : ""}
    ${houseRulesHTML()}
  </section>`;
}

let OPTIONS = null; // the rules' options as the server serves them (their labels), once

/** The options of the puzzle's deal that differ from its variant's defaults (the server
 * names them), in the words of the lobby's form; empty when there are none. */
function houseRulesHTML() {
  const house = (P.puzzle && P.puzzle.house_rules) || [];
  if (!house.length) return "";
  const words = house.map(({ option, value }) => {
    const o = (OPTIONS || []).find((x) => x.name === option);
    if (!o) return `${option}: ${value}`;
    if (value === true) return _(o.on_words || o.label);
    if (value === false) return `${_(o.label)}: ${_("Off")}`;
    const label = o.choice_labels && o.choice_labels[value];
    const shown = label ? _(label) : String(value).startsWith("suit:") ? SUITS[String(value).slice(5)] : String(value);
    return `${_(o.label)}: ${shown}`;
  });
  return `<p class="pz-house" id="pz-house">${esc(fmt(_("House rules: {rules}"), { rules: words.join(", ") }))}</p>`;
}

function draw() {
  const s = P;
  topbar();
  s.root.innerHTML = `<div class="puzzles-page">${barHTML()}<div id="pz-result"></div><div id="pz-board"></div></div>`;
  $("#pz-players", s.root).addEventListener("change", (e) => {
    s.players = Number(e.target.value);
    localStorage.setItem("euchre.puzzles.players", e.target.value);
    s.step = 0;
    load();
  });
  $$("input[name=pz-mode]", s.root).forEach((r) => r.addEventListener("change", () => {
    s.mode = r.value;
    s.step = 0;
    load();
  }));
  const device = $("#pz-device", s.root);
  if (device) device.addEventListener("click", showDeviceLink);
  const theme = $("#pz-theme", s.root);
  if (theme) theme.addEventListener("change", () => { s.theme = theme.value; load(); });
  if (!s.puzzle) {
    $("#pz-board").innerHTML = `<p class="panel">${esc(s.error || _("No puzzle to show."))}</p>`;
    return;
  }
  const n = s.puzzle.players;
  const you = s.puzzle.state.you;
  const names = Array.from({ length: n }, (_x, seat) => AROUND()[n][(seat - you + n) % n]);
  showPosition($("#pz-board"), s.puzzle.state, names, answer);
  if (s.result) {
    answeredPosition();
    drawResult();
  }
}

/** How an order is said by the puzzle's seat: the dealer takes it up, its partner assists. */
function role() {
  const st = P.puzzle.state;
  const n = st.table.rules.players;
  if (st.you === st.deal.dealer) return "dealer";
  return n === 4 && st.you === (st.deal.dealer + 2) % 4 ? "assist" : "";
}

const move = (action) => choiceWords(action, role(), cardText);

async function answer(action) {
  const s = P;
  const mine = s.mode === "mine" ? currentMistake() : null;
  let data;
  try {
    if (mine) {
      data = await api(`${mine.url}/answer`, { method: "POST", headers: mine.headers, body: { action } });
    } else {
      const p = await ensurePlayer();
      const body = { players: s.players, action, rating: stored("rating", NEW_PLAYER) };
      if (s.mode === "streak") body.streak = s.step + 1;
      data = await api(`/api/puzzles/${encodeURIComponent(s.puzzle.id)}/answer`, p
        ? { method: "POST", headers: playerHeaders(p), body: { ...body, player: p.id } }
        : { method: "POST", body });
    }
  } catch (e) {
    if (!mine && (e.code === "no_puzzle_player" || e.code === "not_puzzle_player") && player()) {
      localStorage.removeItem(PLAYER); // the server forgot it: the answer again, with a new one
      await answer(action);
      return;
    }
    toast(e.message, 5000);
    if (P === s) draw();
    return;
  }
  if (P !== s) return;
  s.result = data;
  const seen = stored("seen", []).filter((x) => x !== data.id);
  store("seen", [...seen, data.id].slice(-300));
  if (mine) {
    // a mistake solved leaves the list (the next takes its place); one missed stays
    if (data.solved) {
      const left = keptMistakes().filter((x) => !(x.table === mine.table && x.match === mine.match && x.k === mine.k));
      localStorage.setItem(MINE, JSON.stringify(left));
    } else s.mineAt += 1;
  } else if (s.mode === "streak") {
    if (data.solved) s.step += 1;
    store("streak", Math.max(stored("streak", 0), s.step));
  } else {
    store("rating", data.rating);
  }
  if (data.player) keepVariants(data.player.variants);
  answeredPosition();
  draw();
  const title = $("#pz-result-title");
  title.scrollIntoView({ block: "nearest" });
  title.focus();
}

/** The reasons: the trumps held (or that would be), the bidding, the trumps not seen. */
function reasons(f) {
  const st = P.puzzle.state;
  const n = st.table.rules.players;
  const you = st.you;
  const names = Array.from({ length: n }, (_x, seat) => AROUND()[n][(seat - you + n) % n]);
  const lines = [];
  if (f.suit) {
    const params = { suit: SUITS[f.suit], n: f.held.length, cards: f.held.map(cardText).join(" ") };
    let line;
    if (f.bidding) {
      line = f.held.length ? ngettext("With {suit} trump you would hold {n} trump: {cards}.",
        "With {suit} trump you would hold {n} trumps: {cards}.", f.held.length) : _("With {suit} trump you would hold no trump.");
    } else {
      line = f.held.length ? ngettext("You hold {n} trump: {cards}.", "You hold {n} trumps: {cards}.", f.held.length) : _("You hold no trump.");
    }
    lines.push(fmt(line, params));
  }
  if (f.bidding) {
    lines.push(f.passed.length ? fmt(ngettext("Passed before you: {who}.", "Passed before you: {who}.", f.passed.length),
      { who: joinNames(f.passed.map((seat) => names[seat])) }) : _("Nobody has bid before you."));
  } else if (f.maker !== undefined) {
    let line = f.maker === you ? (f.alone ? _("You made trump alone.") : _("You made trump."))
      : fmt(f.alone ? _("{who} made trump alone.") : _("{who} made trump."), { who: names[f.maker] });
    if (f.out) {
      line += ` ${f.out.length ? fmt(ngettext("One trump you have not seen: {cards}.", "{n} trumps you have not seen: {cards}.", f.out.length),
        { n: f.out.length, cards: f.out.map(cardText).join(" ") }) : _("You have seen every trump.")}`;
    }
    lines.push(line);
  }
  return lines;
}

function drawResult() {
  const s = P;
  const r = s.result;
  const best = r.values[0].value;
  const lost = best - (r.values.find((v) => v.action === r.chosen) || { value: best }).value;
  const verdict = sentence(r.solved
    ? fmt(_("{move} is the expert's move."), { move: move(r.answer) })
    : fmt(_("The expert's move is {move}: {points} points better than {yours}."),
      { move: move(r.answer), points: number(lost, 2), yours: move(r.chosen) }));
  const values = r.values.map((v) => `<li class="${v.action === r.chosen ? "played" : ""}${v.action === r.answer ? " best" : ""}">
    <span>${esc(move(v.action))}</span><span class="review-value">${esc(points(v.value, true))}</span></li>`).join("");
  let after;
  if (s.mode === "mine") {
    after = esc(r.solved ? _("Solved: it leaves your list.") : _("Missed: it stays on your list."));
  } else if (s.mode === "streak") {
    after = r.solved ? esc(fmt(_("Streak: {count} · your best: {best}"), { count: s.step, best: stored("streak", 0) }))
      : `<b>${esc(fmt(ngettext("Streak over: {n} puzzle solved in a row.", "Streak over: {n} puzzles solved in a row.", s.step), { n: s.step }))}</b>`;
  } else {
    const before = Math.round(r.before.rating);
    const now = Math.round(r.rating.rating);
    const change = now - before;
    after = esc(fmt(_("Your rating: {before} → {after} ({change})"), { before, after: now, change: `${change >= 0 ? "+" : "−"}${Math.abs(change)}` }));
  }
  const next = s.mode === "streak" && !r.solved ? _("New streak") : s.mode === "daily" ? _("A rated puzzle") : _("Next puzzle");
  $("#pz-result").innerHTML = `<section class="panel puzzle-result ${r.solved ? "solved" : "missed"}" aria-labelledby="pz-result-title">
    <h2 id="pz-result-title" tabindex="-1">${r.solved ? `✓ ${_("Right!")}` : `✗ ${_("Not this one.")}`}</h2>
    <p>${esc(verdict)}</p>
    <p class="pz-after">${after}</p>
    <h3>${_("Every choice, in points for your side")}</h3>
    <ol class="review-values">${values}</ol>
    <ul class="pz-reasons">${reasons(r.facts).map((line) => `<li>${esc(line)}</li>`).join("")}</ul>
    ${r.themes.length ? `<p class="muted">${esc(fmt(_("Themes: {themes}"), { themes: r.themes.map((t) => THEMES()[t] || t).join(", ") }))}</p>` : ""}
    <div class="buttons"><button class="primary" id="pz-next">${esc(next)}</button></div>
  </section>`;
  $("#pz-next").onclick = () => {
    if (s.mode === "streak" && !r.solved) s.step = 0;
    else if (s.mode === "daily") s.mode = "rated";
    load();
  };
}
