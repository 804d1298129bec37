"""Reading the person's answers: a number from the list, or the move itself (``JH``,
``pass``, ``trump H``; the notation docs/rules.md explains to players).

Answers come through :class:`Prompter`, which reads standard input with ``input()``; so a
test drives a whole game by feeding lines (typer's ``CliRunner(input=...)``).

>>> from euchre import Deal, Rules
>>> deal = Deal.from_cards(Rules(players=2), dealer=0,
...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
>>> legal = deal.legal_actions()
>>> interpret('2', legal, deal.phase), interpret('Order', legal, deal.phase)
(Action.parse('order'), Action.parse('order'))
>>> interpret('?', legal, deal.phase), interpret('h', legal, deal.phase)
(<Command.HELP: '?'>, <Command.HINT: 'h'>)
>>> interpret('9', legal, deal.phase)
Traceback (most recent call last):
...
euchre.actions.InvalidActionError: There is no choice 9: choose 1 to 2, or type the move itself.
>>> interpret('9c', legal, Phase.EXCHANGE)
Action.parse('discard 9C')
"""

from __future__ import annotations

import contextlib
import enum
import re
import signal
import sys
import threading
import unicodedata
from collections.abc import Iterator, Sequence
from types import FrameType
from typing import Final

from rich.console import Console

from euchre import wording
from euchre.actions import Action, InvalidActionError
from euchre.cards import Card, Suit, effective_suit, sort_hand, trick_strength
from euchre.cli.lang import _, current, ngettext
from euchre.cli.style import JOKER_SYMBOL, CardStyle, suit_name, suit_one
from euchre.deal import Observation, Phase
from euchre.wording import MOVE_WORDS, RANKS, RANKS_TYPED, SUIT_LETTERS

__all__ = ["Ambiguous", "Command", "Prompter", "QuitGame", "Stopped", "card_readings",
           "choices", "example_card", "interpret", "move_text", "move_word", "readings",
           "shorten", "suit_of",
           "suit_readings", "weakest_first"]


class QuitGame(Exception):
    """The person leaves before the game is over: ``q``, end of input, or Ctrl-C."""

    def __init__(self, reason: str, status: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status
        """The exit status: 0 for ``q``, 1 when the input ended, 130 for Ctrl-C."""


class Stopped(KeyboardInterrupt):
    """The program was told to stop (``SIGTERM``, or ``SIGHUP`` when the terminal closed):
    the game ends at once, without a question, and is saved (``euchre play``)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
        """The signal's number; the exit status is 128 plus it, as a shell reports it."""


STOPPING: Final = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                        if hasattr(signal, name))
"""The signals that stop a game as a program sees it: the system's ``SIGTERM`` and the
terminal's ``SIGHUP`` (not on every system)."""


class Command(enum.Enum):
    """Answers that are not actions.

    >>> from euchre import Deal, Rules
    >>> deal = Deal.random(Rules(players=2), dealer=0, seed=1)
    >>> [interpret(answer, deal.legal_actions(), deal.phase) for answer in ("?", "h", "q")]
    [<Command.HELP: '?'>, <Command.HINT: 'h'>, <Command.QUIT: 'q'>]
    """

    HELP = "?"
    HINT = "h"
    QUIT = "q"
    NOTHING = ""


_HELP = ("?", "help")
_HINT = ("h", "hint")
_QUIT = ("q", "quit", "exit")
_NAMING: Final = (Phase.BID_SUIT, Phase.NAME_TRUMP)
"""The phases where a suit is named: a suit on its own is a bid there."""


def weakest_first(cards: Sequence[Card], trump: Suit) -> list[Card]:
    """Cards from the weakest to the strongest once trump is fixed: the plain cards by
    rank, then the trumps, the bowers and the joker last (RULES §2).

    >>> from euchre.cards import format_cards, parse_cards
    >>> format_cards(weakest_first(parse_cards('JH AS JD KH TC JK'), Suit.HEARTS))
    'TC AS KH JD JH JK'
    """
    shown = {c: k for k, c in enumerate(sort_hand(cards, trump))}

    def strength(card: Card) -> tuple[int, int]:
        return trick_strength(card, effective_suit(card, trump), trump), shown[card]

    return sorted(cards, key=strength)


