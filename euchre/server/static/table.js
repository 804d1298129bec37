// The table: one WebSocket, the state the server sends for our seat, drawn anew on
// every message.  The server holds the only true state; this page only shows it and
// sends actions in the RECORDS notation ("pass", "order alone", "trump H", "play JH").

import {
  $, applyStyles, attr, $$, api, closeOverlay, esc, hideToast, overlayOpen, positionsFor, setTopbar, showOverlay,
  storeName, storedName, toast,
} from "./util.js";
import {
  backSVG, cardName, cardSVG, cardText, isRed, markerSVG, SUIT_SYMBOL, SUITS, suitIcon, theCard,
} from "./cards.js";
import { KEYMAP, keyCommand } from "./keys.js";
import { botLabel, botNote } from "./bots.js";
import { _, fmt, joinNames, language, ngettext, number, pgettext } from "./i18n.js";
import {
  actionSentence, choiceWords, errorText, hintReason, summaryText,
} from "./messages.js";
import { gameURL, setRulesVariant, tableName, VARIANT_NAMES } from "./util.js";
import { forgetTurn, noticeTurn, setSound, soundOn } from "./notice.js";
import { patch } from "./patch.js";
import { focusFirst, say, spokenText } from "./focus.js";
// the review of one's decisions loads when first asked for
const showReview = async (...args) => (await import("./review.js")).showReview(...args);
import {
  chatBox, hostAction, hostKey, hostLink, keepHostKey, loadHostView, noticeChat, seatName, showHostPanel, waitingRoom,
  wireChat,
} from "./host.js";

const PACE_WORDS = () => ({ slow: _("slow"), normal: _("normal"), fast: _("fast") });

/** The table again in another language: the same game and connection, new words. */
export function relabelTable() {
  if (!T || !T.state) return;
  const page = $("#table-page");
  if (page) page.innerHTML = ""; // built afresh, with the new words
  render();
  if (overlayOpen() && T.state.over && $("#overlay .game-over")) showGameOver();
}

const SUIT_ORDER = ["C", "D", "H", "S"];
const KEYS = "1234567890";

// How long a finished trick stays in view, then how long it takes to gather it to its
// winner, in milliseconds: the player picks the pace (kept in this browser).
export const PACES = {
  slow: { hold: 2600, collect: 700 },
  normal: { hold: 1300, collect: 450 },
  fast: { hold: 450, collect: 250 },
};

let T = null; // the table being shown

export function leaveTable() {
  if (!T) return;
  T.closed = true;
  clearTimeout(T.retryTimer);
  clearTimeout(T.holdTimer);
  clearTimeout(T.summaryTimer);
  clearInterval(T.clockTimer);
  if (T.ws) T.ws.close();
  document.removeEventListener("keydown", onKey);
  if (T.narrow) T.narrow.removeEventListener("change", render);
  forgetTurn();
  T = null;
}

export async function showTable(root, id, params) {
  leaveTable();
  // the secrets a link may carry are taken out of the address bar at once: a host key and
  // a watch key are kept in this browser; an invitation is kept nowhere, only spent
  const invite = params.get("invite");
  if (params.get("host")) keepHostKey(id, params.get("host"));
  if (params.get("watch")) localStorage.setItem(`euchre.watch.${id}`, params.get("watch"));
  let token = params.get("token");
  if (token) localStorage.setItem(`euchre.token.${id}`, token);
  if (invite || token || params.get("host") || params.get("watch")) {
    history.replaceState(null, "", `/table/${id}`);
  }
  token = localStorage.getItem(`euchre.token.${id}`);
  T = {
    id, token, root, ws: null, hello: null, state: null, prev: null, pending: false,
    selected: -1, selectedCall: -1, aloneToggle: false, held: null, holdTimer: null, retry: 0,
    retryTimer: null, closed: false, pastDeals: [], hint: null, summary: null,
    summaryAt: 0, summaryTimer: null, clockEnd: null, clockTimer: null,
    markers: localStorage.getItem("euchre.markers") === "1",
    pace: PACES[localStorage.getItem("euchre.pace")] ? localStorage.getItem("euchre.pace") : "normal",
  };
  T.clockTimer = setInterval(tickClock, 250);
  // one column below this width (style.css): the invitations go above the table
  T.narrow = matchMedia("(max-width: 980px)");
  T.narrow.addEventListener("change", render);
  document.addEventListener("keydown", onKey);
  root.innerHTML = `<div class="table-page" id="table-page"><p class="loading">${_("Connecting…")}</p></div>`;
  T.chat = [];
  T.hostView = null;
  T.watch = localStorage.getItem(`euchre.watch.${id}`) || hostKey(id);
  // a link wins over what this browser kept: an invitation (perhaps the seat given back
  // after a bot kept it) over a seat token stored before, the host link over none
  if (invite) openInvitation(invite);
  else if (params.get("host")) takeHostSeat();
  else connect();
}

/**
 * Draw a position as the table draws it, with no game behind it (the puzzles page):
 * `state` in the shape of the table's `state` message, the seats' names given by
 * `seatNames`; the action chosen goes to `onAct(action)` rather than to a server.
 */
export function showPosition(root, state, seatNames, onAct) {
  leaveTable();
  const table = { ...state.table, seats: state.table.seats.map((x, i) => ({ ...x, name: seatNames[i] })) };
  T = {
    id: null, token: null, root, ws: null, hello: null, state: { ...state, table }, prev: null,
    pending: false, selected: -1, selectedCall: -1, aloneToggle: false, held: null, holdTimer: null,
    retry: 0, retryTimer: null, closed: false, pastDeals: [], hint: null, summary: null,
    summaryAt: 0, summaryTimer: null, clockEnd: null, clockTimer: null, markers: false,
    pace: "normal", chat: [], hostView: null, watch: null, puzzle: onAct,
  };
  document.addEventListener("keydown", onKey);
  root.innerHTML = `<div class="table-page puzzle-table" id="table-page"></div>`;
  render();
}

/** The position drawn by `showPosition` once answered: no more choices. */
export function answeredPosition() {
  if (!T || !T.puzzle) return;
  T.state = { ...T.state, deal: { ...T.state.deal, legal: [] } };
  T.pending = false;
  render();
}

/** The host link, opened on another device: the host's own seat, if the host still
 * holds it (the server answers its token to the host key alone). */
async function takeHostSeat() {
  const seat = await hostAction(T.id, "seat");
  if (!T) return;
  if (seat && seat.token) {
    localStorage.setItem(`euchre.token.${T.id}`, seat.token);
    localStorage.setItem(`euchre.joined.${T.id}`, "1");
    T.token = seat.token;
  }
  connect();
}

// -- joining with an invitation link ------------------------------------------------------
/** The invitation is checked when the page opens (nothing is spent), then claimed under
 * the name asked; nothing of it is kept in this browser before (a forged or spent link
 * leaves no seat behind).  A spent one reopened where its seat was taken goes back to
 * that seat. */
async function openInvitation(invite) {
  let info;
  try {
    info = await api(`/api/tables/${T.id}/invitation`, { method: "POST", body: { invite } });
  } catch (err) {
    if (T && err.code === "invitation_spent" && T.token) connect();
    else refusedJoin(err);
    return;
  }
  if (T) askToJoin(invite, info);
}

async function askToJoin(invite, info) {
  const dialog = showOverlay(`
    <h2>${_("Join the table")}</h2>
    <p>${esc(fmt(_("You were invited to play at {table}. What is your name?"), { table: tableName(info.name, info.players) }))}</p>
    <form id="join-form" class="join-form">
      <input id="join-name" maxlength="40" ${attr("placeholder", _("Your name"))} ${attr("value", info.seat || storedName())} autofocus>
      <div class="buttons">
        <button class="primary" type="submit">${_("Take my seat")}</button>
      </div>
    </form>
    <p id="join-error" class="error" hidden></p>`);
  $("#join-name", dialog).focus();
  $("#join-form", dialog).addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = $("#join-name", dialog).value.trim();
    storeName(name);
    try {
      const answer = await api(`/api/tables/${T.id}/join`, { method: "POST", body: { invite, name } });
      localStorage.setItem(`euchre.token.${T.id}`, answer.token);
      localStorage.setItem(`euchre.joined.${T.id}`, "1");
      T.token = answer.token;
      closeOverlay();
      connect();
    } catch (err) {
      closeOverlay();
      refusedJoin(err);
    }
  });
}

/** An invitation the server refused: why, and watching where the table allows it. */
function refusedJoin(err) {
  if (!T) return;
  const title = err.code === "no_table" ? _("No such table")
    : err.code === "invitation_spent" ? _("The seat is taken") : _("This invitation does not work");
  const watch = err.code === "invitation_spent" && err.params.watch;
  T.root.innerHTML = `<div class="panel narrow" id="join-refused"><h1>${esc(title)}</h1>
    <p>${esc(err.message)}</p><p class="buttons">
    ${watch ? `<button class="primary" id="watch-instead">${_("Watch the table")}</button>` : ""}
    <a class="button" href="/">${_("Back to the lobby")}</a></p></div>`;
  const button = $("#watch-instead");
  if (button) {
    button.addEventListener("click", () => {
      T.root.innerHTML = `<div class="table-page" id="table-page"><p class="loading">${_("Connecting…")}</p></div>`;
      connect();
    });
  }
}

