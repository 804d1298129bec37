// What the server says, worded in the page's language: each error comes as a code with its
// parameters (euchre.server.protocol.ERROR_CODES), each deal's outcome as a code with the
// seats (euchre.server.views.summary_message).  The server's English `message` is only
// the fallback for a code this page does not know.

import { _, fmt, joinNames, ngettext, number, pgettext } from "./i18n.js";

export const SUIT_WORDS = () => ({ C: _("clubs"), D: _("diamonds"), H: _("hearts"), S: _("spades") });

const RATE_WHAT = () => ({
  tables: _("Too many tables created: try again in a moment."),
  joins: _("Too many seats taken: try again in a moment."),
  hints: _("Too many hints asked for: try again in a moment."),
  messages: _("Too many messages: this one was dropped."),
  chat: _("You are talking too fast: wait a moment."),
});

const SPECTATOR = () => ({
  act: _("A spectator may watch but not play."),
  hint: _("A spectator gets no hints."),
  rematch: _("A spectator cannot start a rematch."),
  reclaim: _("A spectator has no seat to take back."),
});

const CLOSED = () => ({
  deleted: _("The table was deleted by its creator."),
  everybody_left: _("The table was closed: everybody left."),
  idle: _("The table was closed: nobody played at it for a long time."),
  unvisited: _("The table was closed: nobody came to it."),
});

/** Every error code the server sends, worded; `p` are its parameters. */
const REVOKED = () => ({
  reinvited: _("The host gave your seat to someone else. Ask the host for a new invitation."),
  removed: _("The host removed you from this table."),
  replaced: _("The host seated a bot in your place."),
});

export const ERRORS = {
  malformed: () => _("The server could not read that message."),
  invalid_action: (p) => fmt(_("“{action}” is not an action."), { action: p.action ?? "" }),
  not_your_turn: (p, who) => {
    if (p.asked === "hint") return _("A hint is given only when it is your turn.");
    const name = who && p.seat !== null && p.seat !== undefined ? who(p.seat) : null;
    return name ? fmt(_("It is {name}'s turn."), { name }) : _("It is not your turn.");
  },
  // the server words why in the player's language (the terminal's own explanation, for
  // the `lang` the page connected with); a server without it names only the action
  illegal: (p) => (typeof p.reason === "string" && p.reason
    ? p.reason : fmt(_("“{action}” is not allowed now."), { action: p.action ?? "" })),
  stale: () => _("The table moved on before your choice arrived: nothing was done."),
  spectator: (p) => SPECTATOR()[p.asked] || SPECTATOR().act,
  closed: (p) => CLOSED()[p.why] || _("The table is closed: nothing was done."),
  game_over: () => _("The game is over: ask for a rematch."),
  not_over: () => _("The game is not over yet."),
  no_hint: () => _("Hints are not available on this server."),
  storage: () => _("The server could not save that: nothing was done. Try again."),
  left: () => _("You left this table: your seat is open to others."),
  bad_origin: () => _("A page of another site may not open this server's tables."),
  bad_host: () => _("A page of another site may not open this server's tables."),
  no_table: () => _("There is no such table."),
  no_puzzle: () => _("There is no such puzzle."),
  no_puzzle_player: () => _("This link's puzzle ratings are not kept on this server."),
  not_puzzle_player: () => _("This link does not open those puzzle ratings."),
  answers_at_once: () => _("Other answers of yours came at the same moment: answer again."),
  bad_token: () => _("This link opens no seat at this table."),
  bot_place: () => _("A bot plays that seat."),
  rate_limited: (p) => RATE_WHAT()[p.what] || _("Too many requests: try again in a moment."),
  server_full: () => _("The server is full: try again later."),
  too_many_tables: (p) => fmt(_("You have {max} unfinished tables already: finish or leave one first."), { max: p.max ?? 0 }),
  too_many_sockets: () => _("Too many connections from your address: close some tabs and try again."),
  flooding: () => _("Too many messages: the connection was closed."),
  page_too_large: (p) => fmt(_("A page holds at most {max} tables."), { max: p.max ?? 0 }),
  bad_page: () => _("That page of tables does not exist."),
  bad_rules: () => _("These rules or seats cannot be played together."),
  bad_invitation: () => _("This invitation does not open a seat at this table."),
  seat_taken: () => _("That seat is no longer open."),
  no_seat_given: () => _("Choose an open seat, or use an invitation link."),
  not_creator: () => _("Only the table's host may delete it."),
  invitation_spent: (p) => (p.watch
    ? _("This invitation was used already: the seat is taken. You may watch the table.")
    : _("This invitation was used already: the seat is taken. Ask the host for a new one.")),
  not_host: () => _("Only the host, with the host link, may do that."),
  no_place: () => _("The table has no such seat."),
  private: () => _("This table is private: watching it needs the host's watch link."),
  waiting: () => _("The game starts when every invited player has arrived, or when the host starts it."),
  revoked: (p) => (REVOKED()[p.why] || REVOKED().reinvited),
  muted: () => _("The host has muted you at this table."),
  no_game: () => _("This table has no such game."),
  invalid_request: () => _("The server refused the request: some field is not valid."),
  not_found: () => _("The server has nothing at this address."),
  no_rules: () => _("There are no rules in that language."),
  no_night: () => _("There is no such night."),
  not_organiser: () => _("Only the organiser, with the organiser's link, may do that."),
  bad_night_key: () => _("This link opens no place at this night."),
  bad_join: () => _("This join link is not this night's."),
  not_you: () => _("Your link marks only yourself present or gone."),
  no_player: () => _("The night has no such player."),
  night_full: (p) => fmt(_("A night seats at most {max} players."), { max: number(p.max ?? 0) }),
  busy: () => _("Too many players joined at once: try again."),
  too_few_players: (p) => fmt(_("A round needs at least {min} players present."), { min: number(p.min ?? 4) }),
  odd_teams: () => _("Fixed teams need an even number of players present."),
  round_open: () => _("A round is still being played: end it first."),
  round_over: () => _("This round has ended: the organiser corrects its results."),
  too_many_rounds: (p) => fmt(_("A night has at most {max} rounds."), { max: number(p.max ?? 0) }),
  no_round: () => _("The night has no such round."),
  tables_open: (p) => fmt(_("These tables have no result yet, or a disputed one: {tables}."),
    { tables: joinNames((p.tables || []).map((t) => number(t))) }),
  no_night_table: () => _("This round has no such table."),
  bad_result: () => _("That result does not add up: give each team's points, or the hands."),
  already_reported: () => _("Your table's result was reported already: check it, then confirm or correct it."),
  stale_report: () => _("The result changed since you saw it: look at it again."),
  settled: () => _("The organiser settled this table's result."),
  same_team: () => _("The other team confirms a result, not the team that entered it."),
  not_at_table: () => _("You do not play at that table this round."),
  no_season: () => _("There is no such season."),
  in_season: () => _("That night is in another season already."),
};

