// A club night's pages (issue 32): the organiser's (make a night, its players, its rounds,
// which tables reported, settle a disagreement, end a round), a player's (my table, my
// partner and opponents, my total; enter, confirm or dispute the table's result; register
// with the join link), the standings for a projector (large type, live, the round's clock)
// and the printouts (the chart, score cards, table tents with a QR code, the standings).
// Everything is read from the night's API (docs/server.md, "A club night").

import { $, $$, api, attr, esc, setTopbar, storedName, storeName, toast } from "./util.js";
import { _, fmt, ngettext, number } from "./i18n.js";
import { patch } from "./patch.js";

const POLL_MS = 3000; // while the night's socket is down (or refused): read it this often

let timer = null;
let clockTimer = null;
let socket = null; // the night's WebSocket: the night, live
let retry = null; // the timer that opens it again
let tries = 0;
let shown = null; // {root, id, view, params}: what relabelNight draws again
let night = null; // the night as last read
let seen = ""; // its JSON: the page is drawn again only when it changed

/** Stop following the night (another page opens). */
export function leaveNight() {
  clearInterval(timer);
  clearInterval(clockTimer);
  clearTimeout(retry);
  timer = clockTimer = retry = null;
  if (socket) { const ws = socket; socket = null; ws.close(); }
  tries = 0;
  shown = night = null;
  seen = "";
}

/** The page again in another language. */
export function relabelNight() {
  if (shown && night) draw();
  else if (shown && shown.id === "new") showNight(shown.root, "new", "", shown.params);
}

const stored = (id) => `euchre.night.${id}`;
const storedHost = (id) => `euchre.nighthost.${id}`;

/** The key of this browser at night `id`: the link's (`?key=`), else the organiser's
 * kept here, else a player's kept here.  The two are kept apart (:func:`keep`): an
 * organiser who opens a player's link keeps their own. */
function keyOf(id, params) {
  return params.get("key") || localStorage.getItem(storedHost(id)) || localStorage.getItem(stored(id));
}

/** Keep the key that opened the night, as the role it turned out to be. */
function keep(id, key, role) {
  if (key && role === "organiser") localStorage.setItem(storedHost(id), key);
  else if (key && role === "player") localStorage.setItem(stored(id), key);
}

function call(path, key, options = {}) {
  const headers = { "Content-Type": "application/json" };
  if (key) headers["X-Euchre-Key"] = key;
  return api(path, { ...options, headers });
}

const FORMATS = () => ({
  partners: _("Rotating partners"), winners: _("Winners move up"), teams: _("Fixed teams"),
});

const STATUS = () => ({
  waiting: _("waiting for a result"), entered: _("reported, to be confirmed"),
  confirmed: _("confirmed"), disputed: _("disputed"), settled: _("settled by the organiser"),
  playing: _("playing online"), played: _("played online"),
});

/** Show night `id` (`"new"`: the form that makes one) as `view` ("", "standings",
 * "print"). */
export async function showNight(root, id, view, params) {
  leaveNight();
  shown = { root, id, view, params };
  document.body.dataset.page = view === "standings" ? "projector" : "night";
  if (id === "new") { showNewNight(root); return; }
  const key = view === "" ? keyOf(id, params) : null;
  const join = params.get("join");
  if (view === "" && join && !key) { await showJoin(root, id, join); return; }
  await refresh();
  if (!night) return;
  follow();
  if (view === "standings") clockTimer = setInterval(drawClock, 1000);
}

/** Follow the night live: its socket sends the night whenever it changes (every
 * page: the standings, the phones, the organiser's); while it is down the page reads
 * the night every few seconds and opens it again, later each time. */
function follow() {
  const { id, view, params } = shown;
  const key = view === "" ? keyOf(id, params) : null;
  const url = new URL(`/ws/night/${encodeURIComponent(id)}`, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  if (key) url.searchParams.set("key", key);
  const ws = new WebSocket(url);
  socket = ws;
  ws.onopen = () => { tries = 0; clearInterval(timer); timer = null; };
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.type === "night" && socket === ws) take(m.night);
  };
  ws.onclose = () => {
    if (socket !== ws) return; // left, or replaced
    socket = null;
    timer ??= setInterval(refresh, POLL_MS);
    retry = setTimeout(follow, Math.min(30000, 1000 * 2 ** tries++));
  };
}

/** Draw the night as read, if it changed. */
function take(data) {
  const text = JSON.stringify(data);
  if (text === seen) return;
  seen = text;
  night = data;
  draw();
}