def choices(obs: Observation) -> list[Action]:
    """The legal actions as listed to the person: cards to play in the order of the sorted
    hand; cards to discard from the weakest, so that a quick ``1`` never throws away a
    bower or the joker.

    >>> from euchre import Deal, Rules
    >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
    ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
    >>> _ = deal.apply('order')  # the dealer picks up the king of trump
    >>> [str(action) for action in choices(deal.observation(0))]
    ['discard 9C', 'discard TC', 'discard JC', 'discard QC', 'discard KC', 'discard KD']
    """
    legal = list(obs.legal_actions)
    cards = [a.card for a in legal if a.card is not None]
    if len(cards) != len(legal):
        return legal
    if obs.phase in (Phase.EXCHANGE, Phase.DUMMY) and obs.trump is not None:
        order = weakest_first(cards, obs.trump)
    else:
        order = sort_hand(cards, obs.trump)
    rank = {c: k for k, c in enumerate(order)}
    return sorted(legal, key=lambda a: rank[a.card] if a.card is not None else 0)


def shorten(text: str, width: int = 40) -> str:
    """``text`` as it is echoed back in a refusal: cut to ``width`` characters with an
    ellipsis, so that a pasted page is not printed again whole.

    >>> shorten("x" * 5000), shorten("pass")
    ('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…', 'pass')
    """
    return text if len(text) <= width else text[:width - 1] + "…"


def _fold(word: str) -> str:
    """A word without case or accents: ``Cœur`` and ``coeur`` are one word."""
    word = word.casefold().replace("œ", "oe").replace("æ", "ae").replace("ø", "o")
    return "".join(c for c in unicodedata.normalize("NFKD", word)
                   if not unicodedata.combining(c))


def suit_readings(word: str, lang: str | None = None) -> list[Suit]:
    """Every suit a word may name in ``lang`` (default: the current language): a letter
    of the language (:data:`~euchre.wording.SUIT_LETTERS`) or of the notation, a symbol,
    a name in the language or in English; the language's readings first.

    >>> suit_readings("C", "fr"), suit_readings("coeur", "fr"), suit_readings("K", "de")
    ([Suit.HEARTS, Suit.CLUBS], [Suit.HEARTS], [Suit.DIAMONDS])
    >>> suit_readings("kr", "de"), suit_readings("r", "da"), suit_readings("roi", "fr")
    ([Suit.CLUBS], [Suit.DIAMONDS], [])
    """
    lang = current() if lang is None else lang
    folded = _fold(word)
    found = [Suit.parse(letter) for letter, typed in SUIT_LETTERS[lang].items()
             if folded in (_fold(t) for t in typed)]
    found += [suit for suit in Suit
              if folded in (_fold(suit_name(suit, lang)), _fold(suit_one(suit, lang)))]
    with contextlib.suppress(ValueError):
        found.append(Suit.parse(word))
    return list(dict.fromkeys(found))


def suit_of(word: str) -> Suit | None:
    """The suit a word names (its first reading, :func:`suit_readings`): its letter or
    symbol, its English name, or its name in the game's language (``cœur``, ``coeur``,
    ``Herz``, ``hjerter``); else ``None``.

    >>> from euchre.cli.lang import use
    >>> use("fr")
    'fr'
    >>> suit_of("coeur"), suit_of("Hearts"), suit_of("♥"), suit_of("h"), suit_of("roi")
    (Suit.HEARTS, Suit.HEARTS, Suit.HEARTS, Suit.HEARTS, None)
    >>> use("en")
    'en'
    """
    found = suit_readings(word)
    return found[0] if found else None


_NOTATION_RANKS: Final = {"7": "7", "8": "8", "9": "9", "10": "T", "T": "T", "J": "J",
                          "Q": "Q", "K": "K", "A": "A"}


def _ranks(lang: str) -> dict[str, str]:
    """The rank letters of ``lang``, folded, to the notation's rank."""
    typed = {"7": "7", "8": "8", "9": "9", "10": "T"}
    typed |= {_fold(shown): rank for rank, shown in RANKS[lang].items()}
    typed |= {_fold(t): rank for rank, more in RANKS_TYPED[lang].items() for t in more}
    return typed


def _suit_letters(lang: str) -> dict[str, Suit]:
    return {_fold(t): Suit.parse(letter)
            for letter, typed in SUIT_LETTERS[lang].items() for t in typed}


