// The lobby: create a table with any variant and option, fill the seats, list open
// tables to join or watch, and finished games to replay.

import {
  $, attr, $$, api, esc, setTopbar, storeName, storedName, tableKey, tableName, toast, VARIANT_NAMES,
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

/** The rules' options (GET /api/rules/options: the server's one table of them), each with
 * its label, its note (what it means) and its section of the rules page (the same anchor in
 * every language: the English heading's); the form is made of them, in their order. */
let ruleOptions = null;

/** The options asked for below the variant: all but the number of players. */
const ruleFields = () => ruleOptions.filter((o) => o.name !== "players");

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
    renderShownWith();
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
  // the puzzles and a club night for a room of players (night.js), from their own pages
  setTopbar("", `<a class="tool" href="/puzzles" ${attr("title", _("Puzzles: real positions where one decision matters"))}>${_("Puzzles")}</a>`,
    `<a class="tool" href="/night/new">${_("New club night")}</a>`);
  options = options || await api("/api/options");
  ruleOptions = ruleOptions || (await api("/api/rules/options")).options;
  const variants = ruleOptions.find((o) => o.name === "players");
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
            <legend>${_(variants.label)}</legend>
            <div class="segmented" id="variant">
              ${variants.choices.map((n) => `
                <label><input type="radio" name="players" value="${n}" ${n === variants.default ? "checked" : ""}>
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
    else if (ruleFields().some((o) => o.shown_with === e.target.name)) renderShownWith();
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

/** An option's "?": its note, linked to its section of the rules of the variant chosen (or
 * of the one variant the option is for). */
function rulesLink(o) {
  if (!o.section) return "";
  const variant = o.variants.length === 1 ? o.variants[0] : players();
  const note = _(o.note);
  return `<a class="rules-section" href="/rules/${language()}?variant=${variant}#${o.section}"
    target="_blank" rel="help" ${attr("title", note)}
    ${attr("aria-label", fmt(_("{note}: read the rules"), { note }))}>?</a>`;
}

/** A true-or-false option: a check box, disabled in a variant it is not played in. */
function check(o, on, disabled) {
  return `<span class="check-row"><label class="check ${disabled ? "disabled" : ""}"
    ${attr("title", _(o.note))}>
    <input type="checkbox" name="${o.name}" ${on ? "checked" : ""} ${disabled ? "disabled" : ""}>
    <span>${_(o.label)}</span></label>${rulesLink(o)}</span>`;
}

/** A choice among a few values: a row of buttons ("suit:S" shows the suit). */
function choice(o, chosen) {
  const labels = o.choice_labels;
  const shown = (v) => (labels[v] ? esc(_(labels[v]))
    : String(v).startsWith("suit:") ? suitIcon(String(v).slice(5)) : esc(String(v)));
  return `<fieldset class="field"><legend>${_(o.label)}</legend>
    <div class="segmented small">${o.choices.map((v) => `
      <label><input type="radio" name="${o.name}" value="${v}" ${v === chosen ? "checked" : ""}>
      <span>${shown(v)}</span></label>`).join("")}
    </div></fieldset>`;
}

/** A number between its bounds, with the values usually played in some variants. */
function number(o, value, n) {
  const list = o.suggestions.length && o.suggested_for.includes(n) ? `list="${o.name}s"` : "";
  return `<label class="field ${o.name}">${_(o.label)}
        <input type="number" name="${o.name}" min="${o.low}" max="${o.high}" value="${value}"
          ${list}>
        <datalist id="${o.name}s">${o.suggestions.map((v) => `<option value="${v}">`).join("")}</datalist>
      </label>`;
}

function renderRules() {
  const n = players();
  const fields = ruleFields().filter((o) => !o.shown_with);
  const row = fields.filter((o) => o.type !== "bool")
    .map((o) => (o.choices.length ? choice(o, o.defaults[n]) : number(o, o.defaults[n], n)));
  const checks = fields.filter((o) => o.type === "bool")
    .map((o) => check(o, o.defaults[n], !o.variants.includes(n)));
  const shownWith = ruleFields().filter((o) => o.shown_with)
    .map((o) => `<div id="${o.name.replaceAll("_", "-")}"></div>`);
  $("#rules-fields").innerHTML = `
    <div class="field-row">${row.join("")}</div>
    <div class="checks">${checks.join("")}</div>
    ${shownWith.join("")}`;
  renderShownWith();
  renderSeats(n);
}

/** The options asked only while another is on (the joker turned up, with the joker). */
function renderShownWith() {
  for (const o of ruleFields().filter((x) => x.shown_with)) {
    const box = $(`#${o.name.replaceAll("_", "-")}`);
    const on = $(`input[name=${o.shown_with}]`).checked;
    box.innerHTML = on ? choice(o, o.defaults[players()]) : "";
  }
}

/** The bot levels the lobby offers for `n` players (the server's `levels` of the variant:
 * Beginner to Expert, the learned one where a model was made), never the research bots an
 * API client may also seat. */
function offeredLevels(n) {
  const variant = options.variants && options.variants[n];
  return (variant && variant.levels) || options.levels || [];
}

function renderSeats(n) {
  const levels = offeredLevels(n);
  const previous = $$("#seats select").map((s) => s.value);
  const words = SEAT_WORDS()[n];
  $("#seats").innerHTML = words.map((word, i) => {
    const fallback = i === 0 ? "you" : `bot:${levels.includes(DEFAULT_LEVEL) ? DEFAULT_LEVEL : levels[0]}`;
    const kept = previous[i];  // a level this variant does not offer falls back
    const value = kept && !(kept.startsWith("bot:") && !levels.includes(kept.slice(4))) ? kept : fallback;
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

/** The rules asked for: every option shown and enabled, as the table types it. */
function formRules() {
  const form = $("#new-form");
  const rules = { players: players() };
  for (const o of ruleFields()) {
    const input = form.querySelector(`input[name=${o.name}]`);
    if (!input || input.disabled) continue; // not played in this variant, or not shown
    if (o.type === "bool") { rules[o.name] = input.checked; continue; }
    const chosen = input.type === "radio" ? form.querySelector(`input[name=${o.name}]:checked`) : input;
    if (chosen) rules[o.name] = o.type === "int" ? Number(chosen.value) : chosen.value;
  }
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
      const t = await api(`/api/tables/${id}`, { headers: { "X-Euchre-Key": tableKey(id) } });
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