async function refresh() {
  const { root, id, view, params } = shown || {};
  if (!root) return;
  const key = view === "" ? keyOf(id, params) : null;
  let data;
  try {
    data = await call(`/api/nights/${encodeURIComponent(id)}`, key);
  } catch (e) {
    if (!night) {
      setTopbar("");
      root.innerHTML = `<section class="panel narrow"><h1>${_("Club night")}</h1>
        <p class="error" role="alert">${esc(e.message)}</p></section>`;
      clearInterval(timer);
    }
    return;
  }
  keep(id, key, data.role);
  take(data);
}

/** After a write: the open socket brings the night as changed, in order with every
 * other change; without one, read it. */
async function changed() {
  if (!socket || socket.readyState !== WebSocket.OPEN) await refresh();
}

function draw() {
  const { root, view } = shown;
  setTopbar(`<span class="table-title">${esc(night.name)}</span>`);
  if (view === "standings") drawProjector(root);
  else if (view === "print") drawPrint(root);
  else if (night.role === "organiser") drawOrganiser(root);
  else if (night.role === "player") drawPlayer(root);
  else drawPublic(root);
}

// ---- what every page shares -------------------------------------------------------

const nameOf = (n) => (night.players.find((p) => p.number === n) || {}).name || `#${n}`;

const pair = (side) => esc(side.map((p) => p.name || `#${p.number}`).join(" & "));

/** A total as the page's language writes it (a fraction, "17/2", with one decimal). */
function total(t) {
  if (typeof t !== "string") return number(t);
  const [a, b] = t.split("/").map(Number);
  return number(a / b, 1);
}

function standingsTable(big = false) {
  if (!night.standings.length) return `<p class="muted">${_("No round has ended yet.")}</p>`;
  const rows = night.standings.map((s) => `<tr data-key="p${s.number}">
      <td class="num">${s.place}${s.tied ? "=" : ""}</td><th scope="row">${esc(s.name)}</th>
      <td class="num">${esc(total(s.total))}</td><td class="num">${s.won}</td>
      <td class="num">${s.played}</td><td class="num">${s.loners}</td></tr>`).join("");
  return `<table class="standings${big ? " big" : ""}">
    <caption class="sr-only">${_("Standings")}</caption>
    <thead><tr><th scope="col">${_("Place")}</th><th scope="col">${_("Player")}</th>
      <th scope="col">${_("Points")}</th><th scope="col">${_("Rounds won")}</th>
      <th scope="col">${_("Rounds played")}</th><th scope="col">${_("Lone hands")}</th></tr></thead>
    <tbody>${rows}</tbody></table>`;
}

/** The rounds ahead (if the players present stay), as the chart prints them. */
function chartAhead() {
  const side = (pair) => esc(pair.map(nameOf).join(" & "));
  return night.ahead.map((r) => `<table class="chart-round ahead" data-key="a${r.number}">
      <caption>${fmt(_("Round {n} (planned)"), { n: r.number })}</caption>
      <thead><tr><th scope="col">${_("Table")}</th><th scope="col">${_("Partners")}</th>
        <th scope="col">${_("Partners")}</th></tr></thead>
      <tbody>${r.tables.map(([a, b], i) => `<tr><th scope="row">${i + 1}</th><td>${side(a)}</td>
        <td>${side(b)}</td></tr>`).join("")}
      ${r.out.length ? `<tr><th scope="row">${_("Out")}</th><td colspan="2">${esc(r.out.map(nameOf).join(", "))}</td></tr>` : ""}
      </tbody></table>`).join("");
}

/** A player's rounds ahead, one line each: their table, partner and opponents. */
function comingRounds(me) {
  if (!night.ahead.length) return "";
  const lines = night.ahead.map((r) => {
    const t = r.tables.findIndex(([a, b]) => a.includes(me) || b.includes(me));
    if (t < 0) return `<li>${esc(fmt(_("Round {n}: you sit out."), { n: r.number }))}</li>`;
    const [a, b] = r.tables[t];
    const [ours, theirs] = a.includes(me) ? [a, b] : [b, a];
    return `<li>${esc(fmt(_("Round {n}: table {table}, with {partner}, against {opponents}"), {
      n: r.number, table: t + 1, partner: nameOf(ours.find((p) => p !== me)),
      opponents: theirs.map(nameOf).join(" & ") }))}</li>`;
  }).join("");
  return `<section class="panel" aria-labelledby="coming-title">
      <h2 id="coming-title">${_("Your coming rounds")}</h2>
      <ul class="coming-rounds">${lines}</ul>
      <p class="muted">${_("If the players present now stay; a late arrival or an early leaver seats the rounds afresh.")}</p></section>`;
}