// -- the connection ----------------------------------------------------------------------------
function connect() {
  if (!T || T.closed) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // a player's page shows each deal's summary, and the bots wait until it is read; the
  // server words its refusals in the page's language
  const query = new URLSearchParams();
  if (T.token) { query.set("token", T.token); query.set("summary", "wait"); } else if (T.watch) query.set("watch", T.watch);
  query.set("lang", language());
  const ws = new WebSocket(`${scheme}://${location.host}/ws/${T.id}?${query}`);
  T.ws = ws;
  ws.onopen = () => { T.retry = 0; setBanner(""); };
  ws.onmessage = (event) => onMessage(JSON.parse(event.data));
  ws.onclose = (event) => {
    if (!T || T.closed || T.ws !== ws) return;
    if (event.code === 4404 || event.code === 4403) return; // told why already
    const wait = Math.min(5000, 400 * 2 ** T.retry++);
    setBanner(_("Connection lost: reconnecting…"));
    T.retryTimer = setTimeout(connect, wait);
  };
}

function send(message) {
  if (T.ws && T.ws.readyState === WebSocket.OPEN) {
    T.ws.send(JSON.stringify(message));
    return true;
  }
  toast(_("Not connected: reconnecting…"));
  return false;
}

function act(action) {
  if (T.pending) return;
  if (T.puzzle) { T.pending = true; render(); T.puzzle(action); return; }
  if (send({ type: "act", action, seq: T.state.seq })) {
    T.pending = true;
    T.hint = null;
    T.held = null; // your card shows at once, not after the last trick is gathered
    if (T.summary) closeSummary();
    render();
  }
}

/** A card you may not play now, clicked: sent all the same, so that the server's refusal
 * says why (it changes nothing). */
function tryAct(action) {
  if (T.pending || T.state.you === null || T.puzzle) return;
  if (send({ type: "act", action, seq: T.state.seq })) T.pending = true;
}

function onMessage(m) {
  if (m.type === "hello") {
    T.hello = m;
    hintDone(); // asked on a connection that is gone: its answer never comes
    refreshHostView();
    return;
  }
  if (m.type === "chat" || m.type === "chat_log") {
    T.chat = m.type === "chat" ? [...T.chat, m].slice(-30) : m.messages;
    drawChat();
    if (m.type === "chat" && !(T.hello && m.place === T.hello.place)) noticeChat();
    return;
  }
  if (m.type === "state") {
    T.prev = T.state;
    T.state = m;
    T.pending = false;
    if (T.hintAsked !== null && T.hintAsked !== undefined && T.hintAsked !== m.seq) hintDone();
    if (T.hostView && (!T.prev || seatsKey(T.prev) !== seatsKey(m))) refreshHostView();
    if (T.prev && T.prev.seq !== m.seq) { T.hint = null; T.selectedCall = -1; }
    if (T.prev && T.prev.deal.phase !== m.deal.phase) T.selected = -1;
    T.clockEnd = m.clock ? Date.now() + m.clock.remaining * 1000 : null;
    noteTransitions();
    render();
    noticeTurn(myTurn());
    say(news(T.prev));
    return;
  }
  if (m.type === "hint") {
    hintDone();
    if (T.state && m.seq === T.state.seq) {
      T.hint = m;
      hideToast();
      render();
      showHint();
    }
    return;
  }
  if (m.type === "error") {
    T.pending = false;
    hintDone(); // a refusal's own words follow
    const who = (seat) => (T.state && T.state.table.seats[seat] ? nameOf(seat) : null);
    const text = errorText(m.code, m.params, m.message, who);
    if (m.code === "closed" || m.code === "left" || m.code === "revoked") {
      T.closed = true;
      if (m.code !== "closed" || !T.token) forgetSeat();
      const heading = m.code === "left" ? _("You left the table")
        : m.code === "revoked" ? _("Your seat was changed by the host") : _("The table is closed");
      T.root.innerHTML = `<div class="panel narrow"><h1>${heading}</h1>
        <p>${esc(text)}</p><p><a class="button primary" href="/">${_("Back to the lobby")}</a></p></div>`;
      return;
    }
    if (m.code === "bad_token") {
      localStorage.removeItem(`euchre.token.${T.id}`);
      T.token = null;
      toast(fmt(_("{problem} You are watching instead."), { problem: text }), 5000);
      connect();
      return;
    }
    if (m.code === "no_table" || m.code === "private") {
      T.closed = true;
      T.root.innerHTML = `<div class="panel narrow" id="table-refused"><h1>${m.code === "private" ? _("A private table") : _("No such table")}</h1>
        <p>${esc(text)}</p><p><a class="button primary" href="/">${_("Back to the lobby")}</a></p></div>`;
      return;
    }
    // a choice that crossed the table's next move is quietly dropped: the new state
    // shows what happened instead
    if (m.code === "stale") send({ type: "sync" });
    else toast(text, 5000);
    render();
  }
}

/** What the host's view depends on: who sits where, invited, here or a bot. */
function seatsKey(state) {
  return JSON.stringify(state.table.seats.map((x) => [x.kind, x.claimed, x.invited, x.connected, x.muted]))
    + state.table.started;
}

/** The host's view (its invitations), if this browser holds the table's host key. */
async function refreshHostView() {
  if (!T || !hostKey(T.id)) return;
  const id = T.id;
  const view = await loadHostView(id);
  if (!T || T.id !== id) return;
  T.hostView = view;
  T.topbar = null;
  render();
  const open = $("#overlay .host-dialog");
  if (view && open) { // an open dialog follows the table, scrolled where it was
    const top = open.scrollTop;
    openHostPanel();
    $("#overlay .host-dialog").scrollTop = top;
  }
}

/** The host's dialog, drawn from the host view the page holds. */
function openHostPanel() {
  showHostPanel(T.id, T.hostView, (view) => { T.hostView = view; T.topbar = null; render(); });
}

function drawChat() {
  const box = $("#chat-box");
  if (!box || !T || !T.state || T.puzzle) return;
  const s = T.state;
  const mine = s.you === null ? null : s.table.seats[s.you];
  const form = $("#chat-text");
  const typed = form ? form.value : "";
  const focused = document.activeElement === form;
  redraw(box, chatBox(T.chat, s.you !== null, Boolean(mine && mine.muted)));
  const again = $("#chat-text");
  if (again && typed) again.value = typed;
  if (again && focused) again.focus();
  const lines = $("#chat-lines");
  if (lines) lines.scrollTop = lines.scrollHeight;
}

function setBanner(text) {
  const page = $("#table-page");
  let banner = $("#banner");
  if (!text) { if (banner) banner.remove(); return; }
  if (!banner && page) {
    banner = document.createElement("div");
    banner.id = "banner";
    banner.className = "banner";
    ($("#table-main") || page).prepend(banner);
  }
  if (banner) banner.textContent = text;
}

// -- what changed: a finished trick to keep in view, a deal summary, the game's end ---------
function dealKey(s) {
  return `${s.table.match}.${s.game.index}.${s.game.deal}`;
}

function noteTransitions() {
  const s = T.state;
  const p = T.prev;
  const pace = PACES[T.pace];
  let finished = null;
  if (p && dealKey(p) === dealKey(s) && s.deal.tricks.length > p.deal.tricks.length) {
    finished = s.deal.tricks[s.deal.tricks.length - 1];
  } else if (p && dealKey(p) !== dealKey(s) && s.last_deal && p.deal.phase === "play") {
    const t = s.last_deal.tricks;
    if (t.length) finished = t[t.length - 1];
  }
  if (finished) {
    const now = Date.now();
    T.held = { trick: finished, start: now, gather: now + pace.hold, until: now + pace.hold + pace.collect };
    clearTimeout(T.holdTimer);
    T.holdTimer = setTimeout(() => {
      if (!T) return;
      render();
      T.holdTimer = setTimeout(() => { if (T) render(); }, pace.collect + 20);
    }, pace.hold + 10);
  }
  const last = s.last_deal;
  if (p && dealKey(p) !== dealKey(s) && last) {
    T.pastDeals.push(last.message);
    // the summary comes once the last trick is gathered
    openSummary(last, finished ? T.held.until : Date.now());
  } else if (!p && last) {
    // a page opened (or reloaded) mid-game: the deal in progress, with the last deal's
    // result in the log; the summary only if the table still waits for us to read it
    T.pastDeals.push(last.message);
    if (s.you !== null && s.reading.includes(s.you)) openSummary(last, Date.now());
  }
  // a summary the table does not wait for (a spectator's, or after the turn timer ran
  // out) goes once the next deal's play begins
  if (T.summary && !s.over && !(s.you !== null && s.reading.includes(s.you))
      && s.deal.phase === "play") {
    T.summary = null;
  }
  if (s.over && !(p && p.over)) {
    const key = `euchre.over.${T.id}.${s.table.match}`;
    if (!sessionStorage.getItem(key)) {
      sessionStorage.setItem(key, "1");
      // the deal summary first, then the game's end
      if (T.summary) T.gameOverPending = true;
      else if (!overlayOpen()) showGameOver();
    }
  }
}

function openSummary(last, at) {
  T.summary = last;
  T.summaryAt = at;
  clearTimeout(T.summaryTimer);
  const wait = at - Date.now();
  if (wait > 0) T.summaryTimer = setTimeout(() => { if (T) render(); }, wait + 10);
}

function summaryShown() {
  return T.summary !== null && Date.now() >= T.summaryAt;
}

function closeSummary() {
  if (!T.summary) return;
  T.summary = null;
  clearTimeout(T.summaryTimer);
  const s = T.state;
  if (s.you !== null && s.reading.includes(s.you)) send({ type: "continue" });
  render();
  if (T.gameOverPending) { T.gameOverPending = false; setTimeout(showGameOver, 50); }
}

function forgetSeat() {
  localStorage.removeItem(`euchre.token.${T.id}`);
  localStorage.removeItem(`euchre.joined.${T.id}`);
  localStorage.removeItem(`euchre.owner.${T.id}`);
}

