// Your turn: the page's title says so while it lasts (a screen reader reads it, a hidden
// tab shows it); when it comes while the tab is hidden, a short beep too, if you switched
// the sound on (off at first; kept in this browser).  The beep is made by WebAudio, no
// sound file.

import { _, fmt } from "./i18n.js";

const STORED = "euchre.sound";
let audio = null; // made on a click (browsers let a page sound only after one)
let marked = false; // the title says it is your turn
let wasYours = false;

/** Whether the sound is on. */
export const soundOn = () => localStorage.getItem(STORED) === "1";

/** Switch the sound on or off; on, a beep says so (and lets the page sound later). */
export function setSound(on) {
  localStorage.setItem(STORED, on ? "1" : "0");
  if (on) beep();
}

/** A short beep, if this browser can make one. */
export function beep() {
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();
    const now = audio.currentTime;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.18);
    tone.connect(gain).connect(audio.destination);
    tone.start(now);
    tone.stop(now + 0.2);
  } catch { /* no sound: the title still says it */ }
}

/** The page's title while it is your turn. */
export const turnTitle = () => fmt(_("● Your turn — {title}"), { title: _("Euchre") });

/**
 * What the page does about a new state: `yours` (whether it is your turn now), `hidden`
 * (document.hidden).  Says "mark" (it is your turn: the title says so), "beep" (and it just
 * came, unseen), "unmark" (the title is the page's own again) or null.
 */
export function turnNotice(yours, wasYoursBefore, hidden, isMarked) {
  if (yours && !wasYoursBefore && hidden) return "beep";
  if (yours && !isMarked) return "mark";
  if (isMarked && !yours) return "unmark";
  return null;
}

function unmark() {
  marked = false;
  document.title = _("Euchre");
}

/** Call with each state: the title says whether it is your turn (a beep when it comes unseen). */
export function noticeTurn(yours) {
  const what = turnNotice(yours, wasYours, document.hidden, marked);
  wasYours = yours;
  if (what === "mark" || what === "beep") {
    marked = true;
    document.title = turnTitle();
    if (what === "beep" && soundOn()) beep();
  } else if (what === "unmark") {
    unmark();
  }
}

/** The table is left: the title is the page's own again. */
export function forgetTurn() {
  wasYours = false;
  if (marked) unmark();
}