const roundOf = (n) => night.rounds[n - 1];
const latest = () => night.rounds[night.rounds.length - 1] || null;

function resultText(t) {
  if (!t.result) return STATUS()[t.status];
  return fmt(_("{a} to {b}, {status}"), {
    a: t.result.points[0], b: t.result.points[1], status: STATUS()[t.status],
  });
}

function nightLinks() {
  const base = `/night/${encodeURIComponent(night.id)}`;
  const api = `/api/nights/${encodeURIComponent(night.id)}`;
  return `<p class="night-links">
    <a class="button small" href="${base}/standings">${_("Standings for a projector")}</a>
    <a class="button small" href="${base}/print">${_("Printouts")}</a>
    <a class="button small" href="${api}/export.csv" download>${_("Export CSV")}</a>
    <a class="button small" href="${api}/export.json" download>${_("Export JSON")}</a></p>`;
}

// ---- making a night -----------------------------------------------------------------

const SCORING = () => [
  ["made", _("Hand made (3 or 4 tricks)"), 1], ["march", _("March (all five tricks)"), 2],
  ["lone_made", _("Lone hand made, 3 or 4 tricks"), 1], ["lone_march", _("Lone hand, all five"), 4],
  ["euchre", _("Euchre"), 2], ["lone_euchre", _("Euchre of a loner"), 4],
];

function showNewNight(root) {
  setTopbar(`<span class="table-title">${_("Club night")}</span>`);
  const today = new Date().toISOString().slice(0, 10);
  const formats = Object.entries(FORMATS()).map(([v, w], i) => `<label><input type="radio"
      name="format" value="${v}" ${i === 0 ? "checked" : ""}><span>${w}</span></label>`).join("");
  const scoring = SCORING().map(([name, word, value]) => `<label class="field score-value">${word}
      <input type="number" name="${name}" min="0" max="100" value="${value}" required></label>`).join("");
  root.innerHTML = `<div class="night">
    <section class="panel" aria-labelledby="night-new-title">
      <h1 id="night-new-title">${_("New club night")}</h1>
      <form id="night-form" autocomplete="off">
        <label class="field">${_("Name of the night")}
          <input name="name" maxlength="60" required ${attr("placeholder", _("Friday euchre at the hall"))}></label>
        <label class="field">${_("Date")}<input type="date" name="day" value="${today}" required></label>
        <fieldset class="field"><legend>${_("Format")}</legend>
          <div class="segmented">${formats}</div></fieldset>
        <div class="field-row">
          <label class="field">${_("Hands per round")}
            <input type="number" name="hands" min="1" max="50" value="8"></label>
          <label class="field">${_("Or minutes per round")}
            <input type="number" name="minutes" min="1" max="240"
              ${attr("placeholder", _("no time limit"))}></label>
        </div>
        <fieldset class="field"><legend>${_("Scoring (points a player scores)")}</legend>
          <div class="score-values">${scoring}</div>
          <label class="field">${_("A player who sits out scores")}
            <select name="sit_out">
              <option value="average">${_("the round's average")}</option>
              <option value="zero">${_("nothing")}</option>
              <option value="bot">${_("what a bot in the seat scores")}</option>
            </select></label>
        </fieldset>
        <label class="field">${_("Players, one name a line (or let them register with the join link)")}
          <textarea name="players" rows="6"></textarea></label>
        <p class="error" id="night-error" role="alert"></p>
        <button class="primary big" type="submit">${_("Make the night")}</button>
      </form>
    </section></div>`;
  $("#night-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    const number = (name) => (f.get(name) ? Number(f.get(name)) : null);
    const body = {
      name: f.get("name"), day: f.get("day"), format: f.get("format"),
      hands: f.get("minutes") ? null : number("hands"), minutes: number("minutes"),
      scoring: Object.fromEntries([...SCORING().map(([n]) => [n, number(n)]), ["sit_out", f.get("sit_out")]]),
      players: String(f.get("players")).split("\n").map((s) => s.trim()).filter(Boolean),
    };
    try {
      const made = await call("/api/nights", null, { method: "POST", body });
      localStorage.setItem(storedHost(made.id), made.host_key);
      history.pushState(null, "", `/night/${made.id}`);
      await showNight(root, made.id, "", new URLSearchParams());
    } catch (err) {
      $("#night-error").textContent = err.message;
    }
  });
}