function tickClock() {
  if (!T || !T.state) return;
  const left = T.clockEnd === null ? null : Math.max(0, Math.ceil((T.clockEnd - Date.now()) / 1000));
  $$("[data-clock]").forEach((el) => { el.textContent = left === null ? "" : fmt(_("{seconds} s"), { seconds: left }); });
}

// -- names and words ---------------------------------------------------------------------------
function names() {
  // a seat whose invitation is out has no name yet: the page words it
  return T.state.table.seats.map(seatName);
}

function nameOf(seat) {
  if (seat === null || seat === undefined) return _("nobody");
  return seat === T.state.you ? _("You") : names()[seat];
}

/** A seat's name inside a sentence: "you" for your own. */
function nameIn(seat) {
  return seat === T.state.you ? pgettext("in a sentence", "you") : names()[seat];
}

/** How an order is said by this seat: the dealer takes it up, its partner assists. */
function orderRole(seat) {
  const d = T.state.deal;
  if (seat === d.dealer) return "dealer";
  return seat === partnerOf(d.dealer) ? "assist" : "";
}

/** The last deal's outcome in a sentence, as you read it. */
function dealText(message) {
  return summaryText(message, nameIn);
}

/** The fixed partner of a seat (four-handed, opposite), as the server's rules say; else null. */
function partnerOf(seat) {
  return T.state.table.partners[seat];
}

function sides() {
  // four-handed: the first seat and its partner, the second seat and its partner
  return [[0, partnerOf(0)], [1, partnerOf(1)]];
}

function sideName(side) {
  const me = T.state.you;
  if (me !== null && side.includes(me)) {
    const partner = side.find((x) => x !== me);
    return fmt(_("You & {partner}"), { partner: names()[partner] });
  }
  return side.map((x) => names()[x]).join(" & ");
}

function suitWord(suit) {
  return SUITS[suit];
}

/** What the table waits for, by the deal's phase. */
function phaseText(phase) {
  return {
    bid_turnup: _("bidding on the turn-up"), bid_suit: _("naming trump"),
    name_trump: _("naming trump"), exchange: _("discarding"), dummy: _("discarding"),
    call_partner: _("calling a partner"), defend: _("deciding to defend alone"),
    play: _("playing a card"),
  }[phase] || "";
}

/** One bid or play as a line of the log, the doer in bold (HTML). */
function describeAction(action, seat) {
  const who = seat === T.state.you ? null : esc(names()[seat]);
  return actionSentence(action, who, orderRole(seat), cardText);
}

/** A choice as you would say it: "order it up alone", "play J♥". */
function choiceOf(action) {
  return choiceWords(action, orderRole(T.state.you), cardText);
}

function bubbleText(action) {
  if (action === null) return _("Discards");
  const w = action.split(" ");
  if (action === "pass") return _("Pass");
  if (w[0] === "order") return w[1] ? _("Order up, alone!") : _("Order up");
  if (w[0] === "trump") {
    return fmt(w[2] ? _("{suit} alone!") : _("{suit} trump"), { suit: SUIT_SYMBOL[w[1]] });
  }
  if (w[0] === "discard") return _("Discards");
  if (w[0] === "call") return fmt(_("Calls {card}"), { card: cardText(w[1]) });
  if (action === "defend alone") return _("Defends alone!");
  return "";
}

// -- drawing -----------------------------------------------------------------------------------
function render() {
  if (!T || !T.state) return;
  const s = T.state;
  const page = $("#table-page");
  if (!page) return;
  if (!T.puzzle) renderTopbar();
  const n = s.table.rules.players;
  const me = s.you === null ? 0 : s.you;
  const pos = positionsFor(n);
  const focused = document.activeElement;
  const seatPos = (seat) => pos[(seat - me + n) % n];
  if (!$("#table-main", page)) {
    // the page is built once; each part is redrawn only when what it shows changes, so a
    // button under the pointer stays put while the others play
    page.innerHTML = `
      <div class="table-main" id="table-main">
        <div id="invites-top"></div>
        <div class="statusbar" id="statusbar"></div>
        <div class="felt-wrap"><div class="felt" id="felt"></div></div>
        <div class="controls" id="controls"></div>
        <section class="hand-row" id="hand" tabindex="-1" ${attr("aria-label", _("Your hand"))}></section>
      </div>
      <aside class="side" id="side"><div id="side-top"></div>
        <h2 class="log-title" id="log-title">${_("Bids and plays")}</h2>
        <ol class="log" id="log" tabindex="0" aria-labelledby="log-title"></ol>
        <section class="chat-box" id="chat-box"></section></aside>
      <div class="sr-only" id="table-status" role="status" aria-live="polite" aria-atomic="false"
        aria-relevant="additions"></div>`;
    wire(page);
    page.addEventListener("focusin", pickFocused);
    wireChat($("#chat-box", page), send);
  }
  $("#felt", page).className = `felt players-${n}`;
  redraw($("#statusbar", page), scoreboard() + chips());
  redraw($("#felt", page), `
    ${Array.from({ length: n }, (_, seat) => seatBox(seat, seatPos(seat))).join("")}
    <div class="center" id="center">${center(seatPos)}</div>
    ${summaryShown() ? summaryPanel() : ""}
    ${T.hint ? `<div class="hint-on-felt">${hintPanel()}</div>` : ""}
    ${s.table.started === false ? waitingRoom(s, Boolean(T.hostView)) : ""}`);
  redraw($("#controls", page), controls());
  redraw($("#hand", page), hand());
  redraw($("#side-top", page), sideTop());
  redraw($("#invites-top", page), narrow() ? invitePanel() : "");
  const log = $("#log", page);
  if (redraw(log, logLines())) log.scrollTop = log.scrollHeight;
  drawChat();
  page.classList.toggle("spectating", s.you === null);
  tickClock();
  holdFocus(focused);
}

const drawn = new WeakMap(); // what each part of the page was last drawn from

/**
 * Keep the keyboard's place across a redraw (`before`: what had the focus).  The parts are
 * drawn in place, so a card or control that stays keeps the focus; where it is gone (the
 * card you played, the button of a choice made) or nothing had it (a table just made),
 * the focus goes to your hand: the card at the same place, else the first you may play.
 * A deal's summary, when it comes, takes it on its button.
 */
function holdFocus(before) {
  if (overlayOpen() || T.state.you === null) return;
  const next = $("#summary-continue");
  if (next && next !== T.summaryButton) {
    T.summaryButton = next;
    focusFirst(next);
    return;
  }
  if (!next) T.summaryButton = null;
  const now = document.activeElement;
  if (now && now !== document.body && now !== T.root && now.isConnected) return;
  if (before && before !== document.body && before !== T.root && before.isConnected) {
    focusFirst(before);
    return;
  }
  const cards = $$("#hand .hand-card");
  const at = before && before.dataset && before.dataset.index !== undefined
    ? Math.min(Number(before.dataset.index), cards.length - 1) : -1;
  const sameSpot = at >= 0 && cards[at].matches(".legal, :not(.dimmed)") ? cards[at] : null;
  // the hand itself where it holds no card (the deal's last trick is being gathered)
  focusFirst(next, sameSpot, $("#hand .hand-card.legal"), cards[Math.max(at, 0)],
    $("#controls button:not([disabled])"), $("#controls a"), $("#hand"));
}

/** Draw an element's content again, in place, if it changed; says whether it did. */
function redraw(el, html) {
  if (drawn.get(el) === html) return false;
  patch(el, html);
  applyStyles(el);
  drawn.set(el, html);
  return true;
}

function renderTopbar() {
  const s = T.state;
  const r = s.table.rules;
  const middle = `<span class="table-title">${esc(tableName(s.table.name, r.players))}</span>
    <span class="muted small-hide">${esc(fmt(_("{variant} · to {target}"), { variant: VARIANT_NAMES()[r.players], target: r.target }))}</span>`;
  // the tools a phone keeps in its bar (the hint, the invitations); the others go in the
  // menu there, and stand in the bar on a wide screen
  const tools = `
    ${s.table.hint && s.you !== null && !s.over ? `<button class="tool" id="tool-hint" ${attr("title", _("Ask the expert bot (I)"))}>${_("Hint")}</button>` : ""}
    ${invites().length ? `<button class="tool" id="tool-invite" ${attr("title", _("Invitation links"))}>${_("Invite")}</button>` : ""}
    ${T.hostView ? `<button class="tool" id="tool-host" ${attr("title", _("The host's powers: invitations, bots, timer"))}>${_("Host")}</button>` : ""}
    ${s.table.watching ? `<span class="muted small watchers small-hide" id="watchers">${esc(fmt(ngettext("{count} watching", "{count} watching", s.table.watching), { count: s.table.watching }))}</span>` : ""}`;
  const sound = soundOn();
  const menu = `
    <button class="tool" id="tool-last" ${attr("title", _("Show the last trick (L)"))}>${_("Last trick")}</button>
    ${s.you !== null ? `<button class="tool" id="tool-leave" ${attr("title", _("Leave this table"))}>${_("Leave")}</button>` : ""}
    ${s.over ? `<a class="tool" href="${gameURL(T.id, s.table.match, "record")}" download>${_("Record")}</a>` : ""}
    <button class="tool" id="tool-sound" data-keep-menu aria-pressed="${sound}" ${attr("title", _("A sound when it becomes your turn while this tab is hidden"))}>
      ${speakerSVG(sound)}<span class="menu-label">${_("Sound on your turn")}</span></button>
    <button class="tool" id="tool-keys" ${attr("title", _("Keyboard shortcuts (?)"))} ${attr("aria-label", _("Keyboard shortcuts"))}><span aria-hidden="true">?</span><span class="menu-label">${_("Keyboard shortcuts")}</span></button>`;
  // drawn again only when it changes: a tool in focus, or the open menu, stays as it is
  const bar = middle + tools + menu;
  if (T.topbar === bar && $("#tool-last")) return;
  T.topbar = bar;
  setTopbar(middle, tools, menu);
  setRulesVariant(r.players);
  $("#tool-last").onclick = showLastTrick;
  $("#tool-keys").onclick = showKeys;
  $("#tool-sound").onclick = toggleSound;
  const hint = $("#tool-hint");
  if (hint) hint.onclick = askHint;
  const host = $("#tool-host");
  if (host) host.onclick = openHostPanel;
  const inv = $("#tool-invite");
  if (inv) inv.onclick = showInvites;
  const leave = $("#tool-leave");
  if (leave) leave.onclick = askToLeave;
}

