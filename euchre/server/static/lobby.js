// The lobby: create a table with any variant and option, fill the seats, list open
// tables to join or watch, and finished games to replay.

import { $, $$, api, esc, setTopbar, storeName, storedName, toast, VARIANT_NAMES } from "./util.js";
import { suitIcon } from "./cards.js";

const SEAT_WORDS = {
  2: ["You", "Opponent"],
  3: ["You", "Left", "Right"],
  4: ["You", "Left", "Partner", "Right"],
  5: ["You", "Left", "Across left", "Across right", "Right"],
};

let options = null;
let refreshTimer = null;

export async function showLobby(root) {
  clearInterval(refreshTimer);
  setTopbar("", "");
  options = options || await api("/api/options");
  root.innerHTML = `
    <div class="lobby">
      <section class="panel new-table" aria-labelledby="new-title">
        <h1 id="new-title">New table</h1>
        <form id="new-form" autocomplete="off">
          <label class="field">Your name
            <input id="your-name" name="your-name" maxlength="40" placeholder="Your name"
              value="${esc(storedName())}">
          </label>
          <fieldset class="field">
            <legend>Variant</legend>
            <div class="segmented" id="variant">
              ${[2, 3, 4, 5].map((n) => `
                <label><input type="radio" name="players" value="${n}" ${n === 4 ? "checked" : ""}>
                <span>${VARIANT_NAMES[n]}</span></label>`).join("")}
            </div>
          </fieldset>
          <div id="rules-fields" class="rules-fields"></div>
          <fieldset class="field">
            <legend>Seats <small>(play goes clockwise, to the left)</small></legend>
            <div id="seats" class="seats-form"></div>
          </fieldset>
          <label class="field turn-timer">Turn timer
            <select name="turn_timer" id="turn-timer">
              <option value="">Off</option><option value="30">30 seconds</option>
              <option value="60">1 minute</option><option value="120">2 minutes</option>
              <option value="300">5 minutes</option>
            </select>
            <small>When it runs out, a bot plays the seat until its player takes it back.
              Proposed for tables with open seats, off among friends.</small>
          </label>
          <p id="form-error" class="error" role="alert" hidden></p>
          <button class="primary big" id="create" type="submit">Create table</button>
        </form>
      </section>
      <section class="panel" aria-labelledby="open-title">
        <h2 id="open-title">Open tables</h2>
        <div id="open-tables"><p class="muted">Loading…</p></div>
        <h2>Finished games</h2>
        <div id="finished"><p class="muted">Loading…</p></div>
        <nav id="pages" class="pages" aria-label="More tables" hidden>
          <button class="small" id="page-newer" type="button">Newer</button>
          <span id="page-where" class="muted small"></span>
          <button class="small" id="page-older" type="button">Older</button>
        </nav>
      </section>
    </div>`;
  const form = $("#new-form");
  form.addEventListener("change", (e) => {
    if (e.target.name === "players") renderRules();
    else if (e.target.name === "deck" || e.target.name === "joker") renderJokerTurnup();
    if (e.target.name === "turn_timer") e.target.dataset.chosen = "1";
    proposeTurnTimer();
  });
  form.addEventListener("submit", (e) => { e.preventDefault(); createTable(); });
  renderRules();
  proposeTurnTimer();
  await refreshTables();
  refreshTimer = setInterval(() => {
    if (!document.body.contains($("#open-tables"))) clearInterval(refreshTimer);
    else refreshTables();
  }, 4000);
}

function players() {
  return Number($("input[name=players]:checked").value);
}

function check(name, label, on, note, disabled = false) {
  return `<label class="check ${disabled ? "disabled" : ""}" title="${esc(note || "")}">
    <input type="checkbox" name="${name}" ${on ? "checked" : ""} ${disabled ? "disabled" : ""}>
    <span>${label}</span></label>`;
}

function renderRules() {
  const n = players();
  const d = options.variants[n].defaults;
  const notes = options.notes;
  const decks = [24, 28, 32].map((k) => `
    <label><input type="radio" name="deck" value="${k}" ${k === d.deck ? "checked" : ""}>
    <span>${k}</span></label>`).join("");
  const four = n === 4;
  $("#rules-fields").innerHTML = `
    <div class="field-row">
      <fieldset class="field"><legend>Pack</legend>
        <div class="segmented small">${decks}</div></fieldset>
      <label class="field target">Play to
        <input type="number" name="target" min="1" max="100" value="${d.target}"
          ${four ? 'list="targets"' : ""}>
        <datalist id="targets"><option value="5"><option value="7"><option value="10"></datalist>
      </label>
    </div>
    <div class="checks">
      ${check("joker", "Joker (benny)", d.joker, notes.joker)}
      ${check("stick_the_dealer", "Stick the dealer", d.stick_the_dealer, notes.stick_the_dealer)}
      ${check("dealer_must_take_up", "Dealer must take up", d.dealer_must_take_up,
    notes.dealer_must_take_up)}
      ${check("defend_alone", "Defend alone", d.defend_alone, notes.defend_alone,
      n === 2 || n === 5)}
      ${check("draw", "The draw for partners", d.draw, notes.draw, !four)}
      ${check("rubber", "Rubber (best of three)", d.rubber, notes.rubber, !four)}
    </div>
    <div id="joker-turnup"></div>`;
  renderJokerTurnup();
  renderSeats(n);
}