def card_readings(word: str, lang: str | None = None) -> list[Card]:
    """Every card a word may name in ``lang`` (default: the current language): written
    in the language's letters (French ``VC`` the jack of hearts, German ``DK`` the queen
    of diamonds, Danish ``EK`` the ace of clubs), in the notation (``9C``, ``10D``,
    ``JK``), with a symbol (``D♠``), or, when neither reads it, with a rank of one and
    a suit of the other (French ``DS``, the queen of spades).  The language's reading
    first; two readings only where a letter means two suits (French ``C``).

    >>> card_readings("VC", "fr"), card_readings("9C", "fr"), card_readings("9C", "de")
    ([Card.parse('JH')], [Card.parse('9H'), Card.parse('9C')], [Card.parse('9C')])
    >>> card_readings("DK", "de"), card_readings("BKr", "de"), card_readings("EK", "da")
    ([Card.parse('QD')], [Card.parse('JC')], [Card.parse('AC')])
    >>> card_readings("DS", "fr"), card_readings("DS", "en"), card_readings("🃏", "fr")
    ([Card.parse('QS')], [], [Card.parse('JK')])
    """
    lang = current() if lang is None else lang
    word = word.replace(JOKER_SYMBOL, "JK")
    symbols = {s.symbol: s for s in Suit}
    local_ranks, local_suits = _ranks(lang), _suit_letters(lang) | symbols
    notation_suits = {s.char.casefold(): s for s in Suit} | symbols
    folded = _fold(word)

    def read(ranks: dict[str, str], suits: dict[str, Suit]) -> list[Card]:
        found = []
        for k in range(1, len(folded)):
            rank, suit = ranks.get(folded[:k]), suits.get(folded[k:])
            if rank is not None and suit is not None:
                found.append(Card.parse(rank + suit.char))
        return found

    notation: list[Card] = []
    with contextlib.suppress(ValueError):
        notation.append(Card.parse(word))
    found = read(local_ranks, local_suits) + notation if lang != "en" else notation
    if not found and lang != "en":
        found = read(local_ranks | {_fold(r): t for r, t in _NOTATION_RANKS.items()},
                     local_suits | notation_suits)
    return list(dict.fromkeys(found))


def move_word(english: str, lang: str | None = None) -> str:
    """A move's or command's word as ``lang``'s players type it (default: the current
    language; :func:`euchre.wording.move_word`).

    >>> move_word("pass", "fr"), move_word("trump", "de"), move_word("pass", "en")
    ('passe', 'Trumpf', 'pass')
    """
    return wording.move_word(english, current() if lang is None else lang)


def move_text(action: Action, style: CardStyle, named: bool = False) -> str:
    """An action as the person types it in the current language, its card in ``style``
    (:func:`euchre.wording.move_text`): ``passe``, ``atout cœur seul``; in English the
    notation (``trump H``).

    >>> from euchre.cli.lang import use
    >>> plain = CardStyle(colour=False)
    >>> use("de"), move_text(Action.parse("trump H alone"), plain), use("en")
    ('de', 'Trumpf Herz allein', 'en')
    >>> move_text(Action.parse("trump H"), plain), move_text(Action.parse("discard 9C"), plain)
    ('trump H', 'discard 9C')
    """
    return wording.move_text(action, current(), style, named=named)


def _english_word(word: str, lang: str) -> str:
    """A typed word put into the notation's English (``passe`` is ``pass``)."""
    folded = _fold(word)
    if folded == "p":
        return "pass"
    for english, typed in MOVE_WORDS[lang].items():
        if folded in (_fold(t) for t in typed):
            return english
    return word


class Ambiguous(InvalidActionError):
    """An answer two readings of which are legal (French ``9C``: the nine of hearts, or
    of clubs in the notation): the person is asked which."""

    def __init__(self, answer: str, readings: Sequence[Action]) -> None:
        super().__init__(f"{answer!r} may be read as {', '.join(map(str, readings))}")
        self.answer = answer
        self.readings = list(readings)


_CARD_WORDS: Final = ("play", "discard", "call")
"""The actions that take one card."""


def _suit_named(words: list[str], lang: str) -> list[Action]:
    """``H``, ``hearts``, ``cœur alone``, ``trump herz``: the trumps a suit's words may
    name."""
    if words and _english_word(words[0], lang) == "trump":
        words = words[1:]
    alone = len(words) == 2 and _english_word(words[1], lang) == "alone"
    if not words or len(words) > 1 + alone:
        return []
    return [Action.trump(suit, alone=alone) for suit in suit_readings(words[0], lang)]


