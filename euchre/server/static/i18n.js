// The page's words in the player's language: English, French, German or Danish.
//
// Every word the page shows goes through _() / ngettext() / pgettext(), whose English
// arguments are the msgids of the `web` catalogs (euchre/locale/<lang>/LC_MESSAGES/web.po,
// extracted from these files by Babel).  The server answers /api/i18n with the catalog of
// the language asked for, or of the one the browser's Accept-Language prefers; a language
// chosen on the page is kept in this browser.  Anything missing from a catalog is English.

export const LANGUAGES = { en: "English", fr: "Français", de: "Deutsch", da: "Dansk" };
const STORED = "euchre.lang";

let lang = "en";
let messages = {};
let plural = (n) => (n === 1 ? 0 : 1);
const listeners = [];

/** The language the page speaks now ("en", "fr", "de", "da"). */
export const language = () => lang;

/** The language chosen on the page before, if any. */
export function chosenLanguage() {
  const stored = localStorage.getItem(STORED);
  return stored && LANGUAGES[stored] ? stored : null;
}

/** A plural rule from a catalog's Plural-Forms expression ("(n != 1)", "(n > 1)"); the
 * rule in force where it cannot be read. */
function pluralRule(expression) {
  try {
    return expression ? readPlural(expression) : plural;
  } catch {
    return plural;
  }
}

const BINARY = [ // gettext's C operators, loosest first
  { "||": (a, b) => (a || b ? 1 : 0) },
  { "&&": (a, b) => (a && b ? 1 : 0) },
  { "==": (a, b) => (a === b ? 1 : 0), "!=": (a, b) => (a !== b ? 1 : 0) },
  { "<": (a, b) => (a < b ? 1 : 0), ">": (a, b) => (a > b ? 1 : 0),
    "<=": (a, b) => (a <= b ? 1 : 0), ">=": (a, b) => (a >= b ? 1 : 0) },
  { "+": (a, b) => a + b, "-": (a, b) => a - b },
  { "*": (a, b) => a * b, "/": (a, b) => Math.trunc(a / b), "%": (a, b) => a % b },
];

/** The C expression of a Plural-Forms header as a function of n, read by a small parser:
 * the page's Content-Security-Policy allows no eval of any kind. */
function readPlural(text) {
  const tokens = text.match(/\d+|n|&&|\|\||[=!<>]=|\S/g) || [];
  let at = 0;
  const take = (token) => {
    if (tokens[at] !== token) throw new Error(`Plural-Forms: ${token} expected in ${text}`);
    at += 1;
  };
  const primary = () => {
    const token = tokens[at++];
    if (token === "n") return (n) => n;
    if (/^\d+$/.test(token || "")) { const value = Number(token); return () => value; }
    if (token === "!") { const f = primary(); return (n) => (f(n) ? 0 : 1); }
    if (token === "-") { const f = primary(); return (n) => -f(n); }
    if (token === "(") { const f = ternary(); take(")"); return f; }
    throw new Error(`Plural-Forms: unexpected ${token} in ${text}`);
  };
  const level = (i) => {
    if (i === BINARY.length) return primary();
    let left = level(i + 1);
    while (Object.hasOwn(BINARY[i], tokens[at] || "")) {
      const op = BINARY[i][tokens[at++]];
      const l = left;
      const r = level(i + 1);
      left = (n) => op(l(n), r(n));
    }
    return left;
  };
  const ternary = () => {
    const test = level(0);
    if (tokens[at] !== "?") return test;
    at += 1;
    const yes = ternary();
    take(":");
    const no = ternary();
    return (n) => (test(n) ? yes(n) : no(n));
  };
  const rule = ternary();
  if (at !== tokens.length) throw new Error(`Plural-Forms: ${tokens[at]} left over in ${text}`);
  return rule;
}

/** Load the catalog of `wanted` (null: the chosen one, else the browser's). */
export async function loadLanguage(wanted = null) {
  const choice = wanted || chosenLanguage();
  const url = choice ? `/api/i18n?lang=${encodeURIComponent(choice)}` : "/api/i18n";
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(String(response.status));
    const data = await response.json();
    lang = data.lang;
    messages = data.messages || {};
    plural = pluralRule(data.plural);
  } catch {
    lang = "en"; // no catalog: the English msgids
    messages = {};
  }
  document.documentElement.lang = lang;
  return lang;
}

/** Choose a language on the page: kept in this browser, and every listener re-words. */
export async function chooseLanguage(wanted) {
  localStorage.setItem(STORED, wanted);
  await loadLanguage(wanted);
  for (const listener of listeners) listener(lang);
}

/** Call `listener(lang)` whenever the player chooses another language. */
export function onLanguage(listener) {
  listeners.push(listener);
}

/** A message in the page's language. */
export function _(msgid) {
  const found = messages[msgid];
  if (typeof found === "string" && found) return found;
  if (Array.isArray(found) && found[0]) return found[0];
  return msgid;
}

/** A message with a context (the same English word meaning two things). */
export function pgettext(context, msgid) {
  const found = messages[`${context}\u0004${msgid}`];
  return typeof found === "string" && found ? found : msgid;
}

/** A message that depends on a number: the catalog's plural rule picks the form. */
export function ngettext(singular, pluralText, n) {
  const found = messages[singular];
  if (Array.isArray(found)) {
    const form = found[plural(n)];
    if (form) return form;
  }
  return n === 1 ? singular : pluralText;
}

/** Fill the `{name}` placeholders of a message; numbers in the page's language. */
export function fmt(text, params = {}) {
  return text.replace(/\{(\w+)\}/g, (whole, key) => {
    if (!(key in params)) return whole;
    const value = params[key];
    return typeof value === "number" ? number(value) : String(value);
  });
}

/** A number as the page's language writes it ("1,5" in French, German and Danish). */
export function number(value, digits = null) {
  const options = digits === null ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return new Intl.NumberFormat(lang, options).format(value);
}

/** Names joined: "Ann, Bo and Cy" in the page's language. */
export function joinNames(names) {
  if (names.length <= 1) return names.join("");
  return fmt(_("{names} and {last}"), {
    names: names.slice(0, -1).join(_(", ")), last: names[names.length - 1],
  });
}

/** The chooser: a select of the four languages, each in its own words. */
export function chooserHTML() {
  const options = Object.entries(LANGUAGES).map(([code, name]) =>
    `<option value="${code}" ${code === lang ? "selected" : ""} lang="${code}">${name}</option>`).join("");
  const label = _("Language");
  return `<select id="language" class="language" aria-label="${label}">${options}</select>`;
}
