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
euchre.actions.InvalidActionError: there is no choice 9: choose 1 to 2, or type the move itself
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

from euchre.actions import Action, ActionKind, InvalidActionError
from euchre.cards import SUIT_CHARS, Card, Suit, effective_suit, sort_hand, trick_strength
from euchre.cli.lang import RANKS, _, current, ngettext
from euchre.cli.style import JOKER_SYMBOL, suit_name, suit_one
from euchre.deal import Observation, Phase

__all__ = ["Command", "Prompter", "QuitGame", "choices", "in_notation", "interpret", "shorten",
           "suit_of", "weakest_first"]


class QuitGame(Exception):
    """The person leaves before the game is over: ``q``, end of input, or Ctrl-C."""

    def __init__(self, reason: str, status: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status
        """The exit status: 0 for ``q``, 1 when the input ended, 130 for Ctrl-C."""


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


def suit_of(word: str) -> Suit | None:
    """The suit a word names: its letter or symbol, its English name, or its name in the
    game's language (``cœur``, ``coeur``, ``Herz``, ``hjerter``); else ``None``.

    >>> from euchre.cli.lang import use
    >>> use("fr")
    'fr'
    >>> suit_of("coeur"), suit_of("Hearts"), suit_of("♥"), suit_of("h"), suit_of("roi")
    (Suit.HEARTS, Suit.HEARTS, Suit.HEARTS, Suit.HEARTS, None)
    >>> use("en")
    'en'
    """
    try:
        return Suit.parse(word)
    except ValueError:
        pass
    folded = _fold(word)
    for suit in Suit:
        if folded in (_fold(suit_name(suit)), _fold(suit_one(suit))):
            return suit
    return None


def _card_pattern(lang: str) -> re.Pattern[str]:
    """A card written with the language's own rank letters (``D♠``, ``ds``, ``Kn♥``,
    ``knh``): the rank in group 1, the suit in group 2."""
    own = sorted((shown for typed, shown in RANKS[lang].items() if shown != typed),
                 key=len, reverse=True)
    ranks = "|".join(re.escape(r) for r in own) or "(?!)"
    return re.compile(rf"({ranks})([{SUIT_CHARS}{''.join(s.symbol for s in Suit)}])",
                      re.IGNORECASE)


def in_notation(text: str, lang: str | None = None) -> str:
    """``text`` with each card written in the language's letters put in the notation of
    RECORDS (``D♠`` is ``Q♠``, ``RC`` is ``KC``, ``Kn♥`` is ``J♥``); the notation itself
    passes unchanged, in every language.

    The letters come from the screen (:data:`~euchre.cli.lang.RANKS`): in French,
    German and Danish ``D`` before a suit is the queen (dame, Dame, dame); a suit
    letter on its own (``trump D``) stays a suit.

    >>> in_notation("discard DS", "fr"), in_notation("kn♥", "da"), in_notation("DS", "en")
    ('discard QS', 'J♥', 'DS')
    >>> in_notation("trump D", "de"), in_notation("B♣", "de"), in_notation("E♠", "da")
    ('trump D', 'J♣', 'A♠')
    """
    lang = current() if lang is None else lang
    typed = {shown.casefold(): rank for rank, shown in RANKS[lang].items()}
    pattern = _card_pattern(lang)

    def word(w: str) -> str:
        found = pattern.fullmatch(w)
        if found is None:
            return w
        return typed[found.group(1).casefold()] + found.group(2)

    return " ".join(word(w) for w in text.split())


_CARD_WORDS: Final = ("play", "discard", "call")
"""The actions that take one card."""


def _suit_named(words: list[str]) -> Action | None:
    """``H``, ``hearts``, ``cœur alone``, ``trump herz``: the trump a suit's words name."""
    if words and words[0].lower() == "trump":
        words = words[1:]
    alone = len(words) == 2 and words[1].lower() == "alone"
    if not words or len(words) > 1 + alone:
        return None
    suit = suit_of(words[0])
    return None if suit is None else Action.trump(suit, alone=alone)


def _several_cards(words: list[str]) -> list[str] | None:
    """The cards of ``discard 9C 9D`` or ``9C 9D`` (``None``: not several cards)."""
    cards = words[1:] if words[0].lower() in _CARD_WORDS else words
    if len(cards) < 2:
        return None
    try:
        for card in cards:
            Card.parse(card)
    except ValueError:
        return None
    return cards


def interpret(answer: str, legal: Sequence[Action], phase: Phase,
              lang: str | None = None) -> Action | Command:
    """The action an answer means: the number of a listed legal action, or RECORDS text.

    A bare card discards it in the dealer's exchange and the dummy merge, and calls it in
    the partner call (a bare card otherwise plays it, as RECORDS says).  Cards may be
    written in the letters of the game's language ``lang`` (default: the current one), as
    the screen shows them (:func:`in_notation`).  Where a trump is named (the second round,
    a turned-up joker) a suit on its own names it: ``H``, ``hearts``, ``cœur``; ``h`` is
    then hearts, not the hint, which stays ``hint``.  Raises :class:`InvalidActionError`,
    worded for the player, for text that is no action; whether the action is legal is
    the engine's to say.

    >>> from euchre import Deal, Rules
    >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
    ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
    >>> legal = deal.legal_actions()
    >>> interpret("1", legal, deal.phase), interpret("h", legal, deal.phase)
    (Action.parse('pass'), <Command.HINT: 'h'>)
    >>> _ = deal.apply('order')
    >>> interpret("kd", deal.legal_actions(), deal.phase)  # a bare card, in the exchange
    Action.parse('discard KD')
    >>> interpret("xyz", deal.legal_actions(), deal.phase)
    Traceback (most recent call last):
      ...
    euchre.actions.InvalidActionError: 'xyz' is not a choice or a move: ...
    """
    text = in_notation(answer.strip().replace(JOKER_SYMBOL, "JK"), lang)
    low = text.lower()
    if not text:
        return Command.NOTHING
    words = text.replace(",", " ").split()
    if phase in _NAMING:
        named = _suit_named(words)
        if named is not None:
            return named
        if low in _HINT[1:]:
            return Command.HINT
    elif low in _HINT:
        return Command.HINT
    if low in _HELP:
        return Command.HELP
    if low in _QUIT:
        return Command.QUIT
    if text.isdecimal():
        number = text.lstrip("0") or "0"
        if len(number) < 4 and 1 <= int(number) <= len(legal):
            return legal[int(number) - 1]
        raise InvalidActionError(ngettext(
            "there is no choice {k}: the only choice is 1, or type the move itself",
            "there is no choice {k}: choose 1 to {n}, or type the move itself",
            len(legal)).format(k=shorten(number), n=len(legal)))
    if words[0].lower() == "trump" and len(words) > 1 and suit_of(words[1]) is not None:
        words[1] = str(suit_of(words[1]))
    several = _several_cards(words)
    if several is not None:
        first = " ".join([words[0], several[0]] if words[0].lower() in _CARD_WORDS
                         else [several[0]])
        raise InvalidActionError(_(
            "{text}: one card at a time, please; type {first} first").format(
                text=repr(shorten(answer.strip())), first=first))
    try:
        action = Action.parse(" ".join(words))
    except InvalidActionError:
        raise InvalidActionError(_(
            "{text} is not a choice or a move: type the number of a choice, or the move "
            "itself (a card such as 9C or JH, or pass); ? explains").format(
                text=repr(shorten(answer.strip())))) from None
    if action.kind is ActionKind.PLAY and len(words) == 1 and action.card is not None:
        if phase in (Phase.EXCHANGE, Phase.DUMMY):
            return Action.discard(action.card)
        if phase is Phase.CALL_PARTNER:
            return Action.call(action.card)
    return action


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

    def ask(self, prompt: str) -> str:
        """Print ``prompt`` (rich markup) and read one line; ``EOFError`` at the end, and
        at once for every question after it; ``KeyboardInterrupt`` for a Ctrl-C, also
        one held since the last question."""
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
        as usual."""
        if not self.interactive or threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = signal.signal(signal.SIGINT, self._on_interrupt)
        try:
            with _keeping_typed_lines():
                yield
        finally:
            signal.signal(signal.SIGINT, previous)
            self._held = False

    def _on_interrupt(self, signum: int, frame: FrameType | None) -> None:
        if self._reading:
            raise KeyboardInterrupt
        self._held = True

    def interrupted(self) -> bool:
        """Whether a Ctrl-C is held (and it is no longer)."""
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