/**
 * An error from the server in the page's words (its English message if the code is new).
 * `who(seat)`, where the page knows the table, names a seat ("It is Dot's turn.").
 */
export function errorText(code, params, message, who = null) {
  const word = ERRORS[code];
  return word ? word(params || {}, who) : String(message || code || "");
}

/** A sentence shown as a line begins with a capital, whatever word a language puts first
 * ("hearts trump, made by…" is "Hearts trump, made by…"). */
export function sentence(text) {
  return text ? text.charAt(0).toLocaleUpperCase() + text.slice(1) : text;
}

/**
 * The deal's outcome in a sentence or two.  `message` is {code, params} from the server;
 * `who(seat)` names a seat as a list item ("you" for the reader's own).
 */
export function summaryText(message, who) {
  return sentence(summaryWords(message, who));
}

function summaryWords(message, who) {
  const p = message.params || {};
  const names = (seats) => joinNames(seats.map(who));
  switch (message.code) {
    case "thrown_in":
      return fmt(_("Everybody passed twice: the cards are thrown in. Next to deal: {name}."),
        { name: who(p.next_dealer) });
    case "euchred": {
      const makers = p.alone ? fmt(_("{name}, alone"), { name: who(p.maker) }) : names(p.makers);
      const took = p.tricks === 0 ? _("no tricks")
        : fmt(ngettext("only {count} trick", "only {count} tricks", p.tricks), { count: p.tricks });
      let text = fmt(_("Euchred! {trump} trump, made by {makers}: {took}. {points} to {defenders}."), {
        trump: SUIT_WORDS()[p.trump], makers, took, defenders: names(p.defenders),
        points: fmt(ngettext("{count} point", "{count} points", p.points), { count: p.points }),
      });
      if (p.lone_defender !== null && p.lone_defender !== undefined) {
        text += " " + fmt(_("Defended alone by {name}."), { name: who(p.lone_defender) });
      }
      return text;
    }
    case "march":
    case "made": {
      const makers = p.alone ? fmt(_("{name}, alone"), { name: who(p.maker) }) : names(p.makers);
      const points = fmt(ngettext("{count} point", "{count} points", p.points), { count: p.points });
      if (message.code === "march") {
        return fmt(_("March! All five tricks to {makers}, {trump} trump: {points}."),
          { makers, trump: SUIT_WORDS()[p.trump], points });
      }
      return fmt(_("{trump} trump, made by {makers} with {tricks} tricks: {points}."),
        { makers, trump: SUIT_WORDS()[p.trump], points, tricks: number(p.tricks) });
    }
    default:
      return _("The deal is unfinished.");
  }
}

