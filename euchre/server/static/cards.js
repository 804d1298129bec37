// Cards drawn as SVG: crisp at any size, red and black suits, no images or fonts needed
// for the suit shapes.  Card codes are the RECORDS notation: "9C", "TD", "JH", "AS", "JK";
// what a card shows (its rank letters, its name) is in the page's language.

import { _, fmt, pgettext } from "./i18n.js";
import { SUIT_WORDS } from "./messages.js";

/** The suits' names in the page's language, by their letter. */
export const SUITS = new Proxy({}, { get: (_target, suit) => SUIT_WORDS()[suit] });
export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RANK_NAME = () => ({
  7: _("seven"), 8: _("eight"), 9: _("nine"), T: _("ten"), J: _("jack"), Q: _("queen"),
  K: _("king"), A: _("ace"),
});

/** The rank as a card's corner shows it: "10", and the court cards' letters (Q: "D" in French). */
function rankText(rank) {
  switch (rank) {
    case "T": return "10";
    case "A": return pgettext("rank letter of the ace", "A");
    case "K": return pgettext("rank letter of the king", "K");
    case "Q": return pgettext("rank letter of the queen", "Q");
    case "J": return pgettext("rank letter of the jack", "J");
    default: return rank;
  }
}

export const isRed = (suit) => suit === "D" || suit === "H";

// The suit shapes, in a 100 x 100 box, defined once in the page (see index.html).
export const SUIT_PATHS = {
  H: "M50 92 C34 78 4 58 4 32 C4 15 16 5 29 5 C39 5 46 11 50 20 C54 11 61 5 71 5 " +
     "C84 5 96 15 96 32 C96 58 66 78 50 92 Z",
  D: "M50 3 L88 50 L50 97 L12 50 Z",
  S: "M50 4 C62 22 96 40 96 62 C96 77 85 85 73 85 C64 85 57 80 53 73 C54 84 58 91 66 96 " +
     "L34 96 C42 91 46 84 47 73 C43 80 36 85 27 85 C15 85 4 77 4 62 C4 40 38 22 50 4 Z",
  C: "M50 5 C62 5 71 14 71 26 C71 33 68 38 64 42 C68 40 72 39 76 39 C88 39 97 48 97 60 " +
     "C97 72 88 81 76 81 C67 81 59 76 55 68 C55 80 59 89 67 96 L33 96 C41 89 45 80 45 68 " +
     "C41 76 33 81 24 81 C12 81 3 72 3 60 C3 48 12 39 24 39 C28 39 32 40 36 42 " +
     "C32 38 29 33 29 26 C29 14 38 5 50 5 Z",
};

/** The hidden <svg> with the suit symbols and the card back's pattern. */
export function defsSVG() {
  const symbols = Object.entries(SUIT_PATHS).map(([s, d]) =>
    `<symbol id="suit-${s}" viewBox="0 0 100 100"><path d="${d}"/></symbol>`).join("");
  return `<svg class="svg-defs" width="0" height="0" aria-hidden="true"><defs>
    ${symbols}
    <pattern id="back-pattern" width="20" height="20" patternUnits="userSpaceOnUse"
      patternTransform="rotate(45)">
      <rect width="20" height="20" fill="#23408e"/>
      <rect width="10" height="10" fill="#2c4fa8"/>
      <rect x="10" y="10" width="10" height="10" fill="#2c4fa8"/>
    </pattern>
  </defs></svg>`;
}

export function cardName(code) {
  if (code === "JK") return _("the joker");
  return fmt(_("{rank} of {suit}"), { rank: RANK_NAME()[code[0]], suit: SUITS[code[1]] });
}

/** A card with its article, as the object of a verb ("play the queen of hearts"): one
 * message a rank, since the article goes with the rank (French "la dame", "l'as"; German
 * "den Herz-Buben", "die Herz-Dame"). */
const THE_CARD = () => ({
  // TRANSLATORS: a card with its article, the object of a verb ("play the seven of hearts")
  7: pgettext("card, object of a verb", "the seven of {suit}"),
  8: pgettext("card, object of a verb", "the eight of {suit}"),
  9: pgettext("card, object of a verb", "the nine of {suit}"),
  T: pgettext("card, object of a verb", "the ten of {suit}"),
  J: pgettext("card, object of a verb", "the jack of {suit}"),
  Q: pgettext("card, object of a verb", "the queen of {suit}"),
  K: pgettext("card, object of a verb", "the king of {suit}"),
  A: pgettext("card, object of a verb", "the ace of {suit}"),
});

/** A card in words with its article, as the object of a verb: "the ace of spades". */
export function theCard(code) {
  if (code === "JK") return pgettext("card, object of a verb", "the joker");
  return fmt(THE_CARD()[code[0]], { suit: SUITS[code[1]] });
}

/** A card as short text with its suit symbol: "10♥". */
export function cardText(code) {
  if (code === "JK") return "Joker";
  return rankText(code[0]) + SUIT_SYMBOL[code[1]];
}

// Pip centres on a 250 x 350 card; pips below the middle are drawn upside down.
const PIPS = {
  7: [[75, 75], [175, 75], [125, 125], [75, 175], [175, 175], [75, 275], [175, 275]],
  8: [[75, 75], [175, 75], [125, 125], [75, 175], [175, 175], [125, 225], [75, 275],
      [175, 275]],
  9: [[75, 75], [175, 75], [75, 142], [175, 142], [125, 175], [75, 208], [175, 208],
      [75, 275], [175, 275]],
  T: [[75, 75], [175, 75], [125, 110], [75, 142], [175, 142], [75, 208], [175, 208],
      [125, 240], [75, 275], [175, 275]],
};

