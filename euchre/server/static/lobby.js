// The lobby: create a table with any variant and option, fill the seats, list open
// tables to join or watch, and finished games to replay.

import {
  $, attr, $$, api, esc, setTopbar, storeName, storedName, tableName, toast, VARIANT_NAMES,
} from "./util.js";
import { suitIcon } from "./cards.js";
import { botLabel, botNote, DEFAULT_LEVEL } from "./bots.js";
import { _, fmt, language, ngettext, pgettext } from "./i18n.js";

const SEAT_WORDS = () => ({
  2: [_("You"), _("Opponent")],
  3: [_("You"), _("Left"), _("Right")],
  4: [_("You"), _("Left"), _("Partner"), _("Right")],
  5: [_("You"), _("Left"), _("Across left"), _("Across right"), _("Right")],
});

/** What each option means, and its section of the rules page (the same anchor in every
 * language: the English heading's); the rules of the variant chosen are opened with it, or
 * of the one variant the option is for. */
const NOTES = () => ({
  joker: { note: _("Add the joker, the highest trump"), section: "the-pack" },
  stick_the_dealer: {
    note: _("The dealer may not pass in the second bidding round"),
    section: "choosing-trump-the-bidding",
  },
  dealer_must_take_up: {
    note: _("The dealer must keep the turn-up when ordered up"), section: "after-the-bidding",
  },
  defend_alone: { note: _("A defender may go alone"), section: "defending-alone" },
  draw: {
    note: _("The draw fixes partners and the first dealer"), section: "four-handed-extras", variant: 4,
  },
  rubber: {
    note: _("Best of three games, with rubber points"), section: "four-handed-extras", variant: 4,
  },
});

/** The lobby again, in another language: the form keeps what was chosen. */
export function relabelLobby(root) {
  const form = $("#new-form");
  if (!form) return;
  const kept = new FormData(form);
  const name = $("#your-name").value;
  const seats = $$("#seats select").map((x) => x.value);
  const timer = $("#turn-timer");
  const chosenTimer = timer.dataset.chosen ? timer.value : null;
  showLobby(root).then(() => {
    $("#your-name").value = name;
    const n = kept.get("players");
    if (n) { $(`input[name=players][value="${n}"]`).checked = true; renderRules(); }
    const f = $("#new-form");
    for (const [key, value] of kept.entries()) {
      const input = f.querySelector(`[name="${key}"][value="${value}"]`)
        || f.querySelector(`[name="${key}"]`);
      if (!input || key === "players" || key.startsWith("seat")) continue;
      if (input.type === "checkbox") input.checked = true;
      else if (input.type === "radio") input.checked = true;
      else input.value = value;
    }
    for (const box of f.querySelectorAll("input[type=checkbox]")) box.checked = kept.has(box.name);
    renderJokerTurnup();
    $$("#seats select").forEach((x, i) => { if (seats[i]) x.value = seats[i]; });
    showSeatNotes();
    if (chosenTimer !== null) { $("#turn-timer").value = chosenTimer; $("#turn-timer").dataset.chosen = "1"; }
    proposeTurnTimer();
  });
}

let options = null;
let refreshTimer = null;