def _card_actions(words: list[str], phase: Phase, lang: str) -> list[Action]:
    """``9C``, ``play 9C``, ``discard VC``: the actions on the cards one card may be.  A
    bare card discards it in the dealer's exchange and the dummy merge, calls it in the
    partner call, and else plays it."""
    verb = _english_word(words[0], lang)
    if verb in _CARD_WORDS and len(words) == 2:
        card = words[1]
    elif len(words) == 1:
        card = words[0]
        verb = {Phase.EXCHANGE: "discard", Phase.DUMMY: "discard",
                Phase.CALL_PARTNER: "call"}.get(phase, "play")
    else:
        return []
    make = {"play": Action.play, "discard": Action.discard, "call": Action.call}[verb]
    return [make(c) for c in card_readings(card, lang)]


def _several_cards(words: list[str], lang: str) -> list[str] | None:
    """The cards of ``discard 9C 9D`` or ``9C 9D`` (``None``: not several cards)."""
    cards = words[1:] if _english_word(words[0], lang) in _CARD_WORDS else words
    if len(cards) < 2 or not all(card_readings(card, lang) for card in cards):
        return None
    return cards


def readings(answer: str, phase: Phase, lang: str | None = None) -> list[Action | Command]:
    """Every action or command an answer may mean, the language's readings first (a
    number is not read here: it is a listed choice).

    >>> readings("passe", Phase.BID_TURNUP, "fr"), readings("p", Phase.BID_SUIT, "de")
    ([Action.parse('pass')], [Action.parse('trump S'), Action.parse('pass')])
    >>> readings("atout coeur seul", Phase.BID_SUIT, "fr")
    [Action.parse('trump H alone')]
    """
    lang = current() if lang is None else lang
    text = answer.strip()
    if not text:
        return [Command.NOTHING]
    words = text.replace(",", " ").split()
    naming = phase in _NAMING
    found: list[Action | Command] = []
    if naming or _english_word(words[0], lang) == "trump":
        found += _suit_named(words, lang)
    if len(words) == 1:
        word = _english_word(words[0], lang)
        low = words[0].lower()
        if word == "help" or low in _HELP:
            found.append(Command.HELP)
        elif word == "hint" or (low in _HINT and not naming):
            found.append(Command.HINT)
        elif word == "quit" or low in _QUIT:
            found.append(Command.QUIT)
    if found and not naming:
        return found
    found += _card_actions(words, phase, lang)
    english = [_english_word(w, lang) for w in words]
    if english[0] != "trump":
        with contextlib.suppress(InvalidActionError):
            found.append(Action.parse(" ".join(english)))
    return list(dict.fromkeys(found))