function scoreboard() {
  const s = T.state;
  const r = s.table.rules;
  const g = s.game;
  let rows;
  if (r.players === 4) {
    const markers = T.markers && r.target === 5;
    rows = sides().map((side, k) => `
      <div class="score-row ${s.you !== null && side.includes(s.you) ? "ours" : ""}">
        <span class="score-name">${esc(sideName(side))}</span>
        ${markers ? `<span class="score-marker">${markerSVG(g.scores[side[0]], k ? "H" : "S")}</span>` : ""}
        <span class="score-value">${g.scores[side[0]]}</span>
      </div>`).join("");
  } else {
    rows = g.scores.map((v, seat) => `
      <div class="score-row ${seat === s.you ? "ours" : ""}">
        <span class="score-name">${esc(nameOf(seat))}</span>
        <span class="score-value">${v}</span></div>`).join("");
  }
  const rubber = s.rubber ? `<div class="score-extra">${esc(fmt(_("Rubber: games {games}"), { games: s.rubber.games_won.join("–") }))}</div>` : "";
  const bridge = g.bridge !== null && g.bridge !== undefined
    ? `<div class="score-extra">${esc(fmt(_("{side} at the bridge"), { side: sideName(sides()[g.bridge]) }))}</div>` : "";
  const toggle = r.players === 4 && r.target === 5
    ? `<button class="link small" id="toggle-markers">${T.markers ? _("numbers") : _("card markers")}</button>` : "";
  return `<div class="scoreboard ${T.markers && r.players === 4 && r.target === 5 ? "with-markers" : ""}" ${attr("aria-label", _("Score"))}>
    <div class="score-title">${_("Score")} <small>${esc(fmt(_("to {target}"), { target: r.target }))}</small> ${toggle}</div>
    ${rows}${rubber}${bridge}</div>`;
}

function chips() {
  const d = T.state.deal;
  const out = [];
  if (d.trump) {
    const maker = d.maker === null ? "" : esc(d.alone ? fmt(_("{name} alone"), { name: nameOf(d.maker) }) : nameOf(d.maker));
    out.push(`<div class="chip trump-chip ${isRed(d.trump) ? "red" : "black"}">
      ${suitIcon(d.trump)} <span>${_("Trump")} <b>${suitWord(d.trump)}</b><br><small class="chip-name">${maker}</small></span></div>`);
  }
  if (d.called) {
    const partner = d.partner !== null ? esc(nameOf(d.partner)) : _("secret");
    out.push(`<div class="chip">${esc(fmt(_("Called {card}"), { card: cardText(d.called) }))}<br><small>${fmt(esc(_("partner: {name}")), { name: partner })}</small></div>`);
  }
  if (d.lone_defender !== null) {
    out.push(`<div class="chip">${actionSentence("defend alone", d.lone_defender === T.state.you ? null : esc(names()[d.lone_defender]))}</div>`);
  }
  if (d.phase === "play" || d.tricks.length) {
    out.push(`<div class="chip tricks-chip" ${attr("aria-label", _("Tricks this deal"))}><span>${_("Tricks")}<br>
      <small>${trickTally().map(([who, k]) => `<span class="tally"><span class="tally-name">${esc(who)}</span> <b>${k}</b></span>`).join(" · ")}</small></span></div>`);
  }
  return `<div class="chips">${out.join("")}</div>`;
}

/** Tricks won so far this deal by each side: [[who, tricks], …]. */
function trickTally() {
  const s = T.state;
  const d = s.deal;
  const n = s.table.rules.players;
  const won = d.tricks_won;
  if (n === 4) return sides().map((side) => [sideName(side), won[side[0]] + won[side[1]]]);
  if (n === 2 || d.maker === null) return won.map((k, seat) => [nameOf(seat), k]);
  // three- and five-handed: the maker's side and the rest.  Five-handed, the called
  // card's holder joins the maker once that card is played (RULES §12): until then
  // every seat but the maker's, the secret partner's among them, counts as "the others",
  // even on the partner's own page, so that nothing shows who it is
  const sum = (list) => list.reduce((t, seat) => t + won[seat], 0);
  const label = (list) => list.map(nameOf).join(" & ");
  const seats = won.map((_, seat) => seat).filter((seat) => !d.sitting_out.includes(seat));
  if (n === 5 && d.called && !d.revealed) {
    const rest = seats.filter((seat) => seat !== d.maker);
    return [[`${nameOf(d.maker)} ${_("(partner secret)")}`, won[d.maker]],
      [_("the others"), sum(rest)]];
  }
  const makers = d.makers;
  const others = seats.filter((seat) => !makers.includes(seat));
  return [[label(makers), sum(makers)], [label(others), sum(others)]];
}

function lastEventOf(seat) {
  const d = T.state.deal;
  for (let i = d.events.length - 1; i >= 0; i -= 1) {
    const e = d.events[i];
    if (e.seat === seat) {
      if (e.action && e.action.startsWith("play")) return null;
      return e;
    }
  }
  return null;
}

function seatBox(seat, pos) {
  const s = T.state;
  const d = s.deal;
  const info = s.table.seats[seat];
  const out = d.sitting_out.includes(seat);
  const toMove = d.to_move === seat && !s.over;
  const count = d.hand_sizes[seat];
  const badges = [];
  if (d.dealer === seat) badges.push(`<span class="badge dealer" ${attr("title", _("dealer"))}>${_("Dealer")}</span>`);
  if (d.maker === seat) badges.push(`<span class="badge maker">${d.alone ? _("Maker, alone") : _("Maker")}</span>`);
  if (d.partner === seat && d.partner !== d.maker) badges.push(`<span class="badge">${_("Partner")}</span>`);
  if (d.lone_defender === seat) badges.push(`<span class="badge">${_("Alone")}</span>`);
  if (out) badges.push(`<span class="badge out">${_("Sits out")}</span>`);
  if (info.away) badges.push(`<span class="badge away" ${attr("title", _("a bot plays this seat for now"))}>${_("Bot plays")}</span>`);
  if (s.clock && s.clock.seat === seat) badges.push(`<span class="badge clock" data-clock ${attr("title", _("turn timer"))}></span>`);
  const ev = d.phase !== "play" || d.trick.length === 0 ? lastEventOf(seat) : null;
  const bubble = ev && d.phase !== "play" ? `<div class="bubble">${esc(bubbleText(ev.action))}</div>` : "";
  const who = info.kind === "bot" ? `<small ${attr("title", botNote(info.bot))}>${esc(fmt(_("Bot: {level}"), { level: botLabel(info.bot) }))}</small>` : "";
  const presence = info.kind === "bot" ? "" : `<span class="dot ${info.connected ? "on" : ""}"
    ${attr("title", info.connected ? _("connected") : _("away"))}></span>`;
  const backs = seat === s.you || count <= 0 ? "" : `<div class="backs" role="img" ${attr("aria-label", fmt(ngettext("{count} card", "{count} cards", count), { count }))}>
    ${Array.from({ length: Math.min(count, 10) }, () => backSVG("mini")).join("")}</div>`;
  const tricks = d.tricks_won[seat];
  return `<section class="seat pos-${pos} ${toMove ? "to-move" : ""} ${out ? "out" : ""} ${seat === s.you ? "me" : ""}"
      data-seat="${seat}" aria-labelledby="seat-name-${seat}">
    ${bubble}
    <div class="seat-name">${presence}<span id="seat-name-${seat}">${esc(nameOf(seat))}</span> ${who}</div>
    <div class="seat-badges">${badges.join("")}${tricks ? `<span class="badge tricks">${esc(fmt(ngettext("{count} trick", "{count} tricks", tricks), { count: tricks }))}</span>` : ""}</div>
    ${backs}
  </section>`;
}

function center(seatPos) {
  const s = T.state;
  const d = s.deal;
  let trick = d.trick;
  let winner = null;
  let gather = null;
  const held = T.held;
  const now = Date.now();
  // a finished trick stays in view at the player's pace, then is gathered to its winner;
  // the next trick's cards wait until then (your own card shows at once)
  if (held && now < held.until) {
    trick = held.trick.cards;
    winner = held.trick.winner;
    if (now >= held.gather) {
      const [x, y] = GATHER_TO[seatPos(winner)];
      gather = `--to-x:${x}%;--to-y:${y}%;animation-duration:${PACES[T.pace].collect}ms;`
        + `animation-delay:-${now - held.gather}ms;`;
    }
  }
  if (trick.length) {
    return trick.map((c, i) => {
      const cls = ["trick-card", `tpos-${seatPos(c.seat)}`, c.seat === winner ? "winner" : "",
        gather ? "gathering" : ""].join(" ");
      return `<div class="${cls}" data-style="${gather || ""}z-index:${i + 4}" data-seat="${c.seat}">
        ${cardSVG(c.card)}<span class="trick-who">${esc(nameOf(c.seat))}</span></div>`;
    }).join("");
  }
  if (d.phase === "bid_turnup" || d.phase === "name_trump") {
    return `<div class="turnup"><div class="turnup-label">${_("Turn-up")}</div>${cardSVG(d.turnup)}</div>`;
  }
  if (d.phase === "bid_suit") {
    return `<div class="turnup down"><div class="turnup-label">${esc(fmt(_("Turned down: {card}"), { card: cardText(d.turnup) }))}</div>
      ${backSVG()}</div>`;
  }
  if (s.over) {
    return `<div class="center-note">${_("Game over")}</div>`;
  }
  if (d.phase === "exchange") {
    const params = { name: esc(names()[d.dealer]), the_card: esc(theCard(d.turnup)) };
    const note = d.dealer === s.you ? fmt(esc(_("You take up {the_card}")), params)
      : fmt(esc(_("{name} takes up {the_card}")), params);
    return `<div class="center-note">${note}</div>`;
  }
  return "";
}