// ---- registering with the join link -------------------------------------------------

async function showJoin(root, id, join) {
  let info;
  try {
    info = await call(`/api/nights/${encodeURIComponent(id)}`, null);
  } catch (e) {
    root.innerHTML = `<section class="panel narrow"><p class="error" role="alert">${esc(e.message)}</p></section>`;
    return;
  }
  setTopbar(`<span class="table-title">${esc(info.name)}</span>`);
  root.innerHTML = `<section class="panel narrow" aria-labelledby="join-title">
    <h1 id="join-title">${esc(fmt(_("Join {night}"), { night: info.name }))}</h1>
    <form id="join-form" autocomplete="off">
      <label class="field">${_("Your name")}
        <input name="name" maxlength="40" required ${attr("value", storedName())}></label>
      <p class="error" id="join-error" role="alert"></p>
      <button class="primary big" type="submit">${_("Join the night")}</button>
    </form></section>`;
  $("#join-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = new FormData(e.target).get("name");
    try {
      const you = await call(`/api/nights/${encodeURIComponent(id)}/players`, null,
        { method: "POST", body: { name, join } });
      storeName(name);
      localStorage.setItem(stored(id), you.token);
      history.replaceState(null, "", you.url);
      await showNight(root, id, "", new URLSearchParams(location.search));
    } catch (err) {
      $("#join-error").textContent = err.message;
    }
  });
}

// ---- the organiser ------------------------------------------------------------------

function hostKey() { return keyOf(shown.id, shown.params); }

async function hostPost(path, body = {}) {
  try {
    await call(`/api/nights/${encodeURIComponent(night.id)}${path}`, hostKey(), { method: "POST", body });
    await changed();
    return true;
  } catch (e) {
    toast(e.message, 5000);
    return false;
  }
}

/** The host link of round `n`'s online table `table` (the organiser starts its game there,
 * bots taking the seats nobody took). */
const hostURL = (n, table) => (night.online.find((o) => o.round === n && o.table === table) || {}).host_url || "";