def interpret(answer: str, legal: Sequence[Action], phase: Phase,
              lang: str | None = None) -> Action | Command:
    """The action an answer means: the number of a listed legal action, or a move typed
    in the game's language ``lang`` (default: the current one) or in the notation of
    RECORDS (:func:`readings`).

    Cards may be written in the letters of the language, as the screen shows them.
    Where a trump is named (the second round, a turned-up joker) a suit on its own names
    it: ``H``, ``hearts``, ``cœur``; ``h`` is then hearts, not the hint, which stays
    ``hint``.  An answer with several readings means the one that is legal; where two
    are, :class:`Ambiguous` is raised (the person is asked which); where none is, the
    language's reading is returned, for the engine to refuse.  Raises
    :class:`InvalidActionError`, worded for the player, for text that is no action.

    >>> from euchre import Deal, Rules
    >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
    ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
    >>> legal = deal.legal_actions()
    >>> interpret("1", legal, deal.phase), interpret("h", legal, deal.phase)
    (Action.parse('pass'), <Command.HINT: 'h'>)
    >>> interpret("passe", legal, deal.phase, "fr"), interpret("p", legal, deal.phase)
    (Action.parse('pass'), Action.parse('pass'))
    >>> _ = deal.apply('order')
    >>> interpret("kd", deal.legal_actions(), deal.phase)  # a bare card, in the exchange
    Action.parse('discard KD')
    >>> interpret("9C", deal.legal_actions(), deal.phase, "fr")  # 9H is not held: 9C
    Action.parse('discard 9C')
    >>> interpret("xyz", deal.legal_actions(), deal.phase)
    Traceback (most recent call last):
      ...
    euchre.actions.InvalidActionError: 'xyz' is not a choice or a move: ...
    """
    lang = current() if lang is None else lang
    text = answer.strip()
    if text.isdecimal():
        number = text.lstrip("0") or "0"
        if len(number) < 4 and 1 <= int(number) <= len(legal):
            return legal[int(number) - 1]
        raise InvalidActionError(ngettext(
            "There is no choice {k}: the only choice is 1, or type the move itself.",
            "There is no choice {k}: choose 1 to {n}, or type the move itself.",
            len(legal)).format(k=shorten(number), n=len(legal)))
    found = readings(text, phase, lang)
    if not found:
        words = text.replace(",", " ").split()
        several = _several_cards(words, lang)
        if several is not None:
            verb = _english_word(words[0], lang) in _CARD_WORDS
            first = " ".join([words[0], several[0]] if verb else [several[0]])
            raise InvalidActionError(_(
                "{text}: one card at a time, please; type {first} first").format(
                    text=repr(shorten(text)), first=first))
        raise InvalidActionError(_(
            "{text} is not a choice or a move: type the number of a choice, or the move "
            "itself (a card such as {card}, or {word}); ? explains").format(
                text=repr(shorten(text)), card=example_card(lang),
                word=move_word("pass", lang)))
    if len(found) == 1:
        return found[0]
    allowed = [r for r in found if isinstance(r, Command) or r in legal]
    if len(allowed) == 1:
        return allowed[0]
    if len(allowed) > 1:
        raise Ambiguous(text, [r for r in allowed if isinstance(r, Action)])
    return found[0]  # the language's reading, for the engine to refuse


def example_card(lang: str | None = None, card: Card = Card.JH) -> str:
    """A card as ``lang``'s players type it, in their letters alone: ``VC`` in French.

    >>> example_card("fr"), example_card("de"), example_card("da"), example_card("en")
    ('VC', 'BH', 'KnH', 'JH')
    """
    lang = current() if lang is None else lang
    assert card.suit is not None
    rank = RANKS[lang].get(card.rank_char, card.rank_char)
    return rank + SUIT_LETTERS[lang].get(card.suit.char, (card.suit.char,))[0]