// where the cards of a trick go when its winner gathers them, in % of the middle area
const GATHER_TO = {
  bottom: [50, 120], top: [50, -20], left: [-15, 50], right: [115, 50],
  "left-top": [-10, 10], "right-top": [110, 10], "top-left": [25, -20], "top-right": [75, -20],
};

function turnupSuit() {
  const d = T.state.deal;
  if (d.turnup !== "JK") return d.turnup[1];
  return T.state.table.rules.joker_turnup.slice(5); // "suit:H": the joker stands for it
}

function legalSet(prefix) {
  return new Set(T.state.deal.legal.filter((a) => a.startsWith(prefix)).map((a) => a.split(" ")[1]));
}

function myTurn() {
  const s = T.state;
  // the next deal begins once the last one's summary is read
  return s.you !== null && !s.over && s.deal.to_move === s.you && s.deal.legal.length > 0
    && T.summary === null;
}

function hintedAction() {
  return T.hint ? T.hint.action : null;
}

function controls() {
  const s = T.state;
  const d = s.deal;
  if (s.table.started === false) {
    return `<div class="prompt">${esc(_("Waiting for the players"))}</div>
      ${T.hostView ? `<div class="buttons"><button class="primary" data-cmd="host-start">${_("Start now")}</button></div>` : ""}`;
  }
  if (s.over) {
    return `<div class="prompt"><b>${esc(gameOverTitle())}</b></div>
      <div class="buttons">
        ${s.you !== null ? `<button class="primary" data-cmd="rematch">${_("Rematch")} <kbd>R</kbd></button>` : ""}
        ${s.you !== null && T.token ? `<button data-cmd="review">${_("Review my decisions")}</button>` : ""}
        <a class="button" href="${gameURL(T.id, s.table.match, "record")}" download>${_("Download record")}</a>
        <a class="button" href="/history/${T.id}/${s.table.match}">${_("Replay deal by deal")}</a>
        <a class="button" href="/">${_("Lobby")}</a>
      </div>`;
  }
  const me = s.you === null ? null : s.table.seats[s.you];
  if (me && me.away) {
    return `<div class="prompt away-note">${_("A bot is playing your seat: the turn timer ran out.")}</div>
      <div class="buttons"><button class="primary" data-cmd="reclaim">${_("Take my seat back")}</button></div>`;
  }
  const clock = s.clock && s.clock.seat === s.you && s.you !== null
    ? ` <span class="clock" ${attr("title", _("turn timer"))}>${fmt(esc(_("{time} left")), { time: "<span data-clock></span>" })}</span>` : "";
  if (T.summary !== null && !s.over) {
    return s.you !== null && s.reading.includes(s.you)
      ? `<div class="prompt waiting">${_("The deal is over: the next one begins when you have read its summary.")}</div>`
      : `<div class="prompt waiting">${_("The deal is over.")}</div>`;
  }
  if (T.puzzle && !myTurn()) return ""; // a puzzle answered: its judgement says the rest
  if (!myTurn()) {
    const spect = s.you === null ? `<span class="watching">${_("Watching")}</span> ` : "";
    const readers = s.reading.filter((x) => x !== s.you);
    if (readers.length) {
      const params = { names: `<b>${esc(joinNames(readers.map(nameOf)))}</b>` };
      const waiting = fmt(esc(_("Waiting for {names} to read the deal's summary…")), params);
      return `<div class="prompt waiting">${spect}${waiting}</div>`;
    }
    const who = d.to_move === null ? "" : nameOf(d.to_move);
    const params = { name: `<b>${esc(who)}</b>`, phase: esc(phaseText(d.phase)) };
    const waiting = who ? fmt(esc(_("Waiting for {name} ({phase})…")), params) : "";
    return `<div class="prompt waiting">${spect}${waiting}</div>`;
  }
  const legal = d.legal;
  const hinted = hintedAction();
  const hintCls = (a) => (hinted === a ? " hinted" : "");
  const btn = (action, label, key, extra = "") => legal.includes(action)
    ? `<button class="${extra}${hintCls(action)}" ${attr("data-act", action)} ${T.pending ? "disabled" : ""}>${label}${key ? ` <kbd>${key}</kbd>` : ""}</button>` : "";
  const dis = T.pending ? "disabled" : "";
  switch (d.phase) {
    case "bid_turnup": {
      const isDealer = s.you === d.dealer;
      const partnerOfDealer = s.you !== null && s.you === partnerOf(d.dealer);
      const order = isDealer ? _("Take it up") : partnerOfDealer ? _("Assist") : _("Order it up");
      const orderAlone = isDealer ? _("Take it up alone") : partnerOfDealer ? _("Assist alone") : _("Order it up alone");
      const bid = fmt(esc(_("Your bid: make {suit} trump?")), { suit: `<b>${suitWord(turnupSuit())}</b>` });
      return `<div class="prompt">${bid}${clock}</div>
        <div class="buttons">${btn("pass", _("Pass"), "P")}${btn("order", order, "O")}
        ${btn("order alone", orderAlone, "A")}</div>`;
    }
    case "bid_suit":
    case "name_trump": {
      const suits = SUIT_ORDER.filter((x) => legal.includes(`trump ${x}`));
      const aloneOk = suits.some((x) => legal.includes(`trump ${x} alone`));
      const alone = aloneOk && T.aloneToggle;
      const prompt = d.phase === "name_trump"
        ? _("The joker was turned up: name trump.")
        : legal.includes("pass") ? _("Name a suit as trump, or pass.") : _("Stick the dealer: you must name trump.");
      return `<div class="prompt">${prompt}${clock}</div>
        <div class="buttons">
          ${btn("pass", _("Pass"), "P")}
          ${suits.map((x) => {
    const a = `trump ${x}${alone ? " alone" : ""}`;
    const lit = hinted === `trump ${x}` || hinted === `trump ${x} alone` ? " hinted" : "";
    return `<button class="suit-btn ${isRed(x) ? "red" : "black"}${lit}" data-act="${a}" ${dis}>
              ${suitIcon(x)} ${SUITS[x]} <kbd>${x}</kbd></button>`;
  }).join("")}
          ${aloneOk ? `<label class="check inline"><input type="checkbox" id="alone-toggle" ${T.aloneToggle ? "checked" : ""}> ${_("alone")} <kbd>A</kbd></label>` : ""}
        </div>`;
    }
    case "exchange":
      return `<div class="prompt">${esc(fmt(s.table.rules.dealer_must_take_up
        ? _("You took up {the_card}: discard one card face down (not the turn-up).")
        : _("You took up {the_card}: discard one card face down (discarding the turn-up declines it)."),
      { the_card: theCard(d.turnup) }))}${clock}</div>`;
    case "dummy": {
      const left = d.hand.length - 5;
      const what = left === 5 ? _("discard five cards")
        : fmt(ngettext("discard {count} more card", "discard {count} more cards", left), { count: left });
      const prompt = fmt(esc(_("You took up the dummy (its cards are marked in gold): {what}, one at a time, keeping your best five.")),
        { what: `<b>${esc(what)}</b>` });
      return `<div class="prompt">${prompt}${clock}</div>`;
    }
    case "call_partner":
      return `<div class="prompt">${_("Call your partner: name a card you do not hold; its holder is your secret partner.")}${clock}</div>
        <div class="call-grid">${callGrid()}</div>`;
    case "defend":
      return `<div class="prompt">${esc(fmt(_("Defend alone against {name}?"), { name: nameOf(d.maker) }))}${clock}</div>
        <div class="buttons">${btn("pass", _("No, pass"), "P")}${btn("defend alone", _("Defend alone"), "A")}</div>`;
    case "play": {
      const leading = d.trick.length === 0;
      return `<div class="prompt">${leading ? _("Your lead.") : _("Your turn: play a card.")}${clock}</div>`;
    }
    default:
      return "";
  }
}

/** The cards you may call as your partner, grouped by suit as they follow once trump is
 * fixed (the left bower is a trump, RULES §2), high to low: the order the keys move in. */
function callOrder() {
  const trump = T.state.deal.trump;
  const left = trump ? `J${{ C: "S", S: "C", D: "H", H: "D" }[trump]}` : null;
  const groupOf = (c) => (c === "JK" || c === left ? trump : c[1]);
  const rank = (c) => {
    if (c === "JK") return -3;
    if (trump && c === `J${trump}`) return -2;
    if (c === left) return -1;
    return "AKQJT987".indexOf(c[0]);
  };
  const bySuit = {};
  for (const c of legalSet("call ")) (bySuit[groupOf(c)] = bySuit[groupOf(c)] || []).push(c);
  const suits = [trump, ...SUIT_ORDER.filter((x) => x !== trump)].filter((x) => bySuit[x]);
  return suits.map((suit) => [suit, bySuit[suit].sort((a, b) => rank(a) - rank(b))]);
}