function drawOrganiser(root) {
  const joinURL = `${location.origin}/night/${night.id}?join=${night.join_key}`;
  const qr = `/api/nights/${encodeURIComponent(night.id)}/qr.svg?join=1&key=${encodeURIComponent(hostKey())}`;
  const present = night.players.filter((p) => p.present).length;
  const players = night.players.map((p) => `<li data-key="pl${p.number}" class="night-player">
      <label class="check"><input type="checkbox" data-presence="${p.number}" ${p.present ? "checked" : ""}>
        <span>${esc(p.name)}</span></label>
      <a class="small" target="_blank" href="/night/${night.id}?key=${esc(night.tokens[String(p.number)])}"
        ${attr("aria-label", fmt(_("{name}'s personal link"), { name: p.name }))}>${_("personal link")}</a></li>`).join("");
  const cur = night.current ? roundOf(night.current) : null;
  let round;
  if (cur) {
    const tables = cur.tables.map((t) => `<li data-key="t${t.table}" class="night-table status-${t.status}">
        <div><strong>${fmt(_("Table {n}"), { n: t.table })}</strong>: ${pair(t.sides[0])}
          <span class="muted">${_("against")}</span> ${pair(t.sides[1])}</div>
        <div class="table-status">${esc(resultText(t))}</div>
        ${t.online ? `<p><a class="button small online-host" target="_blank" href="${esc(hostURL(cur.number, t.table))}">${_("Open the online table")}</a></p>` : ""}
        ${t.status === "played" ? "" : `<form class="settle" data-table="${t.table}">
          <input type="number" min="0" max="1000" name="a" required ${attr("aria-label", fmt(_("Points of {pair}"), { pair: t.sides[0].map((p) => p.name).join(" & ") }))}
            ${t.result ? attr("value", t.result.points[0]) : ""}>
          <input type="number" min="0" max="1000" name="b" required ${attr("aria-label", fmt(_("Points of {pair}"), { pair: t.sides[1].map((p) => p.name).join(" & ") }))}
            ${t.result ? attr("value", t.result.points[1]) : ""}>
          <button class="small" type="submit">${_("Settle")}</button></form>`}</li>`).join("");
    const out = cur.out.length ? `<p>${esc(fmt(_("Sitting out: {names}"), { names: cur.out.map((p) => p.name).join(", ") }))}</p>` : "";
    const reported = cur.tables.filter((t) => t.result && t.status !== "disputed").length;
    round = `<h2 id="round-title">${fmt(_("Round {n}"), { n: cur.number })}</h2>
      <p>${esc(fmt(_("{done} of {all} tables have reported."), { done: reported, all: cur.tables.length }))}</p>
      <ul class="night-tables">${tables}</ul>${out}
      <button class="primary" id="end-round" type="button">${fmt(_("End round {n}"), { n: cur.number })}</button>`;
  } else {
    const count = Math.floor(present / 4);
    const online = Array.from({ length: count }, (_x, i) => `<label class="check inline">
        <input type="checkbox" name="online" value="${i + 1}">${fmt(_("Table {n}"), { n: i + 1 })}</label>`).join(" ");
    round = `<h2 id="round-title">${fmt(_("Round {n}"), { n: night.rounds.length + 1 })}</h2>
      <form id="start-form">
        ${count ? `<fieldset class="field"><legend>${_("Tables played online (bots fill empty seats)")}</legend>${online}</fieldset>` : ""}
        <button class="primary" type="submit">${fmt(_("Start round {n}"), { n: night.rounds.length + 1 })}</button>
      </form>`;
  }
  patch(root, `<div class="night">
    <section class="panel" aria-labelledby="round-title">${round}</section>
    <section class="panel" aria-labelledby="standings-title">
      <h2 id="standings-title">${_("Standings")}</h2>${standingsTable()}${nightLinks()}
      <p><a href="/season/new">${_("Make a season of this club's nights")}</a></p></section>
    <section class="panel" aria-labelledby="players-title">
      <h2 id="players-title">${fmt(ngettext("{n} player present", "{n} players present", present), { n: present })}</h2>
      <ul class="night-players">${players}</ul>
      <form id="add-player" class="inline-form" autocomplete="off">
        <input name="name" maxlength="40" required ${attr("aria-label", _("New player's name"))}
          ${attr("placeholder", _("New player's name"))}>
        <button type="submit">${_("Add")}</button></form></section>
    <section class="panel join-panel" aria-labelledby="join-title">
      <h2 id="join-title">${_("Join link")}</h2>
      <p><a id="join-link" href="${esc(joinURL)}">${esc(joinURL)}</a></p>
      <img class="qr" src="${esc(qr)}" width="132" height="132" ${attr("alt", _("QR code of the join link"))}>
    </section>${night.ahead.length ? `
    <section class="panel night-ahead" aria-labelledby="ahead-title">
      <h2 id="ahead-title">${_("The night ahead")}</h2>
      <p class="muted">${_("If the players present now stay; a late arrival or an early leaver seats the rounds afresh.")}</p>
      <div class="chart" tabindex="0" role="region" aria-labelledby="ahead-title">${chartAhead()}</div></section>` : ""}</div>`);
  wireOrganiser();
}

function wireOrganiser() {
  const cur = night.current;
  for (const box of $$("[data-presence]")) {
    box.onchange = () => hostPost(`/players/${box.dataset.presence}/presence`, { present: box.checked });
  }
  $("#add-player").onsubmit = async (e) => {
    e.preventDefault();
    const input = e.target.elements.name;
    if (await hostPost("/players", { name: input.value })) input.value = "";
  };
  const start = $("#start-form");
  if (start) {
    start.onsubmit = (e) => {
      e.preventDefault();
      const online = $$("input[name=online]:checked", start).map((x) => Number(x.value));
      hostPost("/rounds", { online });
    };
  }
  const end = $("#end-round");
  if (end) end.onclick = () => hostPost(`/rounds/${cur}/end`);
  for (const form of $$("form.settle")) {
    form.onsubmit = (e) => {
      e.preventDefault();
      const points = [Number(form.elements.a.value), Number(form.elements.b.value)];
      hostPost(`/rounds/${cur}/tables/${form.dataset.table}/settle`, { points });
    };
  }
}

// ---- a player -----------------------------------------------------------------------

async function playerPost(path, body) {
  try {
    await call(`/api/nights/${encodeURIComponent(night.id)}${path}`, keyOf(shown.id, shown.params),
      { method: "POST", body });
    await changed();
  } catch (e) {
    toast(e.message, 5000);
    if (e.status === 409) await changed();
  }
}