function renderJokerTurnup() {
  const box = $("#joker-turnup");
  const on = $("input[name=joker]").checked;
  if (!on) { box.innerHTML = ""; return; }
  const choices = [["dealer_names", "the dealer names trump"],
    ...["C", "D", "H", "S"].map((s) => [`suit:${s}`, s])];
  box.innerHTML = `<fieldset class="field"><legend>Joker turned up</legend>
    <div class="segmented small">${choices.map(([v, label], i) => `
      <label><input type="radio" name="joker_turnup" value="${v}" ${i === 0 ? "checked" : ""}>
      <span>${label.length === 1 ? suitIcon(label) : esc(label)}</span></label>`).join("")}
    </div></fieldset>`;
}

function renderSeats(n) {
  const bots = options.bots;
  const previous = $$("#seats select").map((s) => s.value);
  const words = SEAT_WORDS[n];
  $("#seats").innerHTML = words.map((word, i) => {
    const fallback = i === 0 ? "you" : `bot:${bots.includes("basic") ? "basic" : bots[0]}`;
    const value = previous[i] || fallback;
    const opts = [
      ["you", "You"], ["friend", "A friend (invitation link)"],
      ["open", "Open seat (anyone in the lobby)"],
      ...bots.map((b) => [`bot:${b}`, `Bot: ${b}`]),
    ];
    return `<label class="seat-choice"><span class="seat-word">${i + 1}. ${word}</span>
      <select name="seat${i}" aria-label="Seat ${i + 1}">
        ${opts.map(([v, t]) => `<option value="${v}" ${v === value ? "selected" : ""}>${esc(t)}</option>`).join("")}
      </select></label>`;
  }).join("");
}

/** A turn timer for tables that strangers may join; none among friends, unless chosen. */
function proposeTurnTimer() {
  const select = $("#turn-timer");
  if (!select || select.dataset.chosen) return;
  const open = $$("#seats select").some((s) => s.value === "open");
  select.value = open ? "60" : "";
}

function formRules() {
  const form = $("#new-form");
  const get = (name) => form.querySelector(`[name=${name}]`);
  const rules = {
    players: players(),
    deck: Number(form.querySelector("input[name=deck]:checked").value),
    joker: get("joker").checked,
    stick_the_dealer: get("stick_the_dealer").checked,
    dealer_must_take_up: get("dealer_must_take_up").checked,
    target: Number(get("target").value),
  };
  if (!get("defend_alone").disabled) rules.defend_alone = get("defend_alone").checked;
  if (!get("draw").disabled) rules.draw = get("draw").checked;
  if (!get("rubber").disabled) rules.rubber = get("rubber").checked;
  const jt = form.querySelector("input[name=joker_turnup]:checked");
  if (rules.joker && jt) rules.joker_turnup = jt.value;
  return rules;
}

async function createTable() {
  const error = $("#form-error");
  error.hidden = true;
  const name = $("#your-name").value.trim();
  storeName(name);
  const seats = $$("#seats select").map((select) => {
    const v = select.value;
    if (v.startsWith("bot:")) return { kind: "bot", bot: v.slice(4) };
    return v === "you" ? { kind: "you", name: name || "You" } : { kind: v };
  });
  try {
    const timer = $("#turn-timer").value;
    const body = { rules: formRules(), seats, turn_timer: timer ? Number(timer) : null };
    const answer = await api("/api/tables", { method: "POST", body });
    if (answer.token) {
      localStorage.setItem(`euchre.token.${answer.id}`, answer.token);
      localStorage.setItem(`euchre.joined.${answer.id}`, "1");
      localStorage.setItem(`euchre.owner.${answer.id}`, "1");
    }
    if (answer.invites.length) {
      sessionStorage.setItem(`euchre.invites.${answer.id}`, JSON.stringify(answer.invites));
    }
    history.pushState(null, "", answer.url);
    window.dispatchEvent(new PopStateEvent("popstate"));
  } catch (e) {
    error.textContent = e.message;
    error.hidden = false;
  }
}

function seatList(table) {
  return table.seats.map((s) => {
    let who = esc(s.name);
    if (s.kind === "bot") who = `${esc(s.name)} <span class="bot-tag">(${esc(s.bot)} bot)</span>`;
    else if (s.open) {
      who = `<button class="small take-seat" data-table="${table.id}" data-place="${s.place}">
        Take seat ${s.seat + 1}</button>`;
    } else if (!s.claimed) who = `<span class="muted">(invited)</span>`;
    return `<li>${who}${s.kind !== "bot" && s.connected ? ' <span class="dot on" title="connected"></span>' : ""}</li>`;
  }).join("");
}