function callGrid() {
  const order = callOrder().flatMap(([, cards]) => cards);
  const picked = T.selectedCall >= 0 ? order[T.selectedCall] : null;
  const hinted = hintedAction();
  // a rank alone within its suit; the joker and the left bower, grouped with trump, in full
  const label = (c, suit) => (c === "JK" ? "Joker" : c[1] === suit ? cardText(c).slice(0, -1) : cardText(c));
  return callOrder().map(([suit, cards]) => `<div class="call-suit ${isRed(suit) ? "red" : "black"}">
    ${suitIcon(suit)}${cards.map((c) => `
      <button class="call-card${hinted === `call ${c}` ? " hinted" : ""}${picked === c ? " selected" : ""}" data-act="call ${c}"
        ${attr("title", fmt(_("call {the_card}"), { the_card: theCard(c) }))} ${attr("aria-label", fmt(_("call {the_card}"), { the_card: theCard(c) }))} ${T.pending ? "disabled" : ""}>${esc(label(c, suit))}</button>`).join("")}
  </div>`).join("");
}

function hand() {
  const s = T.state;
  const d = s.deal;
  if (s.you === null) return `<p class="muted center-text">${_("You are watching: only public cards are shown.")}</p>`;
  if (s.table.started === false) return ""; // the waiting room: no cards before the game begins
  const cards = d.hand || [];
  if (!cards.length) return "";
  const turn = myTurn();
  let legal = new Set();
  let verb = "";
  if (turn && d.phase === "play") { legal = legalSet("play "); verb = "play"; }
  if (turn && (d.phase === "exchange" || d.phase === "dummy")) { legal = legalSet("discard "); verb = "discard"; }
  // a card clicked out of turn or against the rules goes to the server anyway: its
  // refusal says why
  const tried = d.phase === "play" ? "play" : d.phase === "exchange" || d.phase === "dummy" ? "discard" : "";
  const dummy = new Set(d.dummy || []);
  const count = cards.length;
  const overlap = count > 7 ? "tight" : count > 5 ? "snug" : "";
  return `<div class="hand ${overlap}" data-style="--count:${count}">${cards.map((c, i) => {
    const ok = legal.has(c);
    const cls = [turn && verb ? (ok ? "legal" : "dimmed") : "", i === T.selected && ok ? "selected" : "",
      hintedAction() === `${verb} ${c}` ? "hinted" : "", dummy.has(c) ? "from-dummy" : "",
      d.phase === "exchange" && c === d.turnup ? "from-turnup" : ""].join(" ");
    const key = i < KEYS.length ? KEYS[i] : "";
    const label = ok ? handLabel(verb, c) : cardName(c);
    // named by its content: what it does, then what is seen on it (its key, a tag), so
    // that a player who says what they see names it
    return `<button class="hand-card ${cls}" data-card="${c}" data-index="${i}"
        ${ok && !T.pending ? `data-act="${verb} ${c}"` : !ok && tried && !s.over ? attr("data-try", `${tried} ${c}`) : 'aria-disabled="true"'}>
      ${cardSVG(c, "", 'aria-hidden="true"')}<span class="sr-only">${esc(label)}</span>${key && ok ? `<kbd class="card-key">${key}</kbd>` : ""}
      ${dummy.has(c) ? `<span class="card-tag">${_("dummy")}</span>` : ""}
      ${d.phase === "exchange" && c === d.turnup ? `<span class="card-tag">${_("turn-up")}</span>` : ""}
    </button>`;
  }).join("")}</div>`;
}

/** A card of your hand you may play or discard, as a screen reader says it. */
function handLabel(verb, card) {
  const params = { the_card: theCard(card) };
  return fmt(verb === "play" ? _("play {the_card}") : _("discard {the_card}"), params);
}

/** What the status line says of a new state, after `p` (null: the first one): the bids and
 * plays since, each card named in words ("Dot plays the nine of hearts"), each trick's
 * winner, a deal's result, the game's end, and your turn, as the page shows it. */
function news(p) {
  const s = T.state;
  const d = s.deal;
  const lines = [];
  const inWords = (code) => (code.length === 2 ? theCard(code) : code); // not "alone", "H"
  const told = (action, seat) => `${spokenText(actionSentence(action,
    seat === s.you ? null : esc(names()[seat]), orderRole(seat), inWords))}.`;
  const won = (number, seat) => `${trickWon(number, seat)}.`;
  const events = (list, tricks) => {
    for (const e of list) {
      lines.push(told(e.action, e.seat));
      if (e.trick != null && tricks[e.trick]) lines.push(won(e.trick + 1, tricks[e.trick].winner));
    }
  };
  if (p && dealKey(p) === dealKey(s)) {
    events(d.events.slice(p.deal.events.length), d.tricks);
  } else if (p && s.last_deal) {
    // the deal that ended: its last trick's cards not yet seen, its winner, its result
    const last = s.last_deal;
    const trick = last.tricks[last.tricks.length - 1];
    if (trick && p.deal.phase === "play" && last.tricks.length > p.deal.tricks.length) {
      const seen = new Set(p.deal.trick.map((c) => c.seat));
      for (const c of trick.cards) if (!seen.has(c.seat)) lines.push(told(`play ${c.card}`, c.seat));
      lines.push(won(last.tricks.length, trick.winner));
    }
    lines.push(dealText(last.message));
  }
  if (s.over && !(p && p.over)) lines.push(gameOverTitle());
  if (!s.over && (!p || dealKey(p) !== dealKey(s)) && d.turnup) {
    lines.push(`${spokenText(logHead(cardName))}.`);
    if (p) events(d.events, d.tricks);
  }
  if (myTurn() && T.turnSaid !== s.seq) {
    T.turnSaid = s.seq;
    const prompt = $("#controls .prompt");
    if (prompt) {
      const words = prompt.cloneNode(true);
      for (const clock of words.querySelectorAll(".clock")) clock.remove();
      lines.push(words.textContent.replace(/\s+/g, " ").trim());
    }
  }
  return lines;
}

/** "Trick 2 to Ann", "Trick 3 to you". */
function trickWon(number, seat) {
  const params = { number, name: names()[seat] };
  return seat === T.state.you ? fmt(_("Trick {number} to you"), params)
    : fmt(_("Trick {number} to {name}"), params);
}

/** The deal's first line in the log: who deals, the turn-up (HTML). */
function logHead(card = cardText) {
  const s = T.state;
  const d = s.deal;
  return d.dealer === s.you
    ? esc(fmt(_("Deal {number}: you deal; turn-up {card}"), { number: s.game.deal + 1, card: card(d.turnup) }))
    : esc(fmt(_("Deal {number}: {name} deals; turn-up {card}"), { number: s.game.deal + 1, name: names()[d.dealer], card: card(d.turnup) }));
}

function logLines() {
  const s = T.state;
  const d = s.deal;
  if (s.table.started === false) return "";
  const lines = T.pastDeals.slice(-6).map((m) => `<li class="past">${esc(dealText(m))}</li>`);
  if (s.game.draw && s.game.index === 0 && s.game.deal === 0) {
    lines.push(`<li class="past">${drawText()}</li>`);
  }
  lines.push(`<li class="deal-head">${logHead()}</li>`);
  for (const e of d.events) {
    lines.push(`<li>${describeAction(e.action, e.seat)}</li>`);
    // the play that completed a trick carries its number (the deal's record of it)
    if (e.trick != null && d.tricks[e.trick]) {
      lines.push(`<li class="trick-won">${esc(trickWon(e.trick + 1, d.tricks[e.trick].winner))}</li>`);
    }
  }
  return lines.join("");
}

function drawText() {
  const s = T.state;
  const draw = s.game.draw;
  const seats = s.table.seats;
  const placeName = (p) => { const x = seats.find((y) => y.place === p); return x ? x.name : fmt(_("player {number}"), { number: p + 1 }); };
  const rounds = draw.rounds.map((row, k) => `${k ? _("again:") + " " : ""}${row.map((c, p) => (c ? `${esc(placeName(p))} ${cardText(c)}` : null)).filter(Boolean).join(", ")}`);
  return fmt(esc(_("The draw: {rounds}. The two lowest play the two highest; the lowest deals.")), { rounds: rounds.join("; ") });
}

/** The invitation links of a table you just created, each to share (where the browser
 * has the Web Share API, a phone's) or to copy. */
function invitePanel() {
  const inv = invites();
  if (!inv.length || T.invitesDismissed) return "";
  const share = typeof navigator.share === "function";
  const host = hostKey(T.id) ? hostLink(T.id) : null;
  return `<section class="invite-box" id="invite-box" ${attr("aria-label", _("Invite friends"))}>
    <b>${_("Invite friends")}</b> <button class="link small" id="dismiss-invites">${_("hide")}</button>
    ${inv.map((x) => `<div class="invite">${esc(fmt(_("Seat {number}:"), { number: x.place + 1 }))}
      <input readonly ${attr("value", location.origin + x.url)} ${attr("aria-label", fmt(_("invitation link for seat {number}"), { number: x.place + 1 }))}>
      ${share ? `<button class="small share primary" ${attr("data-share", location.origin + x.url)}>${_("Share")}</button>` : ""}
      <button class="small copy" ${attr("data-copy", location.origin + x.url)}>${_("Copy")}</button></div>`).join("")}
    ${host ? `<div class="invite host-link">${esc(_("Your host link: keep it to get back in, from any device."))}
      <input readonly ${attr("value", host)} ${attr("aria-label", _("Host link:"))}>
      <button class="small copy" ${attr("data-copy", host)}>${_("Copy")}</button></div>` : ""}</section>`;
}

/** Whether the page is one column (the log below the table): the invitations then go
 * above the table, on the first screen. */
function narrow() {
  return T.narrow ? T.narrow.matches : false;
}