function drawPlayer(root) {
  const you = night.you;
  const mine = night.standings.find((s) => s.number === you.number);
  const r = you.round ? roundOf(you.round) : null;
  let seat;
  if (!r) seat = `<p>${_("The first round has not started yet.")}</p>`;
  else if (you.table === null) seat = `<p class="big-line">${esc(fmt(_("Round {n}: you sit out."), { n: r.number }))}</p>${sitOut(r, you)}`;
  else {
    const t = r.tables[you.table - 1];
    seat = `<p class="big-line">${esc(fmt(_("Round {n}, table {table}"), { n: r.number, table: you.table }))}</p>
      <dl class="seat-facts">
        <dt>${_("Your partner")}</dt><dd>${esc(nameOf(you.partner))}</dd>
        <dt>${_("Your opponents")}</dt><dd>${esc(you.opponents.map(nameOf).join(" & "))}</dd>
        <dt>${_("Your seat")}</dt><dd>${esc(fmt(_("side {side}, across from {partner}"), { side: you.side + 1, partner: nameOf(you.partner) }))}</dd>
      </dl>${you.online ? `<p><a class="button primary" href="${esc(you.online.url)}">${_("Play at your online table")}</a></p>` : ""}
      ${r.ended ? "" : resultPart(t, you)}`;
  }
  patch(root, `<div class="night player-night">
    <section class="panel" aria-labelledby="you-title">
      <h1 id="you-title">${esc(you.name)}</h1>
      <p class="running">${mine ? esc(fmt(_("Your total: {points} (place {place})"), { points: total(mine.total), place: mine.place })) : _("Your total: 0")}</p>
      ${seat}</section>
    ${comingRounds(you.number)}
    <section class="panel" aria-labelledby="standings-title">
      <h2 id="standings-title">${_("Standings")}</h2>${standingsTable()}</section></div>`);
  wirePlayer();
}

/** What a player sitting out scores, by the rules of the night (a bot in their seat:
 * what it made, once the round is over). */
function sitOut(r, you) {
  const policy = night.settings.scoring.sit_out;
  const mine = r.out.find((p) => p.number === you.number);
  let text = policy === "zero" ? _("You score nothing for this round.")
    : policy === "bot" ? _("A bot plays in your place: you score what it makes.")
      : _("You score the round's average.");
  if (mine && mine.stand_in !== null && mine.stand_in !== undefined) {
    text = fmt(_("The bot in your place scored {points}."), { points: number(mine.stand_in) });
  }
  return `<p class="sit-out">${esc(text)}</p>`;
}

function resultPart(t, you) {
  const ours = you.side;
  const theirs = 1 - ours;
  const players = [...t.sides[0], ...t.sides[1]];
  const entry = (verb, id, seq = "") => `<form id="${id}" class="result-form" autocomplete="off"
      data-seq="${seq}">
      <div class="field-row">
        <label class="field">${_("Our points")}<input type="number" name="ours" min="0" max="1000" required inputmode="numeric"></label>
        <label class="field">${_("Their points")}<input type="number" name="theirs" min="0" max="1000" required inputmode="numeric"></label>
      </div>
      <fieldset class="field"><legend>${_("Took all five alone")}</legend>
        ${players.map((p) => `<label class="check"><input type="checkbox" name="loner" value="${p.number}">${esc(p.name)}</label>`).join("")}
      </fieldset>
      <button class="primary" type="submit">${verb}</button></form>`;
  const head = `<h2 id="result-title">${_("The table's result")}</h2>`;
  if (t.online) return `<div class="result" aria-labelledby="result-title">${head}<p>${esc(STATUS()[t.status])}</p></div>`;
  if (t.status === "waiting") return `<div class="result">${head}${entry(_("Report the result"), "report-form")}</div>`;
  const res = t.result;
  const line = `<p class="big-line">${esc(fmt(_("Us {ours}, them {theirs}: {status}"), {
    ours: res.points[ours], theirs: res.points[theirs], status: STATUS()[t.status] }))}</p>`;
  if (t.status === "entered") {
    const byUs = t.sides[ours].some((p) => p.number === res.by);
    const answer = byUs
      ? `<p class="muted">${_("The other team confirms it.")}</p>`
      : `<div class="actions"><button class="primary" id="confirm" type="button" data-seq="${res.seq}">${_("Confirm")}</button>
          <button id="dispute" type="button" data-seq="${res.seq}">${_("Dispute")}</button></div>`;
    const fix = entry(_("Correct the result"), "correct-form", res.seq);
    return `<div class="result">${head}${line}${answer}
      <details><summary>${_("Correct it")}</summary>${fix}</details></div>`;
  }
  if (t.status === "disputed") return `<div class="result">${head}${line}<p>${_("The organiser settles it.")}</p></div>`;
  return `<div class="result">${head}${line}</div>`;
}

