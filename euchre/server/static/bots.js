// The bots' levels as players know them: a plain name and one line about how each plays,
// in the page's language.  The server names a level by its bot ("basic"); the lobby offers
// the levels of /api/options `levels`, and every place that shows a bot's level words it
// here.  A bot without a plain name (a research bot seated through the API) keeps its own.

import { _ } from "./i18n.js";

/** The level a new seat's bot gets: Casual. */
export const DEFAULT_LEVEL = "basic";

/** Each level's plain name and line, weakest first (the bots' docstrings say why each
 * line is true: euchre/bots/__init__.py, basic.py, net.py, expert.py). */
const LEVEL_WORDS = () => ({
  random: [_("Beginner"), _("Makes any legal move, at random")],
  basic: [_("Casual"), _("Follows simple rules of thumb")],
  net: [_("Intuitive"), _("Plays at a glance, by a feel learned from thousands of the expert's deals")],
  intermediate: [_("Good"), _("Looks ahead over a few guesses at the hidden cards")],
  expert: [_("Expert"), _("Thinks through where the hidden cards may be, from every bid and play")],
});

/** The plain name of a bot level ("Casual" for "basic"); any other bot's own name. */
export function botLabel(level) {
  const words = LEVEL_WORDS()[level];
  return words ? words[0] : String(level);
}

/** One line on how a level plays; "" for a bot without a plain name. */
export function botNote(level) {
  const words = LEVEL_WORDS()[level];
  return words ? words[1] : "";
}
