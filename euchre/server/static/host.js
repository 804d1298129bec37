// The host's powers at a table, the waiting room and the table's chat.
//
// The host link (/table/ID?host=KEY) is kept in this browser's localStorage, so the host
// may close the tab, open the link on another device, and still see and re-issue the
// invitations, start the game, seat a bot for an absent player and give the seat back,
// remove a player, set the turn timer, mute someone in the chat, or end the table.  The
// server checks the key on every request; this page only shows what it answers.

import { $, api, attr, esc, showOverlay, closeOverlay, toast } from "./util.js";
import { _, fmt, ngettext } from "./i18n.js";
import { botLabel } from "./bots.js";

/** The host key this browser keeps for a table, if any. */
export const hostKey = (id) => localStorage.getItem(`euchre.host.${id}`);

/** Keep a table's host key in this browser (from the creation's answer or the host link). */
export function keepHostKey(id, key) {
  localStorage.setItem(`euchre.host.${id}`, key);
}

/** The host link of a table, for another device. */
export const hostLink = (id) => `${location.origin}/table/${id}?host=${hostKey(id)}`;

/** The host's view of the table from the server (`null`: not the host here). */
export async function loadHostView(id) {
  const key = hostKey(id);
  if (!key) return null;
  try {
    return await api(`/api/tables/${id}/host`, { method: "POST", body: { host: key } });
  } catch (e) {
    if (e.code === "not_host" || e.code === "no_table") localStorage.removeItem(`euchre.host.${id}`);
    return null;
  }
}

/** One of the host's powers; answers the new host view, or shows why it was refused. */
export async function hostAction(id, action, extra = {}) {
  try {
    return await api(`/api/tables/${id}/host/${action}`, {
      method: "POST", body: { host: hostKey(id), ...extra },
    });
  } catch (e) {
    toast(e.message, 5000);
    return null;
  }
}

const TIMERS = [null, 30, 60, 120, 300];

function timerWord(seconds) {
  if (seconds === null) return _("Off");
  if (seconds < 60) return fmt(ngettext("{count} second", "{count} seconds", seconds), { count: seconds });
  const minutes = seconds / 60;
  return fmt(ngettext("{count} minute", "{count} minutes", minutes), { count: minutes });
}

/** A seat's name; one whose invitation is out has none yet. */
export function seatName(seat) {
  return seat.invited && seat.kind === "person" ? _("invited friend") : seat.name;
}

function placeState(p) {
  if (p.kind === "bot") return p.invited ? _("a bot keeps the seat") : fmt(_("Bot: {level}"), { level: botLabel(p.bot) });
  if (p.invited) return _("invited, not here yet");
  if (p.open) return _("open seat");
  return p.connected ? _("here") : _("away");
}

function linkRow(label, url, id) {
  const share = typeof navigator.share === "function";
  return `<div class="invite">${esc(label)}
    <input readonly ${attr("value", url)} ${attr("aria-label", label)} ${id ? `id="${id}"` : ""}>
    ${share ? `<button class="small share primary" ${attr("data-share", url)}>${_("Share")}</button>` : ""}
    <button class="small copy" ${attr("data-copy", url)}>${_("Copy")}</button></div>`;
}