function scoreText(scores) {
  // four-handed partners share a score: show it once per side
  return (scores.length === 4 ? [scores[0], scores[1]] : scores).join(" – ");
}

/** Where the lists start: the server answers a page of tables at a time. */
let pageOffset = 0;

async function refreshTables() {
  let data;
  try { data = await api(`/api/tables?offset=${pageOffset}`); } catch { return; }
  const open = $("#open-tables");
  if (!open) return;
  showPages(data);
  open.innerHTML = data.open.length ? `<ul class="table-list">${data.open.map((t) => `
    <li class="table-item">
      <div class="table-head"><strong>${esc(t.name)}</strong>
        <span class="muted">${esc(t.variant)}, to ${t.rules.target} · deal ${t.deal}</span></div>
      <ul class="seat-names">${seatList(t)}</ul>
      <div class="table-foot"><span class="score">${scoreText(t.scores)}</span>
        ${t.turn_timer ? `<span class="muted small" title="turn timer">${t.turn_timer} s a turn</span>` : ""}
        ${localStorage.getItem(`euchre.token.${t.id}`)
    ? `<a class="button small primary" href="/table/${t.id}">Resume</a>
       <button class="small table-leave" data-table="${t.id}">Leave</button>` : ""}
        ${localStorage.getItem(`euchre.owner.${t.id}`) && localStorage.getItem(`euchre.token.${t.id}`)
    ? `<button class="small table-delete" data-table="${t.id}">Delete</button>` : ""}
        <a class="button small" href="/table/${t.id}">Watch</a></div>
    </li>`).join("")}</ul>` : `<p class="muted">No open tables. Create one!</p>`;
  $$(".take-seat", open).forEach((b) => b.addEventListener("click", () => takeSeat(b)));
  $$(".table-leave", open).forEach((b) => b.addEventListener("click", () => giveUp(b.dataset.table, "leave")));
  $$(".table-delete", open).forEach((b) => b.addEventListener("click", () => giveUp(b.dataset.table, "delete")));
  const finished = $("#finished");
  finished.innerHTML = data.finished.length ? `<ul class="table-list">${data.finished.map((f) => {
    const last = f.result.games[f.result.games.length - 1];
    return `<li class="table-item">
      <div class="table-head"><strong>${esc(f.name)}</strong>
        <span class="muted">${esc(f.variant)} · ${esc(f.names.join(", "))}</span></div>
      <div class="table-foot"><span class="score">${scoreText(last.scores)}</span>
        <a class="button small" href="/history/${f.id}/${f.match}">Replay</a>
        <a class="button small" href="/api/tables/${f.id}/matches/${f.match}/record"
          download>Record</a></div></li>`;
  }).join("")}</ul>` : `<p class="muted">None yet.</p>`;
}

/** The paging buttons: newer and older pages of the open tables and finished games. */
function showPages(data) {
  const nav = $("#pages");
  if (!nav) return;
  const first = data.offset === 0;
  nav.hidden = first && data.next === null;
  const shown = data.open.length ? `open tables ${data.offset + 1}–${data.offset + data.open.length} of ${data.open_total}` : `page ${Math.floor(data.offset / data.limit) + 1}`;
  $("#page-where").textContent = shown;
  const newer = $("#page-newer");
  const older = $("#page-older");
  newer.disabled = first;
  older.disabled = data.next === null;
  newer.onclick = () => { pageOffset = Math.max(0, data.offset - data.limit); refreshTables(); };
  older.onclick = () => { pageOffset = data.next; refreshTables(); };
}

/** Leave a table (your seat opens to others), or delete one you created. */
async function giveUp(id, how) {
  const question = how === "delete"
    ? "Delete this table, with every game played at it, for everyone?"
    : "Leave this table? Your seat opens to others, and a bot plays it meanwhile.";
  if (!window.confirm(question)) return;
  const token = localStorage.getItem(`euchre.token.${id}`);
  try {
    if (how === "delete") await api(`/api/tables/${id}`, { method: "DELETE", body: { token } });
    else await api(`/api/tables/${id}/leave`, { method: "POST", body: { token } });
  } catch (e) {
    toast(e.message);
    return;
  }
  for (const key of ["token", "joined", "owner"]) localStorage.removeItem(`euchre.${key}.${id}`);
  toast(how === "delete" ? "Table deleted" : "You left the table");
  refreshTables();
}

async function takeSeat(button) {
  const name = ($("#your-name").value || storedName()).trim();
  storeName(name);
  try {
    const answer = await api(`/api/tables/${button.dataset.table}/join`, {
      method: "POST", body: { place: Number(button.dataset.place), name },
    });
    localStorage.setItem(`euchre.token.${answer.id}`, answer.token);
    localStorage.setItem(`euchre.joined.${answer.id}`, "1");
    history.pushState(null, "", answer.url);
    window.dispatchEvent(new PopStateEvent("popstate"));
  } catch (e) {
    toast(e.message);
  }
}