class Prompter:
    """Asks the person questions on the console and reads the answers from ``input()``.

    ``interactive`` (default: standard input is a terminal) says whether it may ask
    questions the game does not need, like the offer to save: on a pipe it would block
    or eat the next line.  Off a terminal the answers are echoed, so a transcript reads
    as a conversation.

    At a terminal, what was typed before a question is shown is thrown away (a key
    pressed while the bots play never answers the next question), and the line is read
    with the standard library's ``readline`` where it is installed: the arrow keys move
    in the line and up brings back earlier answers.  Under :meth:`holding_interrupts`
    a Ctrl-C pressed between questions waits for the next one (:meth:`interrupted`).
    """

    def __init__(self, console: Console, interactive: bool | None = None) -> None:
        self.console = console
        self.interactive = sys.stdin.isatty() if interactive is None else interactive
        self.ended = False
        """The input has ended (Ctrl-D): nothing more is read, so that a line typed
        afterwards can never be taken for an answer (or a file name)."""
        self._editing = self.interactive and sys.stdin.isatty() and sys.stdout.isatty() \
            and _line_editing()
        self._reading = False
        self._held = False
        self.stopped: int | None = None
        """The stopping signal received (:data:`STOPPING`), if one was."""

    def ask(self, prompt: str) -> str:
        """Print ``prompt`` (rich markup) and read one line; ``EOFError`` at the end, and
        at once for every question after it; ``KeyboardInterrupt`` for a Ctrl-C, also
        one held since the last question."""
        if self.stopped is not None:
            raise Stopped(self.stopped)
        if self.ended:
            raise EOFError
        if self._held:
            self._held = False
            raise KeyboardInterrupt
        _discard_typed_ahead()
        self._reading = True
        try:
            if self._editing:
                answer = input(self._for_readline(prompt))
            else:
                self.console.print(prompt, end="")
                answer = input()
        except EOFError:
            self.ended = True
            raise
        finally:
            self._reading = False
        if not self.interactive:
            self.console.print(shorten(answer), markup=False, highlight=False)
        return answer.strip()

    def _for_readline(self, prompt: str) -> str:
        """The prompt as the terminal shows it, its colour codes fenced off (``\\x01``,
        ``\\x02``) so that readline knows how wide it is when it redraws the line."""
        with self.console.capture() as capture:
            self.console.print(prompt, end="")
        return re.sub(r"(\x1b\[[0-9;]*m)", "\x01\\1\x02", capture.get())

    def confirm(self, question: str, default: bool = False) -> bool:
        """A yes/no question; no unless the answer starts with ``y`` (or the language's
        own yes: ``o``, ``j``).  ``default`` true asks ``[Y/n]``: then yes unless the
        answer starts with ``n`` (no in every language euchre speaks)."""
        # TRANSLATORS: the letter that answers yes to a [y/N] question
        yes = _("y")
        if default:
            answer = self.ask(f"{question} [dim]\\[{yes.upper()}/n][/] ").lower()
            return not answer.startswith("n")
        answer = self.ask(f"{question} [dim]\\[{yes}/N][/] ").lower()
        return answer.startswith(("y", yes.lower()))

    @contextlib.contextmanager
    def holding_interrupts(self) -> Iterator[None]:
        """At a terminal, a Ctrl-C interrupts a question being asked, and else is held
        until the game asks for it (:meth:`interrupted`) or asks the next question: a
        game is never cut in the middle of a move.  Off a terminal Ctrl-C stops at once,
        as usual.  Everywhere, :data:`STOPPING` signals are held the same way and raise
        :class:`Stopped` (so that the game is saved before the program ends)."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = {signum: signal.signal(signum, self._on_stop) for signum in STOPPING}
        try:
            if not self.interactive:
                yield
                return
            previous[signal.SIGINT] = signal.signal(signal.SIGINT, self._on_interrupt)
            with _keeping_typed_lines():
                yield
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)
            self._held = False

    def _on_interrupt(self, signum: int, frame: FrameType | None) -> None:
        if self._reading:
            raise KeyboardInterrupt
        self._held = True

    def _on_stop(self, signum: int, frame: FrameType | None) -> None:
        self.stopped = signum
        self.ended = True  # nothing more is asked
        if self._reading:
            raise Stopped(signum)

    def interrupted(self) -> bool:
        """Whether a Ctrl-C is held (and it is no longer); raises :class:`Stopped` when a
        stopping signal came."""
        if self.stopped is not None:
            raise Stopped(self.stopped)
        held, self._held = self._held, False
        return held


def _line_editing() -> bool:
    """Whether ``input()`` edits lines: the standard library's ``readline`` (not built on
    every system) is loaded."""
    try:
        import readline  # noqa: F401  (loading it is what turns line editing on)
    except ImportError:
        return False
    return True


@contextlib.contextmanager
def _keeping_typed_lines() -> Iterator[None]:
    """At a terminal, a Ctrl-C no longer throws away what was typed and not read yet
    (the terminal's ``noflsh``), and as before once done.

    A line answered and a Ctrl-C pressed at once could else hang the game: the line
    editor, woken by the line, found it thrown away by the Ctrl-C and waited for more
    keys, the Ctrl-C unheard until then.  Kept, the line is read and the Ctrl-C is heard
    just after it.  What is typed ahead is still thrown away before each question
    (:func:`_discard_typed_ahead`)."""
    try:
        import termios
    except ImportError:  # not a POSIX system
        yield
        return
    fd = sys.stdin.fileno() if sys.stdin.isatty() else -1
    try:
        before = termios.tcgetattr(fd) if fd >= 0 else None
    except (OSError, termios.error):
        before = None
    if before is not None:
        kept = list(before)
        kept[3] |= termios.NOFLSH  # the local modes
        with contextlib.suppress(OSError, termios.error):
            termios.tcsetattr(fd, termios.TCSANOW, kept)
    try:
        yield
    finally:
        if before is not None:
            with contextlib.suppress(OSError, termios.error):
                termios.tcsetattr(fd, termios.TCSANOW, before)


def _discard_typed_ahead() -> None:
    """Throw away what was typed at the terminal and not read yet; nothing on a pipe."""
    if not sys.stdin.isatty():
        return
    try:
        import termios
    except ImportError:  # not a POSIX system
        return
    with contextlib.suppress(OSError):
        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