/** The host's panel: every seat with what the host may do with it. */
export function showHostPanel(id, view, onChange) {
  const rows = view.places.map((p) => {
    const seat = fmt(_("Seat {number}"), { number: p.seat + 1 });
    const link = p.invite_url ? linkRow(p.kind === "bot"
      ? _("Give the seat back with this link:") : _("Invitation link:"), location.origin + p.invite_url) : "";
    const person = p.kind === "person" && !p.invited && !p.open;
    return `<li class="host-place" data-place="${p.place}">
      <div><b>${esc(seat)}</b> · ${esc(seatName(p))} <span class="muted">(${esc(placeState(p))})</span>
        ${p.muted ? `<span class="muted">· ${_("muted")}</span>` : ""}</div>
      ${link}
      <div class="buttons">
        <button class="small" data-host="invite" ${attr("title", _("A new invitation for this seat: whoever holds it now loses it"))}>${_("New invitation")}</button>
        ${p.kind !== "bot" ? `<button class="small" data-host="bot">${_("Seat a bot")}</button>` : ""}
        ${person ? `<button class="small" data-host="remove">${_("Remove")}</button>` : ""}
        ${person ? `<button class="small" data-host="mute" data-muted="${p.muted ? "0" : "1"}">${p.muted ? _("Unmute") : _("Mute")}</button>` : ""}
      </div></li>`;
  }).join("");
  const dialog = showOverlay(`
    <h2>${_("Host")}</h2>
    <p class="muted">${_("Open your host link on any device to manage this table.")}</p>
    ${linkRow(_("Host link:"), hostLink(id), "host-link")}
    ${view.watch_url ? linkRow(_("Watch link (a private table):"), location.origin + view.watch_url) : ""}
    ${view.started ? "" : `<p><button class="primary" data-host="start">${_("Start now: bots take the empty seats")}</button></p>`}
    <ol class="host-places">${rows}</ol>
    <label class="field">${_("Turn timer")}
      <select id="host-timer">${TIMERS.map((t) => `<option value="${t ?? ""}" ${t === view.turn_timer ? "selected" : ""}>${esc(timerWord(t))}</option>`).join("")}</select>
    </label>
    <div class="buttons">
      <button data-host="end" class="danger">${_("End the table")}</button>
      <button id="close-dialog">${_("Close")}</button>
    </div>`, { className: "host-dialog" });
  $("#close-dialog", dialog).addEventListener("click", closeOverlay);
  dialog.addEventListener("click", async (e) => {
    const share = e.target.closest(".share");
    if (share) {
      try { await navigator.share({ title: _("Euchre"), url: share.dataset.share }); } catch { /* dismissed */ }
      return;
    }
    const copy = e.target.closest(".copy");
    if (copy) {
      try { await navigator.clipboard.writeText(copy.dataset.copy); toast(_("Link copied")); } catch {
        copy.previousElementSibling.select();
      }
      return;
    }
    const button = e.target.closest("[data-host]");
    if (!button) return;
    const what = button.dataset.host;
    const row = button.closest("[data-place]");
    const place = row ? Number(row.dataset.place) : null;
    if (what === "end" && !window.confirm(_("End this table, with every game played at it, for everyone?"))) return;
    const extra = place === null ? {} : { place };
    if (what === "mute") extra.muted = button.dataset.muted === "1";
    const answer = await hostAction(id, what, extra);
    if (!answer) return;
    if (what === "end") { closeOverlay(); return; }
    onChange(answer);
    showHostPanel(id, answer, onChange);
  });
  $("#host-timer", dialog).addEventListener("change", async (e) => {
    const value = e.target.value;
    const answer = await hostAction(id, "timer", { turn_timer: value ? Number(value) : null });
    if (answer) onChange(answer);
  });
}

/** The waiting room, drawn over the felt until the game starts (the host's "Start now" is
 * below the felt, with the other choices, in view on a phone). */
export function waitingRoom(state, isHost) {
  const seats = state.table.seats.map((s) => {
    const here = s.kind === "bot" || (s.claimed && !s.invited);
    const word = s.kind === "bot" ? fmt(_("Bot: {level}"), { level: botLabel(s.bot) })
      : here ? (s.connected ? _("here") : _("joined")) : _("invited, not here yet");
    return `<li class="${here ? "arrived" : "missing"}"><b>${esc(seatName(s))}</b> <span class="muted">${esc(word)}</span></li>`;
  }).join("");
  return `<section class="waiting-room" id="waiting-room" ${attr("aria-label", _("Waiting room"))}>
    <h2>${_("Waiting for the players")}</h2>
    <ul class="waiting-seats">${seats}</ul>
    <p class="muted">${isHost ? _("The cards are dealt when everyone has arrived. You may start now: bots take the empty seats until their players come.")
    : _("The cards are dealt when everyone has arrived, or when the host starts the game.")}</p>
  </section>`;
}