export async function showLobby(root) {
  clearInterval(refreshTimer);
  setTopbar("", "");
  options = options || await api("/api/options");
  root.innerHTML = `
    <div class="lobby">
      <section class="panel new-table" aria-labelledby="new-title">
        <h1 id="new-title">${_("New table")}</h1>
        <form id="new-form" autocomplete="off">
          <label class="field">${_("Your name")}
            <input id="your-name" name="your-name" maxlength="40" ${attr("placeholder", _("Your name"))}
              ${attr("value", storedName())}>
          </label>
          <label class="field">${_("Table name")}
            <input id="table-name" name="table-name" maxlength="60" ${attr("placeholder", _("Friday night euchre"))}>
          </label>
          <fieldset class="field">
            <legend>${_("Variant")}</legend>
            <div class="segmented" id="variant">
              ${[2, 3, 4, 5].map((n) => `
                <label><input type="radio" name="players" value="${n}" ${n === 4 ? "checked" : ""}>
                <span>${VARIANT_NAMES()[n]}</span></label>`).join("")}
            </div>
          </fieldset>
          <div id="rules-fields" class="rules-fields"></div>
          <fieldset class="field">
            <legend>${_("Seats")} <small>${_("(play goes clockwise, to the left)")}</small></legend>
            <div id="seats" class="seats-form"></div>
          </fieldset>
          <label class="field turn-timer">${_("Turn timer")}
            <select name="turn_timer" id="turn-timer">
              <option value="">${pgettext("turn timer", "Off")}</option>
              ${[30, 60, 120, 300].map((t) => `<option value="${t}">${timerText(t)}</option>`).join("")}
            </select>
            <small>${_("When it runs out, a bot plays the seat until its player takes it back. Proposed for tables with open seats, off among friends.")}</small>
          </label>
          <div class="field public-field">
            <span class="check-row"><label class="check"><input type="checkbox" name="public" id="public">
              <span>${_("Public: listed in the lobby, anyone may watch")}</span></label></span>
            <small>${_("A table with invitations is private unless you choose: only the people you invite, and those you give the watch link, see it.")}</small>
          </div>
          <p id="form-error" class="error" role="alert" hidden></p>
          <button class="primary big" id="create" type="submit">${_("Create table")}</button>
        </form>
      </section>
      <section class="panel" aria-labelledby="open-title">
        <div id="my-tables"></div>
        <h2 id="open-title">${_("Open tables")}</h2>
        <div id="open-tables"><p class="muted">${_("Loading…")}</p></div>
        <h2>${_("Finished games")}</h2>
        <div id="finished"><p class="muted">${_("Loading…")}</p></div>
        <nav id="pages" class="pages" ${attr("aria-label", _("More tables"))} hidden>
          <button class="small" id="page-newer" type="button">${_("Newer")}</button>
          <span id="page-where" class="muted small"></span>
          <button class="small" id="page-older" type="button">${_("Older")}</button>
        </nav>
      </section>
    </div>`;
  const form = $("#new-form");
  form.addEventListener("change", (e) => {
    if (e.target.name === "players") renderRules();
    else if (e.target.name === "deck" || e.target.name === "joker") renderJokerTurnup();
    if (e.target.name === "turn_timer" || e.target.name === "public") e.target.dataset.chosen = "1";
    if (e.target.name && e.target.name.startsWith("seat")) showSeatNotes();
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

function timerText(seconds) {
  if (seconds < 60) return fmt(ngettext("{count} second", "{count} seconds", seconds), { count: seconds });
  const minutes = seconds / 60;
  return fmt(ngettext("{count} minute", "{count} minutes", minutes), { count: minutes });
}

function players() {
  return Number($("input[name=players]:checked").value);
}

function check(name, label, on, about, disabled = false) {
  const variant = about ? about.variant || players() : null;
  const link = about ? `<a class="rules-section" href="/rules/${language()}?variant=${variant}#${about.section}"
    target="_blank" rel="help" ${attr("title", about.note)}
    ${attr("aria-label", fmt(_("{note}: read the rules"), { note: about.note }))}>?</a>` : "";
  return `<span class="check-row"><label class="check ${disabled ? "disabled" : ""}"
    ${attr("title", about ? about.note : "")}>
    <input type="checkbox" name="${name}" ${on ? "checked" : ""} ${disabled ? "disabled" : ""}>
    <span>${label}</span></label>${link}</span>`;
}

function renderRules() {
  const n = players();
  const d = options.variants[n].defaults;
  const notes = NOTES();
  const decks = [24, 28, 32].map((k) => `
    <label><input type="radio" name="deck" value="${k}" ${k === d.deck ? "checked" : ""}>
    <span>${k}</span></label>`).join("");
  const four = n === 4;
  $("#rules-fields").innerHTML = `
    <div class="field-row">
      <fieldset class="field"><legend>${_("Pack")}</legend>
        <div class="segmented small">${decks}</div></fieldset>
      <label class="field target">${_("Play to")}
        <input type="number" name="target" min="1" max="100" value="${d.target}"
          ${four ? 'list="targets"' : ""}>
        <datalist id="targets"><option value="5"><option value="7"><option value="10"></datalist>
      </label>
    </div>
    <div class="checks">
      ${check("joker", _("Joker (benny)"), d.joker, notes.joker)}
      ${check("stick_the_dealer", _("Stick the dealer"), d.stick_the_dealer, notes.stick_the_dealer)}
      ${check("dealer_must_take_up", _("Dealer must take up"), d.dealer_must_take_up,
    notes.dealer_must_take_up)}
      ${check("defend_alone", _("Defend alone"), d.defend_alone, notes.defend_alone,
      n === 2 || n === 5)}
      ${check("draw", _("The draw for partners"), d.draw, notes.draw, !four)}
      ${check("rubber", _("Rubber (best of three)"), d.rubber, notes.rubber, !four)}
    </div>
    <div id="joker-turnup"></div>`;
  renderJokerTurnup();
  renderSeats(n);
}

function renderJokerTurnup() {
  const box = $("#joker-turnup");
  const on = $("input[name=joker]").checked;
  if (!on) { box.innerHTML = ""; return; }
  const choices = [["dealer_names", _("the dealer names trump")],
    ...["C", "D", "H", "S"].map((s) => [`suit:${s}`, s])];
  box.innerHTML = `<fieldset class="field"><legend>${_("Joker turned up")}</legend>
    <div class="segmented small">${choices.map(([v, label], i) => `
      <label><input type="radio" name="joker_turnup" value="${v}" ${i === 0 ? "checked" : ""}>
      <span>${label.length === 1 ? suitIcon(label) : esc(label)}</span></label>`).join("")}
    </div></fieldset>`;
}

/** The bot levels the lobby offers (the server's `levels`: Beginner to Expert), never the
 * research bots an API client may also seat. */
function offeredLevels() {
  return options.levels || [];
}

function renderSeats(n) {
  const levels = offeredLevels();
  const previous = $$("#seats select").map((s) => s.value);
  const words = SEAT_WORDS()[n];
  $("#seats").innerHTML = words.map((word, i) => {
    const fallback = i === 0 ? "you" : `bot:${levels.includes(DEFAULT_LEVEL) ? DEFAULT_LEVEL : levels[0]}`;
    const value = previous[i] || fallback;
    const opts = [
      ["you", _("You")], ["friend", _("A friend (invitation link)")],
      ["open", _("Open seat (anyone in the lobby)")],
      ...levels.map((b) => [`bot:${b}`, fmt(_("Bot: {level}"), { level: botLabel(b) }), botNote(b)]),
    ];
    return `<label class="seat-choice"><span class="seat-word">${i + 1}. ${word}</span>
      <select name="seat${i}" ${attr("aria-label", fmt(_("Seat {number}"), { number: i + 1 }))}>
        ${opts.map(([v, t, note]) => `<option value="${v}" ${v === value ? "selected" : ""}
          ${note ? attr("title", note) : ""}>${esc(t)}</option>`).join("")}
      </select><small class="seat-note"></small></label>`;
  }).join("");
  showSeatNotes();
}

/** Under each seat given to a bot, one line on how its level plays. */
function showSeatNotes() {
  for (const select of $$("#seats select")) {
    const note = select.parentElement.querySelector(".seat-note");
    const level = select.value.startsWith("bot:") ? select.value.slice(4) : null;
    note.textContent = level ? botNote(level) : "";
    note.hidden = !note.textContent;
  }
}

/** A turn timer for tables that strangers may join; none among friends, unless chosen.
 * A table with invitations is private, unless chosen otherwise. */
function proposeTurnTimer() {
  const publicBox = $("#public");
  if (publicBox && !publicBox.dataset.chosen) {
    publicBox.checked = !$$("#seats select").some((x) => x.value === "friend");
  }
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
    return v === "you" ? { kind: "you", name: name || _("You") } : { kind: v };
  });
  try {
    const timer = $("#turn-timer").value;
    const body = {
      rules: formRules(), seats, turn_timer: timer ? Number(timer) : null,
      name: $("#table-name").value.trim(), private: !$("#public").checked,
    };
    const answer = await api("/api/tables", { method: "POST", body });
    if (answer.token) {
      localStorage.setItem(`euchre.token.${answer.id}`, answer.token);
      localStorage.setItem(`euchre.joined.${answer.id}`, "1");
    }
    // the host link's key: the invitations, a bot for an absent player, the end of the
    // table, from this browser or any device the host link is opened on
    localStorage.setItem(`euchre.host.${answer.id}`, answer.host);
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
    if (s.kind === "bot") who = `${esc(s.name)} <span class="bot-tag" ${attr("title", botNote(s.bot))}>(${esc(fmt(_("Bot: {level}"), { level: botLabel(s.bot) }))})</span>`;
    else if (s.open) {
      who = `<button class="small take-seat" data-table="${table.id}" data-place="${s.place}">
        ${esc(fmt(_("Take seat {number}"), { number: s.seat + 1 }))}</button>`;
    } else if (!s.claimed) who = `<span class="muted">${_("(invited)")}</span>`;
    return `<li>${who}${s.kind !== "bot" && s.connected ? ` <span class="dot on" ${attr("title", _("connected"))}></span>` : ""}</li>`;
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
      <div class="table-head"><strong>${esc(tableName(t.name, t.rules.players))}</strong>
        <span class="muted">${esc(fmt(_("{variant}, to {target} · deal {deal}"), {
    variant: VARIANT_NAMES()[t.rules.players], target: t.rules.target, deal: t.deal }))}</span></div>
      <ul class="seat-names">${seatList(t)}</ul>
      <div class="table-foot"><span class="score">${scoreText(t.scores)}</span>
        ${t.turn_timer ? `<span class="muted small" ${attr("title", _("turn timer"))}>${esc(fmt(_("{seconds} s a turn"), { seconds: t.turn_timer }))}</span>` : ""}
        ${localStorage.getItem(`euchre.token.${t.id}`)
    ? `<a class="button small primary" href="/table/${t.id}">${_("Resume")}</a>
       <button class="small table-leave" data-table="${t.id}">${_("Leave")}</button>` : ""}
        ${localStorage.getItem(`euchre.host.${t.id}`)
    ? `<button class="small table-delete" data-table="${t.id}">${_("Delete")}</button>` : ""}
        <a class="button small" href="/table/${t.id}">${_("Watch")}</a></div>
    </li>`).join("")}</ul>` : `<p class="muted">${_("No open tables. Create one!")}</p>`;
  $$(".take-seat", open).forEach((b) => b.addEventListener("click", () => takeSeat(b)));
  $$(".table-leave", open).forEach((b) => b.addEventListener("click", () => giveUp(b.dataset.table, "leave")));
  $$(".table-delete", open).forEach((b) => b.addEventListener("click", () => giveUp(b.dataset.table, "delete")));
  showMyTables(new Set(data.open.map((t) => t.id)));
  const finished = $("#finished");
  finished.innerHTML = data.finished.length ? `<ul class="table-list">${data.finished.map((f) => {
    const last = f.result.games[f.result.games.length - 1];
    return `<li class="table-item">
      <div class="table-head"><strong>${esc(tableName(f.name, f.names.length))}</strong>
        <span class="muted">${esc(VARIANT_NAMES()[f.names.length])} · ${esc(f.names.join(", "))}</span></div>
      <div class="table-foot"><span class="score">${scoreText(last.scores)}</span>
        <a class="button small" href="/history/${f.id}/${f.match}">${_("Replay")}</a>
        <a class="button small" href="/api/tables/${f.id}/matches/${f.match}/record"
          download>${_("Record")}</a></div></li>`;
  }).join("")}</ul>` : `<p class="muted">${_("None yet.")}</p>`;
}

/** The paging buttons: newer and older pages of the open tables and finished games. */
function showPages(data) {
  const nav = $("#pages");
  if (!nav) return;
  const first = data.offset === 0;
  nav.hidden = first && data.next === null;
  const shown = data.open.length
    ? fmt(_("open tables {first}–{last} of {total}"), {
      first: data.offset + 1, last: data.offset + data.open.length, total: data.open_total })
    : fmt(_("page {number}"), { number: Math.floor(data.offset / data.limit) + 1 });
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
    ? _("Delete this table, with every game played at it, for everyone?")
    : _("Leave this table? Your seat opens to others, and a bot plays it meanwhile.");
  if (!window.confirm(question)) return;
  const token = localStorage.getItem(`euchre.token.${id}`);
  const host = localStorage.getItem(`euchre.host.${id}`);
  try {
    if (how === "delete") await api(`/api/tables/${id}`, { method: "DELETE", body: { token: host } });
    else await api(`/api/tables/${id}/leave`, { method: "POST", body: { token } });
  } catch (e) {
    toast(e.message);
    return;
  }
  const gone = how === "delete" ? ["token", "joined", "owner", "host", "watch"] : ["token", "joined"];
  for (const key of gone) localStorage.removeItem(`euchre.${key}.${id}`);
  toast(how === "delete" ? _("Table deleted") : _("You left the table"));
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

/** The tables this browser holds a seat or the host's key of, that the lobby's list does
 * not show (a private table is listed nowhere else): to resume them. */
async function showMyTables(listed) {
  const box = $("#my-tables");
  if (!box) return;
  const ids = new Set();
  for (let i = 0; i < localStorage.length; i += 1) {
    const m = localStorage.key(i).match(/^euchre\.(token|host)\.([\w-]+)$/);
    if (m && !listed.has(m[2])) ids.add(m[2]);
  }
  const found = [];
  for (const id of [...ids].slice(0, 12)) {
    try {
      const t = await api(`/api/tables/${id}`);
      if (!t.over) found.push(t);
    } catch (e) {
      if (e.code === "no_table") {
        for (const key of ["token", "joined", "owner", "host", "watch"]) localStorage.removeItem(`euchre.${key}.${id}`);
      }
    }
  }
  if (!$("#my-tables")) return;
  box.innerHTML = found.length ? `<h2>${_("Your tables")}</h2><ul class="table-list">${found.map((t) => `
    <li class="table-item"><div class="table-head"><strong>${esc(tableName(t.name, t.rules.players))}</strong>
      <span class="muted">${esc(VARIANT_NAMES()[t.rules.players])}${t.private ? ` · ${esc(_("private"))}` : ""}</span></div>
      <div class="table-foot"><a class="button small primary" href="/table/${t.id}">${_("Resume")}</a></div></li>`).join("")}</ul>` : "";
}
