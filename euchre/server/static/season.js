// A season's page (issue 32, item 6): several club nights of one club, their leaderboard
// (total points, nights, rounds, rounds won, the average per round and each player's
// openskill rating), the nights and the CSV.  Its organiser (the key kept in this browser,
// or the link's ?key=) adds the nights they organised in this browser.  "/season/new"
// makes a season.  Everything is read from the season's API (docs/server.md, "A season").

import { $, $$, api, attr, esc, setTopbar, toast } from "./util.js";
import { _, fmt, ngettext, number } from "./i18n.js";

let shown = null; // [root, id, params]: what relabelSeason draws again

const storedSeason = (id) => `euchre.seasonhost.${id}`;
const NIGHT_HOST = "euchre.nighthost.";

/** Forget the page (another one opens). */
export function leaveSeason() { shown = null; }

/** The page again in another language. */
export function relabelSeason() { if (shown) showSeason(...shown); }

/** Show season `id` (`"new"`: the form that makes one). */
export async function showSeason(root, id, params) {
  shown = [root, id, params];
  document.body.dataset.page = "season";
  if (id === "new") { drawNew(root); return; }
  const given = params.get("key");
  if (given) localStorage.setItem(storedSeason(id), given);
  const key = given || localStorage.getItem(storedSeason(id));
  let season;
  try {
    season = await api(`/api/seasons/${encodeURIComponent(id)}`);
  } catch (e) {
    setTopbar("");
    root.innerHTML = `<section class="panel narrow"><h1>${_("Season")}</h1>
      <p class="error" role="alert">${esc(e.message)}</p></section>`;
    return;
  }
  if (shown?.[1] !== id) return; // another page opened meanwhile
  await draw(root, season, key);
}

function drawNew(root) {
  setTopbar(`<span class="table-title">${_("Season")}</span>`);
  root.innerHTML = `<section class="panel narrow" aria-labelledby="season-new-title">
    <h1 id="season-new-title">${_("New season")}</h1>
    <p class="muted">${_("A season adds up several nights of one club: a leaderboard and a rating for each player.")}</p>
    <form id="season-form" autocomplete="off">
      <label class="field">${_("Name of the season")}
        <input name="name" maxlength="60" required ${attr("placeholder", _("Fire hall league, winter"))}></label>
      <p class="error" id="season-error" role="alert"></p>
      <button class="primary big" type="submit">${_("Make the season")}</button>
    </form></section>`;
  $("#season-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const made = await api("/api/seasons", { method: "POST", body: { name: new FormData(e.target).get("name") } });
      localStorage.setItem(storedSeason(made.id), made.host_key);
      history.pushState(null, "", `/season/${made.id}`);
      await showSeason(root, made.id, new URLSearchParams());
    } catch (err) {
      $("#season-error").textContent = err.message;
    }
  });
}

/** A total as the page's language writes it (a fraction, "17/2", with one decimal). */
function total(t) {
  if (typeof t !== "string") return number(t);
  const [a, b] = t.split("/").map(Number);
  return number(a / b, 1);
}

/** The leaderboard (on a phone without the nights and rounds counted: the CSV has them). */
function leaderboard(season) {
  if (!season.leaderboard.length) return `<p class="muted">${_("No round of the season's nights has ended yet.")}</p>`;
  const rows = season.leaderboard.map((x) => `<tr>
      <td class="num">${x.place}${x.tied ? "=" : ""}</td><th scope="row">${esc(x.name)}</th>
      <td class="num">${esc(total(x.total))}</td><td class="num wide">${x.nights}</td>
      <td class="num wide">${x.rounds}</td><td class="num">${x.won}</td>
      <td class="num">${number(x.average, 2)}</td>
      <td class="num">${x.rating === null ? "–" : number(x.rating, 1)}</td></tr>`).join("");
  return `<div class="table-scroll" tabindex="0" role="region" ${attr("aria-label", _("Leaderboard"))}><table class="standings season-board">
    <caption class="sr-only">${_("Leaderboard")}</caption>
    <thead><tr><th scope="col">${_("Place")}</th><th scope="col">${_("Player")}</th>
      <th scope="col">${_("Points")}</th><th scope="col" class="wide">${_("Nights")}</th>
      <th scope="col" class="wide">${_("Rounds")}</th><th scope="col">${_("Rounds won")}</th>
      <th scope="col">${_("Average")}</th><th scope="col">${_("Rating")}</th></tr></thead>
    <tbody>${rows}</tbody></table></div>`;
}