function pip(suit, x, y, size, flip) {
  const h = size / 2;
  const t = flip ? ` transform="rotate(180 ${x} ${y})"` : "";
  return `<use href="#suit-${suit}" x="${x - h}" y="${y - h}" width="${size}" height="${size}"${t}/>`;
}

function corner(rank, suit) {
  const text = rankText(rank);
  const ten = text.length > 1;
  return `<text x="${ten ? 29 : 30}" y="56" text-anchor="middle" class="idx"
      font-size="${ten ? 44 : 52}" ${ten ? 'letter-spacing="-4"' : ""}>${text}</text>
    ${pip(suit, 30, 84, 34, false)}`;
}

function court(rank, suit) {
  const colour = isRed(suit) ? "#fbe3e3" : "#e6e9f2";
  return `<rect x="58" y="62" width="134" height="226" rx="10" fill="${colour}"
      stroke="currentColor" stroke-width="4"/>
    ${pip(suit, 125, 108, 56, false)}
    <text x="125" y="212" text-anchor="middle" class="court"
      font-size="${rankText(rank).length > 1 ? 84 : 112}">${rankText(rank)}</text>
    ${pip(suit, 125, 246, 56, true)}`;
}

/**
 * One card face as an SVG string.  `extra` adds classes; `attrs` adds attributes.
 */
export function cardSVG(code, extra = "", attrs = "") {
  const label = cardName(code);
  if (code === "JK") {
    return `<svg class="card joker ${extra}" viewBox="0 0 250 350" role="img"
        aria-label="${label}" data-card="JK" ${attrs}>
      <rect x="2" y="2" width="246" height="346" rx="18" class="face"/>
      <text x="30" y="60" class="idx" font-size="34" text-anchor="middle">J</text>
      <text x="30" y="92" class="idx" font-size="34" text-anchor="middle">K</text>
      <path d="M125 105 L141 150 L189 151 L151 180 L165 226 L125 199 L85 226 L99 180
               L61 151 L109 150 Z" fill="#c8102e"/>
      <text x="125" y="282" text-anchor="middle" class="court" font-size="50"
        letter-spacing="4">JOKER</text>
    </svg>`;
  }
  const rank = code[0];
  const suit = code[1];
  const colour = isRed(suit) ? "red" : "black";
  let middle;
  if (rank === "A") {
    middle = pip(suit, 125, 175, 130, false);
  } else if (PIPS[rank]) {
    middle = PIPS[rank].map(([x, y]) => pip(suit, x, y, 50, y > 180)).join("");
  } else {
    middle = court(rank, suit);
  }
  return `<svg class="card ${colour} ${extra}" viewBox="0 0 250 350" role="img"
      aria-label="${label}" data-card="${code}" ${attrs}>
    <rect x="2" y="2" width="246" height="346" rx="18" class="face"/>
    ${corner(rank, suit)}
    <g transform="rotate(180 125 175)">${corner(rank, suit)}</g>
    ${middle}
  </svg>`;
}

/** A face-down card. */
export function backSVG(extra = "") {
  return `<svg class="card back ${extra}" viewBox="0 0 250 350" aria-hidden="true">
    <rect x="2" y="2" width="246" height="346" rx="18" fill="#fff" stroke="#9aa"/>
    <rect x="16" y="16" width="218" height="318" rx="10" fill="url(#back-pattern)"/>
  </svg>`;
}

/** A suit symbol as a small inline SVG, coloured. */
export function suitIcon(suit, extra = "") {
  return `<svg class="suit-icon ${isRed(suit) ? "red" : "black"} ${extra}" viewBox="0 0 100 100"
    role="img" aria-label="${SUITS[suit]}"><use href="#suit-${suit}"/></svg>`;
}

/**
 * The three-and-four score marker of RULES §11 for a side's score in a game to 5.
 * 0: both face down; 1: the four face down over the three, one pip showing;
 * 2: the three face down over the four, two pips; 3: the three face up on the four;
 * 4: the four face up on the three.
 */
export function markerSVG(score, suit = "S") {
  const W = 120, H = 168;
  const three = [[60, 34], [60, 84], [60, 134]];
  const four = [[36, 36], [84, 36], [36, 132], [84, 132]];
  const face = (pips, x, y) => `<g transform="translate(${x} ${y})">
      <rect width="${W}" height="${H}" rx="10" fill="#fff" stroke="#888" stroke-width="2"/>
      ${pips.map(([px, py]) => pip(suit, px, py, 30, py > 90)).join("")}</g>`;
  const back = (x, y) => `<g transform="translate(${x} ${y})">
      <rect width="${W}" height="${H}" rx="10" fill="#fff" stroke="#888" stroke-width="2"/>
      <rect x="7" y="7" width="${W - 14}" height="${H - 14}" rx="6" fill="url(#back-pattern)"/>
    </g>`;
  let body;
  const s = Math.max(0, Math.min(4, score));
  if (s === 0) body = back(0, 0) + back(0, 0);
  else if (s === 1) body = face(three, 0, 0) + back(0, 58);  // top pip of the three shows
  else if (s === 2) body = face(four, 0, 0) + back(0, 60);   // top two pips of the four
  else if (s === 3) body = back(0, 60) + face(three, 0, 0);
  else body = back(0, 60) + face(four, 0, 0);
  const label = fmt(_("score {score}"), { score });
  return `<svg class="marker ${isRed(suit) ? "red" : "black"}" viewBox="-4 -4 ${W + 8} ${H + 68}"
    role="img" aria-label="${label}">${body}</svg>`;
}