/**
 * Why the expert chose its hint, from the server's `reason_params` and the two best
 * choices in words (`best`, `second`, with their values).
 */
export function hintReason(r, best, second) {
  if (r.only) return _("It is the only legal choice.");
  const seen = {
    hand: _("your hand and the turn-up"), bidding: _("the bidding so far"),
    play: _("the bidding and the play so far"),
  }[r.seen] || "";
  const how = r.how === "solved"
    ? _("solved the play of every one with all the cards face up")
    : _("played each choice out in every one");
  const value = (v) => fmt(ngettext("{value} point", "{value} points", Math.abs(v) === 1 ? 1 : 2),
    { value: (v >= 0 ? "+" : "−") + number(Math.abs(v), 2) });
  let text = fmt(ngettext(
    "The expert dealt the cards you cannot see {count} way that fits {seen}, and {how}.",
    "The expert dealt the cards you cannot see {count} ways that fit {seen}, and {how}.",
    r.worlds), { count: r.worlds, seen, how });
  text += " " + fmt(_("“{best}” is worth {value} to your side on average; the next best, “{second}”, {second_value}."), {
    best: best.words, value: value(best.value), second: second.words, second_value: value(second.value),
  });
  if (r.verdict === "close") text += " " + _("A close call.");
  else if (r.verdict === "clear") text += " " + _("Clearly the best.");
  return text;
}

/**
 * An action as a sentence, its doer in bold: "You pass", "<b>Ann</b> names hearts alone".
 * `who` is the doer's name (HTML-escaped by the caller), null for "you"; `role` is
 * "dealer" or "assist" (the dealer's partner) for an order, else "".
 */
export function actionSentence(action, who, role = "", cardText = (c) => c) {
  const you = who === null;
  const say = (youForm, otherForm, params = {}) => fmt(you ? youForm : otherForm,
    { ...params, name: you ? "" : `<b>${who}</b>` });
  if (action === null) return say(_("You discard a card face down"), _("{name} discards a card face down"));
  const w = action.split(" ");
  const alone = w[w.length - 1] === "alone";
  if (action === "pass") return say(_("You pass"), _("{name} passes"));
  if (w[0] === "order") {
    if (role === "dealer") {
      return alone ? say(_("You take it up alone"), _("{name} takes it up alone"))
        : say(_("You take it up"), _("{name} takes it up"));
    }
    if (role === "assist") {
      return alone ? say(_("You assist alone"), _("{name} assists alone"))
        : say(_("You assist"), _("{name} assists"));
    }
    return alone ? say(_("You order it up alone"), _("{name} orders it up alone"))
      : say(_("You order it up"), _("{name} orders it up"));
  }
  const suit = SUIT_WORDS()[w[1]];
  const card = w[1] ? cardText(w[1]) : "";
  if (w[0] === "trump") {
    return alone ? say(_("You name {suit} alone"), _("{name} names {suit} alone"), { suit })
      : say(_("You name {suit}"), _("{name} names {suit}"), { suit });
  }
  if (w[0] === "discard") return say(_("You discard {card}"), _("{name} discards {card}"), { card });
  if (w[0] === "call") {
    return say(_("You call {card} for a partner"), _("{name} calls {card} for a partner"), { card });
  }
  if (action === "defend alone") return say(_("You defend alone"), _("{name} defends alone"));
  if (w[0] === "play") return say(_("You play {card}"), _("{name} plays {card}"), { card });
  return action;
}

/** A choice as the player would say it: "order it up alone", "name hearts", "play J♥". */
export function choiceWords(action, role = "", cardText = (c) => c) {
  const w = action.split(" ");
  const alone = w[w.length - 1] === "alone";
  if (action === "pass") return pgettext("choice", "pass");
  if (w[0] === "order") {
    if (role === "dealer") return alone ? pgettext("choice", "take it up alone") : pgettext("choice", "take it up");
    if (role === "assist") return alone ? pgettext("choice", "assist alone") : pgettext("choice", "assist");
    return alone ? pgettext("choice", "order it up alone") : pgettext("choice", "order it up");
  }
  const suit = SUIT_WORDS()[w[1]];
  const card = w[1] ? cardText(w[1]) : "";
  if (w[0] === "trump") {
    return fmt(alone ? pgettext("choice", "name {suit} alone") : pgettext("choice", "name {suit}"), { suit });
  }
  if (action === "defend alone") return pgettext("choice", "defend alone");
  if (w[0] === "discard") return fmt(pgettext("choice", "discard {card}"), { card });
  if (w[0] === "call") return fmt(pgettext("choice", "call {card}"), { card });
  if (w[0] === "play") return fmt(pgettext("choice", "play {card}"), { card });
  return action;
}