/** The nights this browser organised (their keys kept here), not in the season yet. */
async function ownNights(season) {
  const inSeason = new Set(season.nights.map((n) => n.id));
  const ids = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (k.startsWith(NIGHT_HOST) && !inSeason.has(k.slice(NIGHT_HOST.length))) ids.push(k.slice(NIGHT_HOST.length));
  }
  const found = await Promise.all(ids.map((id) => api(`/api/nights/${encodeURIComponent(id)}`).catch(() => null)));
  return found.filter(Boolean).sort((a, b) => a.day.localeCompare(b.day) || a.name.localeCompare(b.name));
}

async function draw(root, season, key) {
  setTopbar(`<span class="table-title">${esc(season.name)}</span>`);
  const nights = season.nights.map((n) => `<li><a href="/night/${encodeURIComponent(n.id)}/standings">${esc(n.name)}</a>
      <span class="muted">${esc(n.day)} · ${esc(fmt(ngettext("{n} round", "{n} rounds", n.rounds), { n: n.rounds }))}</span></li>`).join("");
  let organiser = "";
  if (key) {
    const own = await ownNights(season);
    const choices = own.map((n) => `<li><span>${esc(n.name)} <span class="muted">${esc(n.day)}</span></span>
        <button type="button" class="small" data-night="${esc(n.id)}">${_("Add to the season")}</button></li>`).join("");
    const link = `${location.origin}/season/${season.id}?key=${key}`;
    organiser = `<section class="panel" aria-labelledby="season-add-title">
      <h2 id="season-add-title">${_("Add a night")}</h2>
      ${choices ? `<ul class="season-own">${choices}</ul>` : `<p class="muted">${_("The nights you organise in this browser are listed here to add.")}</p>`}
      <p>${_("The season's organiser link (keep it to add nights from another device):")}</p>
      <p><a id="season-link" href="${esc(link)}">${esc(link)}</a></p></section>`;
  }
  root.innerHTML = `<div class="night season">
    <section class="panel" aria-labelledby="season-title">
      <h1 id="season-title">${esc(season.name)}</h1>
      ${leaderboard(season)}
      <p class="muted">${_("Rating: openskill's estimate of each player's skill from the tables won and lost, both partners of a side moving together; it ranks μ − 3σ, which rises as the estimate grows surer.")}</p>
      <p class="night-links"><a class="button small" href="/api/seasons/${encodeURIComponent(season.id)}/leaderboard.csv" download>${_("Export CSV")}</a></p>
    </section>
    <section class="panel" aria-labelledby="season-nights-title">
      <h2 id="season-nights-title">${_("Nights")}</h2>
      ${nights ? `<ul class="season-nights">${nights}</ul>` : `<p class="muted">${_("No night has been added yet.")}</p>`}
    </section>${organiser}</div>`;
  for (const button of $$("[data-night]", root)) {
    button.onclick = async () => {
      const id = button.dataset.night;
      try {
        const next = await api(`/api/seasons/${encodeURIComponent(season.id)}/nights`, {
          method: "POST", headers: { "Content-Type": "application/json", "X-Euchre-Key": key },
          body: { night: id, key: localStorage.getItem(NIGHT_HOST + id) },
        });
        await draw(root, next, key);
      } catch (e) {
        toast(e.message, 5000);
      }
    };
  }
}