// -- the chat ----------------------------------------------------------------------------------
const QUICK = () => ({
  nice: _("Nice!"), good_game: _("Good game"), oops: _("Oops"),
  well_played: _("Well played"), thanks: _("Thanks"), hurry: _("Your turn!"),
});

/** One chat message as a line: the words escaped, a quick message in the reader's language. */
export function chatLine(m) {
  const words = m.preset ? (QUICK()[m.preset] || m.preset) : m.text;
  return `<li><b>${esc(m.name)}:</b> ${esc(words)}</li>`;
}

/** The chat box: the latest messages, and for a player the quick messages and a line to type. */
export function chatBox(messages, canTalk, muted) {
  const lines = messages.map(chatLine).join("");
  const form = !canTalk ? `<p class="muted small">${_("Spectators read the chat but do not talk to the players.")}</p>`
    : muted ? `<p class="muted small">${_("The host has muted you at this table.")}</p>`
      : `<div class="quick">${Object.entries(QUICK()).map(([key, word]) => `<button class="small" data-chat="${key}">${esc(word)}</button>`).join("")}</div>
      <form id="chat-form" class="chat-form"><input id="chat-text" maxlength="200" autocomplete="off"
        ${attr("placeholder", _("Say something"))} ${attr("aria-label", _("Chat message"))}>
        <button class="small" type="submit">${_("Send")}</button></form>`;
  return `<h2 class="log-title">${_("Chat")}</h2><ol class="chat" id="chat-lines" aria-live="polite">${lines}</ol>${form}`;
}

/** A chat message came while the chat is out of view (on a phone it is below the hand):
 * a badge at the bottom of the screen counts them; it brings the chat into view, and goes
 * once the chat is in view. */
export function noticeChat() {
  const box = $("#chat-box");
  const page = $("#table-page");
  if (!box || !page) return;
  const r = box.getBoundingClientRect();
  if (r.top < innerHeight && r.bottom > 0 && r.height > 0) return;
  let badge = $("#chat-notice");
  if (!badge) {
    badge = document.createElement("button");
    badge.id = "chat-notice";
    badge.className = "chat-notice";
    badge.dataset.count = "0";
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) { seen.disconnect(); badge.remove(); }
    });
    badge.onclick = () => box.scrollIntoView({ block: "end" });
    seen.observe(box);
    page.append(badge);
  }
  const count = Number(badge.dataset.count) + 1;
  const words = fmt(ngettext("{count} new message in the chat", "{count} new messages in the chat", count), { count });
  badge.dataset.count = String(count);
  badge.title = words;
  badge.setAttribute("aria-label", words);
  badge.innerHTML = `${BUBBLE}<b>${count}</b>`;
}

/** A speech bubble, the chat badge's sign. */
const BUBBLE = '<svg viewBox="0 0 16 16" width="18" height="18" aria-hidden="true"><path d="M2 3.5A1.5 1.5 0 0 1 3.5 2h9A1.5 1.5 0 0 1 14 3.5v6a1.5 1.5 0 0 1-1.5 1.5H7l-3.5 3v-3a1.5 1.5 0 0 1-1.5-1.5z" fill="currentColor"/></svg>';

/** Wire the chat box once: quick messages and the typed line go through `send`. */
export function wireChat(root, send) {
  root.addEventListener("click", (e) => {
    const quick = e.target.closest("[data-chat]");
    if (quick) send({ type: "chat", preset: quick.dataset.chat });
  });
  root.addEventListener("submit", (e) => {
    if (e.target.id !== "chat-form") return;
    e.preventDefault();
    const input = $("#chat-text", root);
    const text = input.value.trim().slice(0, 200);
    if (text && send({ type: "chat", text })) input.value = "";
  });
}