function sideTop() {
  if (T.puzzle) return "";
  const invitesHere = narrow() ? "" : invitePanel();
  const pace = `<div class="pace" role="group" ${attr("aria-label", _("Trick pace"))}>
    <span class="pace-title">${_("Trick pace")}</span>
    <div class="segmented small">${Object.keys(PACES).map((k) => `<label><input type="radio" name="pace"
      value="${k}" ${k === T.pace ? "checked" : ""}><span data-pace="${k}">${PACE_WORDS()[k]}</span></label>`).join("")}</div></div>`;
  const hint = T.hint ? `<div class="hint-in-side">${hintPanel()}</div>` : "";
  return `${invitesHere}${hint}${pace}`;
}

// A hint asked for with the hand scrolled into view (a phone) would open above the
// fold: bring the panel shown (over the felt, or in the side column) into view.
function showHint() {
  const shown = [...document.querySelectorAll(".hint-on-felt, .hint-in-side")]
    .find((el) => el.getClientRects().length > 0);
  if (shown) shown.scrollIntoView({ block: "nearest" });
}

/** The expert's hint: its choice, why, and the value of every legal choice. */
function hintPanel() {
  const h = T.hint;
  const values = h.values.map((v) => v.value);
  const top = Math.max(...values);
  const low = Math.min(...values);
  const span = Math.max(top - low, 0.01);
  const rows = h.values.map((v) => `<li class="${v.action === h.action ? "best" : ""}">
      <span class="hint-choice">${esc(choiceText(v.action))}</span>
      <span class="hint-bar"><span data-style="width:${Math.round(8 + 92 * (v.value - low) / span)}%"></span></span>
      <span class="hint-value">${v.value >= 0 ? "+" : "−"}${number(Math.abs(v.value), 2)}</span></li>`).join("");
  const words = (v) => ({ words: choiceOf(v.action), value: v.value });
  const reason = h.reason_params && h.values.length
    ? hintReason(h.reason_params, words(h.values[0]), words(h.values[Math.min(1, h.values.length - 1)]))
    : h.reason;
  return `<section class="hint-panel" ${attr("aria-label", _("Hint"))}>
    <div class="hint-head"><b>${esc(fmt(_("Hint: {choice}"), { choice: choiceOf(h.action) }))}</b>
      <button class="link small close-hint" ${attr("aria-label", _("Close the hint"))}>${_("close")} <kbd>Esc</kbd></button></div>
    <p class="hint-reason">${esc(reason)}</p>
    <p class="hint-unit">${_("Points for your side this deal, on average:")}</p>
    <ol class="hint-values">${rows}</ol></section>`;
}