function readEntry(form) {
  const you = night.you;
  const ours = Number(form.elements.ours.value);
  const theirs = Number(form.elements.theirs.value);
  const points = you.side === 0 ? [ours, theirs] : [theirs, ours];
  const loners = $$("input[name=loner]:checked", form).map((x) => Number(x.value));
  return { points, loners };
}

function wirePlayer() {
  const you = night.you;
  if (!you.round) return;
  const base = `/rounds/${you.round}/tables/${you.table}`;
  const report = $("#report-form");
  if (report) report.onsubmit = (e) => { e.preventDefault(); playerPost(`${base}/report`, readEntry(report)); };
  const correct = $("#correct-form");
  if (correct) {
    correct.onsubmit = (e) => {
      e.preventDefault();
      playerPost(`${base}/correct`, { seq: Number(correct.dataset.seq), ...readEntry(correct) });
    };
  }
  const confirm = $("#confirm");
  if (confirm) confirm.onclick = () => playerPost(`${base}/confirm`, { seq: Number(confirm.dataset.seq) });
  const dispute = $("#dispute");
  if (dispute) dispute.onclick = () => playerPost(`${base}/dispute`, { seq: Number(dispute.dataset.seq) });
}

// ---- anyone (no key) ------------------------------------------------------------------

function drawPublic(root) {
  patch(root, `<div class="night">
    <section class="panel" aria-labelledby="standings-title">
      <h1 id="standings-title">${esc(fmt(_("{night}: standings"), { night: night.name }))}</h1>
      ${standingsTable()}${nightLinks()}</section></div>`);
}

// ---- the projector ------------------------------------------------------------------

