// The keyboard at the table: every key means one thing.  KEYMAP is what the "?" dialog
// lists; keyCommand turns a key press into what the table does, from the state alone.

import { _, fmt } from "./i18n.js";
import { SUIT_WORDS } from "./messages.js";

const SUIT_KEYS = { c: "C", d: "D", h: "H", s: "S" };

/** Every shortcut: the keys (as KeyboardEvent.key, lower case), how to show them, what they do. */
export const KEYMAP = () => [
  { keys: ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"], label: ["1", "…", "0"],
    what: _("play or discard the card with that number") },
  { keys: ["arrowleft", "arrowright"], label: ["←", "→"],
    what: _("pick a card of your hand, or a card to call as your partner") },
  { keys: ["enter", " "], label: ["Enter", _("Space")],
    what: _("play, discard or call the picked card; close the deal's summary or a dialog") },
  { keys: ["p"], label: ["P"], what: _("pass") },
  { keys: ["o"], label: ["O"], what: _("order it up (take it up, assist)") },
  { keys: ["a"], label: ["A"],
    what: _("alone: order it up alone, defend alone; when naming trump, the next suit is named alone") },
  { keys: ["c"], label: ["C"], what: _("clubs: name clubs trump (Shift: alone), or pick a club to call") },
  { keys: ["d"], label: ["D"], what: _("diamonds: name diamonds trump (Shift: alone), or pick a diamond to call") },
  { keys: ["h"], label: ["H"], what: _("hearts: name hearts trump (Shift: alone), or pick a heart to call") },
  { keys: ["s"], label: ["S"], what: _("spades: name spades trump (Shift: alone), or pick a spade to call") },
  { keys: ["l"], label: ["L"], what: _("show the last trick") },
  { keys: ["i"], label: ["I"], what: _("hint: the expert's choice, the value of every choice, and why") },
  { keys: ["r"], label: ["R"], what: _("rematch, once the game is over") },
  { keys: ["?"], label: ["?"], what: _("this list") },
  { keys: ["escape"], label: ["Esc"], what: _("close a dialog, the deal's summary or the hint") },
];

/**
 * What a key press does at the table, or null.
 *
 * `key` is KeyboardEvent.key; `ctx` holds what the page shows: `phase`, `legal` (the legal
 * actions), `hand` (your cards in order), `selected` (the picked card's index, or -1),
 * `calls` (the cards you may call, in the order shown), `aloneToggle`, `myTurn`, `over`.
 * The answer is one of {act}, {select}, {toggleAlone}, {confirm}, {show: "last" | "keys" |
 * "hint"}, {rematch}, {close}.
 */
export function keyCommand(key, shift, ctx) {
  const k = key.toLowerCase();
  if (k === "?") return { show: "keys" };
  if (k === "escape") return { close: true };
  if (k === "l") return { show: "last" };
  if (k === "i") return { show: "hint" };
  if (k === "r") return ctx.over ? { rematch: true } : null;
  if (!ctx.myTurn) return null;
  const legal = ctx.legal;
  const offer = (action) => (legal.includes(action) ? { act: action } : null);
  const phase = ctx.phase;
  if (phase === "call_partner") {
    const calls = ctx.calls;
    if (k === "arrowleft" || k === "arrowright") {
      if (!calls.length) return null;
      const step = k === "arrowleft" ? -1 : 1;
      const from = ctx.selected < 0 ? (step > 0 ? -1 : 0) : ctx.selected;
      return { select: (from + step + calls.length) % calls.length };
    }
    if (SUIT_KEYS[k]) {
      const suit = SUIT_KEYS[k];
      const first = calls.findIndex((c) => c[1] === suit);
      return first < 0 ? null : { select: first };
    }
    if ((k === "enter" || k === " ") && ctx.selected >= 0 && ctx.selected < calls.length) {
      return offer(`call ${calls[ctx.selected]}`);
    }
    return null;
  }
  const cards = ctx.hand || [];
  const verb = phase === "play" ? "play" : (phase === "exchange" || phase === "dummy") ? "discard" : null;
  if (verb) {
    const n = "1234567890".indexOf(k);
    if (n >= 0 && n < cards.length && k.length === 1) return offer(`${verb} ${cards[n]}`);
    if (k === "arrowleft" || k === "arrowright") {
      const step = k === "arrowleft" ? -1 : 1;
      const playable = new Set(legal.map((a) => a.split(" ")[1]));
      let i = ctx.selected;
      for (let tries = 0; tries < cards.length; tries += 1) {
        i = (i + step + cards.length) % cards.length;
        if (playable.has(cards[i])) return { select: i };
      }
      return null;
    }
    if ((k === "enter" || k === " ") && ctx.selected >= 0 && ctx.selected < cards.length) {
      return offer(`${verb} ${cards[ctx.selected]}`);
    }
    return null;
  }
  if (k === "p") return offer("pass");
  if (phase === "bid_turnup") {
    if (k === "o") return offer("order");
    if (k === "a") return offer("order alone");
    return null;
  }
  if (phase === "defend") {
    return k === "a" ? offer("defend alone") : null;
  }
  if (phase === "bid_suit" || phase === "name_trump") {
    if (k === "a") return legal.some((a) => a.endsWith(" alone")) ? { toggleAlone: true } : null;
    if (SUIT_KEYS[k]) {
      const alone = shift || ctx.aloneToggle;
      return offer(`trump ${SUIT_KEYS[k]}${alone ? " alone" : ""}`)
        || { refuse: fmt(alone ? _("You may not name {suit} alone now") : _("You may not name {suit} now"),
          { suit: SUIT_WORDS()[SUIT_KEYS[k]] }) };
    }
  }
  return null;
}