/** A legal choice in a few words: "Pass", "Order it up alone", "Hearts", "J♥". */
function choiceText(action) {
  const words = choiceOf(action);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function invites() {
  // the host's view, from the server: open invitations of seats nobody holds yet
  if (!T || !T.hostView) return [];
  return T.hostView.places.filter((p) => p.invite_url && p.kind === "person")
    .map((p) => ({ place: p.place, url: p.invite_url }));
}

/** Clicks and changes anywhere on the table, handled once for the page's lifetime. */
function wire(page) {
  page.addEventListener("click", async (e) => {
    const el = e.target.closest("[data-act], [data-try], [data-cmd], .copy, .share, #dismiss-invites, .close-hint, #toggle-markers");
    if (!el || !T) return;
    if (el.dataset.act) { act(el.dataset.act); return; }
    if (el.dataset.try) { tryAct(el.dataset.try); return; }
    const cmd = el.dataset.cmd;
    if (cmd === "host-start") {
      const view = await hostAction(T.id, "start");
      if (view && T) { T.hostView = view; render(); }
    } else if (cmd === "rematch") rematch();
    else if (cmd === "review") showReview(T.id, T.state.table.match, T.token);
    else if (cmd === "reclaim") send({ type: "reclaim" });
    else if (cmd === "continue") closeSummary();
    else if (el.classList.contains("close-hint")) { T.hint = null; render(); }
    else if (el.id === "dismiss-invites") { T.invitesDismissed = true; render(); }
    else if (el.id === "toggle-markers") {
      T.markers = !T.markers;
      localStorage.setItem("euchre.markers", T.markers ? "1" : "0");
      render();
    } else if (el.classList.contains("share")) {
      try {
        await navigator.share({ title: _("Euchre"), text: _("Come and play euchre with me:"), url: el.dataset.share });
      } catch (err) {
        // dismissed by the player; else the link is copied instead
        if (!err || err.name !== "AbortError") copyLink(el.nextElementSibling);
      }
    } else if (el.classList.contains("copy")) {
      copyLink(el);
    }
  });
  page.addEventListener("change", (e) => {
    if (!T) return;
    if (e.target.id === "alone-toggle") { T.aloneToggle = e.target.checked; render(); }
    if (e.target.name === "pace") {
      T.pace = e.target.value;
      localStorage.setItem("euchre.pace", e.target.value);
      render();
    }
  });
}

/** Copy an invitation link (`button` is its Copy button, after its field). */
async function copyLink(button) {
  try { await navigator.clipboard.writeText(button.dataset.copy); toast(_("Link copied")); } catch {
    button.parentElement.querySelector("input").select(); toast(_("Press Ctrl+C to copy"));
  }
}

function rematch() {
  send({ type: "rematch" });
  closeOverlay();
  T.pastDeals = [];
}

function askHint() {
  if (!myTurn()) { toast(_("A hint is given only when it is your turn.")); return; }
  // the notice stays until the hint or a refusal comes, or the table moves on first
  if (send({ type: "hint" })) { T.hintAsked = T.state.seq; toast(_("The expert is thinking…"), 120000); }
}

/** A hint asked for is answered, refused, or will never come (the table moved on, or
 * the connection that asked is gone): its notice goes. */
function hintDone() {
  if (T.hintAsked === null || T.hintAsked === undefined) return;
  T.hintAsked = null;
  hideToast();
}

// -- dialogs -----------------------------------------------------------------------------------
function trickHTML(trick) {
  const won = trick.winner === T.state.you ? esc(_("Won by you."))
    : fmt(esc(_("Won by {name}.")), { name: `<b>${esc(nameOf(trick.winner))}</b>` });
  return `<div class="trick-row">${trick.cards.map((c) => `
    <figure class="${c.seat === trick.winner ? "winner" : ""}">${cardSVG(c.card)}
      <figcaption>${esc(nameOf(c.seat))}</figcaption></figure>`).join("")}</div>
    <p>${won}</p>`;
}

function showLastTrick() {
  const s = T.state;
  let trick = s.deal.tricks[s.deal.tricks.length - 1];
  if (!trick && s.last_deal && s.last_deal.tricks.length) {
    trick = s.last_deal.tricks[s.last_deal.tricks.length - 1];
  }
  showOverlay(`<h2>${_("Last trick")}</h2>${trick ? trickHTML(trick) : `<p>${_("No trick has been played yet.")}</p>`}
    <div class="buttons"><button class="primary" id="close-dialog">${_("Close")} <kbd>Esc</kbd></button></div>`);
  $("#close-dialog").onclick = closeOverlay;
}

function summaryTitle(last) {
  const you = T.state.you;
  const ours = you !== null && last.makers.includes(you);
  switch (last.outcome) {
    case "euchred": return ours ? _("Euchred!") : _("Euchred them!");
    case "march": return _("March!");
    case "made": return _("Made it");
    case "thrown in": return _("Thrown in");
    default: return _("Deal over");
  }
}

/** The deal's summary, on the felt: your hand stays in view below it. */
function summaryPanel() {
  const s = T.state;
  const last = T.summary;
  const n = s.table.rules.players;
  const points = last.points.map((p, seat) => `<tr class="${seat === s.you ? "ours" : ""}">
    <td>${esc(nameOf(seat))}</td><td>${last.tricks_won[seat]}</td>
    <td>${p ? `+${p}` : "–"}</td><td><b>${last.scores[seat]}</b></td></tr>`).join("");
  const trick = last.tricks.length ? last.tricks[last.tricks.length - 1] : null;
  return `<section class="summary-panel" role="dialog" aria-labelledby="summary-title">
    <h2 class="summary-title ${last.outcome}" id="summary-title">${esc(summaryTitle(last))}</h2>
    <p class="summary-text">${esc(dealText(last.message))}</p>
    ${last.trump ? `<p class="muted">${_("Trump")} ${suitIcon(last.trump)} ${suitWord(last.trump)}${last.called ? ` · ${esc(fmt(_("called {card}"), { card: cardText(last.called) }))}` : ""}</p>` : ""}
    <table class="points"><thead><tr><th>${n === 4 ? _("Seat") : _("Player")}</th><th>${_("Tricks")}</th><th>${_("Points")}</th><th>${_("Score")}</th></tr></thead>
      <tbody>${points}</tbody></table>
    ${trick ? `<details><summary>${_("Last trick")}</summary>${trickHTML(trick)}</details>` : ""}
    <div class="buttons"><button class="primary" id="summary-continue" data-cmd="continue">${s.over ? _("Continue") : _("Next deal")} <kbd>Enter</kbd></button></div>
  </section>`;
}

function gameOverTitle() {
  const s = T.state;
  const g = s.game;
  let winners = g.winners;
  if (s.rubber && s.rubber.over) {
    winners = sides()[s.rubber.winner];
  }
  if (s.you !== null && winners.includes(s.you)) return _("You win!");
  if (s.table.rules.players === 4) {
    return fmt(_("{names} win"), { names: sideName(winners.length ? [winners[0], partnerOf(winners[0])] : []) });
  }
  return fmt(ngettext("{names} wins", "{names} win", winners.length), { names: joinNames(winners.map((w) => nameOf(w))) });
}

function showGameOver() {
  const s = T.state;
  const scores = gameOverScores();
  const rubber = s.rubber && s.rubber.over ? rubberTable() : "";
  showOverlay(`
    <h2 class="summary-title">${esc(gameOverTitle())}</h2>
    <p>${esc(fmt(_("Game over: first to {target}."), { target: s.table.rules.target }))}</p>
    ${rubber || `<table class="points"><tbody>${scores}</tbody></table>`}
    <div class="buttons">
      ${s.you !== null ? `<button class="primary" id="rematch-btn">${_("Rematch")} <kbd>R</kbd></button>` : ""}
      ${s.you !== null && T.token ? `<button id="review-btn">${_("Review my decisions")}</button>` : ""}
      <a class="button" href="${gameURL(T.id, s.table.match, "record")}" download>${_("Download record")}</a>
      <a class="button" href="/history/${T.id}/${s.table.match}">${_("Replay")}</a>
      <button id="close-dialog">${_("Close")}</button>
    </div>`, { className: "game-over" });
  const r = $("#rematch-btn");
  if (r) r.onclick = rematch;
  const review = $("#review-btn");
  if (review) review.onclick = () => showReview(T.id, s.table.match, T.token, showGameOver);
  $("#close-dialog").onclick = closeOverlay;
}

/** The last game's scores, the winners first. */
function gameOverScores() {
  const s = T.state;
  const g = s.game;
  const won = (seat) => g.winners.includes(seat);
  if (s.table.rules.players === 4) {
    return sides().sort((a, b) => won(b[0]) - won(a[0])).map((side) => `<tr class="${won(side[0]) ? "ours" : ""}">
      <td>${esc(sideName(side))}</td><td><b>${g.scores[side[0]]}</b></td></tr>`).join("");
  }
  const seats = g.scores.map((v, seat) => seat).sort((a, b) => won(b) - won(a) || g.scores[b] - g.scores[a]);
  return seats.map((seat) => `<tr class="${won(seat) ? "ours" : ""}"><td>${esc(nameOf(seat))}</td><td><b>${g.scores[seat]}</b></td></tr>`).join("");
}

/** A rubber's end: each game of it with its score, and the rubber points (RULES §11),
 * the side that won the rubber first. */
function rubberTable() {
  const r = T.state.rubber;
  const order = r.winner === 1 ? [1, 0] : [0, 1];
  const all = sides();
  const head = r.games.map((g, k) => `<th>${esc(fmt(_("Game {number}"), { number: k + 1 }))}</th>`).join("");
  const rows = order.map((side) => {
    const seats = all[side];
    const cells = r.games.map((g) => {
      const score = g.scores[seats[0]];
      return g.winners.includes(seats[0]) ? `<td><b>${score}</b> ✓</td>` : `<td>${score}</td>`;
    }).join("");
    return `<tr class="${side === r.winner ? "ours" : ""}"><td>${esc(sideName(seats))}</td>${cells}<td><b>${r.points[side]}</b></td></tr>`;
  }).join("");
  const games = order.map((side) => r.games_won[side]).join("–");
  const line = fmt(ngettext("Rubber won {games}, by {count} point.", "Rubber won {games}, by {count} points.", r.margin),
    { games, count: r.margin });
  return `<p>${esc(line)}</p>
    <table class="points rubber"><thead><tr><th>${_("Side")}</th>${head}<th>${_("Rubber points")}</th></tr></thead>
      <tbody>${rows}</tbody></table>`;
}

/** A loudspeaker, with its sound waves when the sound is on, struck out when off. */
function speakerSVG(on) {
  const rest = on ? '<path d="M11 5.5a3.5 3.5 0 0 1 0 5M12.5 3a7 7 0 0 1 0 10" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linecap="round"/>'
    : '<path d="M10.5 5.5l4 5m0-5l-4 5" stroke="currentColor" stroke-width="1.4" stroke-linecap="round"/>';
  return `<svg class="speaker" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path d="M2 6h3l4-3v10l-4-3H2z" fill="currentColor"/>${rest}</svg>`;
}

function toggleSound() {
  setSound(!soundOn());
  render();
}

function showInvites() {
  T.invitesDismissed = false;
  render();
}

function showKeys() {
  const rows = KEYMAP().map((k) => `<tr ${attr("data-keys", k.keys.join(","))}>
      <td>${k.label.map((x) => (x === "…" ? "…" : `<kbd>${esc(x)}</kbd>`)).join(" ")}</td><td>${esc(k.what)}</td></tr>`).join("");
  // the list scrolls inside the window; its title and the button to close it stay in view
  showOverlay(`<h2>${_("Keyboard shortcuts")}</h2>
    <p class="muted">${_("Each key means one thing.")}</p>
    <div class="dialog-scroll" tabindex="0" ${attr("aria-label", _("Keyboard shortcuts"))}><table class="keys"><tbody>${rows}</tbody></table></div>
    <div class="buttons"><button class="primary" id="close-dialog">${_("Close")}</button></div>`, { className: "keys-dialog" });
  $("#close-dialog").onclick = closeOverlay;
}

function askToLeave() {
  const owner = T.hello && T.hello.owner;
  showOverlay(`<h2>${_("Leave the table?")}</h2>
    <p>${_("Your seat opens to anyone in the lobby; a bot plays it until someone takes it. If nobody else plays here, the game is closed.")}</p>
    ${owner ? `<p>${_("As its creator you may instead delete the table, with every game played at it, for everyone.")}</p>` : ""}
    <p id="leave-error" class="error" hidden></p>
    <div class="buttons">
      <button class="primary" id="leave-confirm">${_("Leave the table")}</button>
      ${owner ? `<button id="delete-confirm">${_("Delete the table")}</button>` : ""}
      <button id="close-dialog">${_("Stay")}</button>
    </div>`);
  $("#close-dialog").onclick = closeOverlay;
  const go = async (how) => {
    try {
      if (how === "leave") await api(`/api/tables/${T.id}/leave`, { method: "POST", body: { token: T.token } });
      else await api(`/api/tables/${T.id}`, { method: "DELETE", body: { token: T.token } });
    } catch (err) {
      const box = $("#leave-error");
      box.textContent = err.message;
      box.hidden = false;
      return;
    }
    forgetSeat();
    closeOverlay();
    history.pushState(null, "", "/");
    window.dispatchEvent(new PopStateEvent("popstate"));
  };
  $("#leave-confirm").onclick = () => go("leave");
  const del = $("#delete-confirm");
  if (del) del.onclick = () => go("delete");
}

// -- keys -------------------------------------------------------------------------------------
/** Whether a key is the focused element's own: typing in a field; the arrows, Enter and
 * Space of a form control (the trick pace's radio buttons, a checkbox) or of a button or
 * link (it acts on itself: Enter on a card of your hand plays that card).  The table's
 * other shortcuts (letters, numbers) work wherever the focus is but in a field. */
function keyOfFocused(e) {
  const el = e.target;
  if (!el || !el.matches) return false;
  if (el.matches("textarea, select, [contenteditable]")) return true;
  const own = ["Enter", " ", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(e.key);
  if (el.matches("input")) return !["radio", "checkbox"].includes(el.type) || own;
  if (el.matches("button, a[href], summary")) {
    // the arrows move among the cards of your hand, from a card or from the table's buttons
    return own && !e.key.startsWith("Arrow");
  }
  return false;
}

function onKey(e) {
  if (!T || !T.state) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const key = e.key;
  const s = T.state;
  if (overlayOpen()) {
    if (e.target.matches && e.target.matches("input, select, textarea")) return;
    if (key === "Escape" || key === "Enter") {
      if (key === "Enter" && e.target.tagName === "BUTTON" && !e.target.matches("#close-dialog")) return;
      e.preventDefault();
      closeOverlay();
    } else if ((key === "r" || key === "R") && s.over) {
      rematch();
    }
    return;
  }
  if (keyOfFocused(e)) return;
  if (summaryShown() && (key === "Enter" || key === "Escape" || key === " ")) {
    e.preventDefault();
    closeSummary();
    return;
  }
  const d = s.deal;
  const calls = d.phase === "call_partner" ? callOrder().flatMap(([, cards]) => cards) : [];
  const command = keyCommand(key, e.shiftKey, {
    phase: d.phase, legal: d.legal, hand: d.hand || [], calls, aloneToggle: T.aloneToggle,
    selected: d.phase === "call_partner" ? T.selectedCall : T.selected,
    myTurn: myTurn() && !T.pending, over: s.over,
  });
  if (!command) return;
  e.preventDefault();
  if (command.show === "keys") showKeys();
  else if (command.show === "last") showLastTrick();
  else if (command.show === "hint") { if (s.table.hint && s.you !== null) askHint(); }
  else if (command.close) { if (T.hint) { T.hint = null; render(); } }
  else if (command.rematch) { if (s.you !== null) rematch(); }
  else if (command.act) act(command.act);
  else if (command.refuse) toast(command.refuse);
  else if (command.toggleAlone) { T.aloneToggle = !T.aloneToggle; render(); }
  else if (command.select !== undefined) {
    if (d.phase === "call_partner") T.selectedCall = command.select;
    else T.selected = command.select;
    render();
    // the picked card takes the focus: Enter plays it, as a click would
    const picked = d.phase === "call_partner" ? $$("#controls .call-card")[command.select]
      : $(`#hand .hand-card[data-index="${command.select}"]`);
    focusFirst(picked);
  }
}

/** A card of your hand (or to call) reached by Tab is the picked one, as by the arrows. */
function pickFocused(e) {
  if (!T || !T.state) return;
  const card = e.target.closest && e.target.closest(".hand-card.legal, .call-card");
  if (!card) return;
  if (card.matches(".hand-card")) {
    if (T.selected === Number(card.dataset.index)) return;
    T.selected = Number(card.dataset.index);
  } else {
    const index = $$("#controls .call-card").indexOf(card);
    if (T.selectedCall === index) return;
    T.selectedCall = index;
  }
  render();
}