function clockText() {
  const r = latest();
  if (!r) return _("The first round has not started yet.");
  if (r.ended) return fmt(_("Round {n} is over."), { n: r.number });
  const minutes = night.settings.minutes;
  const elapsed = Math.max(0, Date.now() / 1000 - r.started);
  const clock = (s) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, "0")}`;
  if (minutes) {
    const left = Math.max(0, minutes * 60 - elapsed);
    return fmt(_("Round {n}: {clock} left"), { n: r.number, clock: clock(left) });
  }
  return fmt(_("Round {n}: {clock} played"), { n: r.number, clock: clock(elapsed) });
}

function drawClock() {
  const el = $("#night-clock");
  if (el && night) el.textContent = clockText();
}

function drawProjector(root) {
  const r = latest();
  const reported = r && !r.ended
    ? `<p class="projector-reported">${esc(fmt(_("{done} of {all} tables have reported."), {
      done: r.tables.filter((t) => t.result).length, all: r.tables.length }))}</p>` : "";
  patch(root, `<div class="projector">
    <h1>${esc(night.name)}</h1>
    <p class="projector-clock" id="night-clock" role="timer" aria-live="off">${esc(clockText())}</p>
    ${reported}
    <section aria-label="${esc(_("Standings"))}">${standingsTable(true)}</section></div>`);
}

// ---- the printouts ------------------------------------------------------------------

const PARTS = () => [
  ["chart", _("The chart")], ["cards", _("Score cards")], ["tents", _("Table tents")],
  ["standings", _("Final standings")],
];

let paper = null; // the @page rule chosen: A4 or Letter

function setPaper(size) {
  paper ??= new CSSStyleSheet();
  paper.replaceSync(`@page { size: ${size === "letter" ? "letter" : "A4"}; margin: 12mm; }`);
  if (!document.adoptedStyleSheets.includes(paper)) document.adoptedStyleSheets = [...document.adoptedStyleSheets, paper];
}

function drawPrint(root) {
  const params = shown.params;
  const wanted = (params.get("parts") || "chart,cards,tents,standings").split(",");
  const size = params.get("paper") === "letter" ? "letter" : "a4";
  setPaper(size);
  const chart = night.rounds.map((r) => `<table class="chart-round">
      <caption>${fmt(_("Round {n}"), { n: r.number })}</caption>
      <thead><tr><th scope="col">${_("Table")}</th><th scope="col">${_("Partners")}</th>
        <th scope="col">${_("Partners")}</th></tr></thead>
      <tbody>${r.tables.map((t) => `<tr><th scope="row">${t.table}${t.online ? ` <span class="muted">(${_("online")})</span>` : ""}</th><td>${pair(t.sides[0])}</td>
        <td>${pair(t.sides[1])}</td></tr>`).join("")}
      ${r.out.length ? `<tr><th scope="row">${_("Out")}</th><td colspan="2">${esc(r.out.map((p) => p.name).join(", "))}</td></tr>` : ""}
      </tbody></table>`).join("");
  const asked = Number(params.get("round"));
  const r = roundOf(asked) || latest();
  const hands = night.settings.hands || 12;
  // an online table keeps its own score: no card for it
  const cards = r ? r.tables.filter((t) => !t.online).map((t) => `<article class="score-card">
      <h2>${esc(night.name)} — ${fmt(_("Round {n}, table {table}"), { n: r.number, table: t.table })}</h2>
      <table><thead><tr><th scope="col">${_("Hand")}</th><th scope="col">${pair(t.sides[0])}</th>
        <th scope="col">${pair(t.sides[1])}</th></tr></thead>
      <tbody>${Array.from({ length: hands }, (_x, i) => `<tr><th scope="row">${i + 1}</th><td></td><td></td></tr>`).join("")}
        <tr class="card-total"><th scope="row">${_("Total")}</th><td></td><td></td></tr>
        <tr><th scope="row">${_("Lone hands")}</th><td></td><td></td></tr>
        <tr><th scope="row">${_("Signed")}</th><td></td><td></td></tr></tbody></table></article>`).join("")
    : `<p>${_("The score cards are printed once a round is seated.")}</p>`;
  const tables = Math.max(1, ...night.rounds.map((x) => x.tables.length));
  const qr = `/api/nights/${encodeURIComponent(night.id)}/qr.svg`;
  const tents = Array.from({ length: tables }, (_x, i) => `<article class="tent">
      <div class="tent-half upside">${fmt(_("Table {n}"), { n: i + 1 })}</div>
      <div class="tent-half"><p class="tent-number">${fmt(_("Table {n}"), { n: i + 1 })}</p>
        <img class="qr" src="${qr}" width="160" height="160" ${attr("alt", _("QR code of the night's page"))}>
        <p>${esc(night.name)}</p></div></article>`).join("");
  const parts = {
    chart: `<section class="print-part"><h1>${esc(night.name)} — ${_("The chart")}</h1>
      <p>${esc(night.day)} · ${esc(FORMATS()[night.format])}</p><div class="chart">${chart + chartAhead() || _("No round has started yet.")}</div></section>`,
    cards: `<section class="print-part cards">${cards}</section>`,
    tents: `<section class="print-part tents">${tents}</section>`,
    standings: `<section class="print-part"><h1>${esc(night.name)} — ${_("Final standings")}</h1>
      <p>${esc(night.day)}</p>${standingsTable()}
      <p class="muted">${_("Ties: rounds won, then one extra hand (=).")}</p></section>`,
  };
  const choices = PARTS().map(([k, w]) => `<label class="check inline"><input type="checkbox" name="part"
      value="${k}" ${wanted.includes(k) ? "checked" : ""}>${w}</label>`).join(" ");
  patch(root, `<div class="printouts">
    <form class="print-controls panel" id="print-form">
      <fieldset class="field"><legend>${_("Print")}</legend>${choices}</fieldset>
      ${night.rounds.length ? `<label class="field">${_("Score cards of round")}<select name="round">
        ${night.rounds.map((x) => `<option value="${x.number}" ${x === r ? "selected" : ""}>${x.number}</option>`).join("")}
        </select></label>` : ""}
      <label class="field">${_("Paper")}<select name="paper">
        <option value="a4" ${size === "a4" ? "selected" : ""}>A4</option>
        <option value="letter" ${size === "letter" ? "selected" : ""}>Letter</option></select></label>
      <button class="primary" type="button" id="print-now">${_("Print")}</button></form>
    ${wanted.filter((k) => k in parts).map((k) => parts[k]).join("")}</div>`);
  $("#print-form").onchange = () => {
    const f = new FormData($("#print-form"));
    const next = new URLSearchParams({ parts: f.getAll("part").join(","), paper: f.get("paper") });
    if (f.get("round")) next.set("round", f.get("round"));
    history.replaceState(null, "", `${location.pathname}?${next}`);
    shown.params = next;
    drawPrint(root);
  };
  $("#print-now").onclick = () => window.print();
}
