// The single-page app: "/" is the lobby, "/table/ID" a table, "/history/ID/N" a replay,
// "/puzzles" the puzzles, "/night/ID" a club night (its "/standings" and "/print" too;
// "/night/new" makes one), "/season/ID" a season of nights ("/season/new" makes one).

import { $, attr, closeOverlay, rulesHref, setRulesVariant } from "./util.js";
import { defsSVG } from "./cards.js";
import { _, chooseLanguage, chooserHTML, language, loadLanguage, onLanguage } from "./i18n.js";
import { closeMenu, initMenu, menuWords } from "./menu.js";

$("#defs").innerHTML = defsSVG();

// Each page's module loads the first time such a page opens (the lobby needs neither the
// table's nor the history's); the same relative URLs keep them in this page's version.
let lobby = null;
let table = null;
let replay = null;
let night = null;
const lobbyModule = async () => (lobby ??= await import("./lobby.js"));
const tableModule = async () => (table ??= await import("./table.js"));
const historyModule = async () => (replay ??= await import("./history.js"));
let puzzles = null;
const puzzlesModule = async () => (puzzles ??= await import("./puzzles.js"));
const nightModule = async () => (night ??= await import("./night.js"));
let season = null;
const seasonModule = async () => (season ??= await import("./season.js"));

/** The page's own words, the language chooser and the link to the rules in that language
 * (at a table, with its variant's section open). */
function pageWords() {
  document.title = _("Euchre");
  $(".brand").setAttribute("aria-label", _("Euchre: the lobby"));
  $("#language-tools").innerHTML = `${chooserHTML()}
    <a class="tool rules-link" href="${rulesHref()}" target="_blank" rel="help"
      ${attr("title", _("The rules of the game"))}>${_("Rules")}</a>`;
  $("#language").addEventListener("change", (e) => chooseLanguage(e.target.value));
  menuWords();
}

initMenu();

// another language, chosen on the page: only the words change; a table keeps its game
// and its connection, a form what was typed in it
onLanguage(() => {
  pageWords();
  const page = document.body.dataset.page;
  if (page === "table") table?.relabelTable();
  else if (page === "history") replay?.relabelHistory();
  else if (page === "puzzles") puzzles?.relabelPuzzles();
  else if (page === "night" || page === "projector") night?.relabelNight();
  else if (page === "season") season?.relabelSeason();
  else lobby?.relabelLobby($("#app"));
});

async function route() {
  closeOverlay();
  closeMenu();
  table?.leaveTable();
  replay?.leaveHistory();
  puzzles?.leavePuzzles();
  night?.leaveNight();
  season?.leaveSeason();
  setRulesVariant(null);
  const root = $("#app");
  const path = location.pathname;
  let m;
  document.body.dataset.page = "lobby";
  if ((m = path.match(/^\/table\/([\w-]+)$/))) {
    document.body.dataset.page = "table";
    await (await tableModule()).showTable(root, m[1], new URLSearchParams(location.search));
  } else if ((m = path.match(/^\/history\/([\w-]+)\/(\d+)$/))) {
    document.body.dataset.page = "history";
    await (await historyModule()).showHistory(root, m[1], Number(m[2]));
  } else if (path === "/puzzles") {
    document.body.dataset.page = "puzzles";
    await (await puzzlesModule()).showPuzzles(root);
  } else if ((m = path.match(/^\/night\/([\w-]+)(?:\/(standings|print))?$/))) {
    document.body.dataset.page = "night";
    await (await nightModule()).showNight(root, m[1], m[2] || "", new URLSearchParams(location.search));
  } else if ((m = path.match(/^\/season\/([\w-]+)$/))) {
    document.body.dataset.page = "season";
    await (await seasonModule()).showSeason(root, m[1], new URLSearchParams(location.search));
  } else {
    await (await lobbyModule()).showLobby(root);
  }
}

// links inside the app change the page without reloading it
document.addEventListener("click", (e) => {
  const a = e.target.closest("a[href]");
  if (!a || a.hasAttribute("download") || a.target || e.ctrlKey || e.metaKey || e.shiftKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  e.preventDefault();
  history.pushState(null, "", url.pathname + url.search);
  route();
});

$("#overlay").addEventListener("click", (e) => {
  if (e.target.id === "overlay") closeOverlay();
});

window.addEventListener("popstate", route);
loadLanguage().then(() => { pageWords(); route(); });
