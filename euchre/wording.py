"""The words of the game in the player's language, for every front end: the moves as a
player types them, the suits and the bowers by name, and why an action is not legal.

Nothing here reads or writes anything, and nothing here keeps a language: each function
takes the language as its argument (``"en"``, ``"fr"``, ``"de"``, ``"da"``; see
:mod:`euchre.i18n`), so one process may speak to a French player and a Danish one at
once.  The terminal (``euchre.cli``) and the web server (``euchre.server``) both word
with it; the catalogs are the ``euchre`` domain's.

Cards are written by a :class:`CardWriter`: by default as the notation types them
(:data:`NOTATION`, ``KD``); the terminal passes its own, with colours and its language's
letters.

>>> from euchre import Deal, Rules
>>> deal = Deal.from_cards(Rules(players=2), dealer=0,
...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
>>> for action in ('order', 'discard 9C', 'AC'):
...     _ = deal.apply(action)
>>> obs = deal.observation(0)
>>> print(why_illegal(obs, Action.parse('KD'), "en"))
You cannot play KD. You must follow clubs: you hold KC, QC, JC and TC.
>>> print(why_illegal(obs, Action.parse('AH'), "en"))
You cannot play AH. You do not hold it; you may play KC, QC, JC or TC.
>>> print(why_illegal(obs, Action.parse('KD'), "de"))
Du kannst KD nicht spielen. Du musst Kreuz bedienen: du hast KC, QC, JC und TC.
>>> move_text(Action.parse("trump H alone"), "fr"), move_text(Action.parse("trump H"), "en")
('atout cœur seul', 'trump H')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, Protocol

from euchre.actions import DISCARD, Action, ActionKind
from euchre.cards import Card, Suit, card_mask, effective_suit, left_bower, right_bower, sort_hand
from euchre.deal import Observation, Phase
from euchre.i18n import translation
from euchre.refusals import Refused

if TYPE_CHECKING:
    from euchre import core

__all__ = ["MOVE_WORDS", "NOTATION", "RANKS", "RANKS_TYPED", "ROLES", "SUIT_LETTERS",
           "SUIT_NAMES", "CardWriter", "Refused", "card_role", "listed", "move_text",
           "move_word", "refusal_reason", "role_words", "suit_name", "suit_one", "why_illegal"]


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs where it is defined; it is looked up where it
    is said."""
    return message


RANKS: Final = {
    "en": {},
    "fr": {"A": "A", "K": "R", "Q": "D", "J": "V"},
    "de": {"A": "A", "K": "K", "Q": "D", "J": "B"},
    "da": {"A": "E", "K": "K", "Q": "D", "J": "Kn"},
}
"""The letters each language prints on the face of its aces, kings, queens and jacks
(the notation of RECORDS, ``A K Q J``, is understood too)."""

RANKS_TYPED: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "en": {}, "fr": {}, "de": {}, "da": {"J": ("B",)}}
"""Other letters a language's players type for a rank, beside :data:`RANKS`: the Danish
jack is also *bonde*, ``B``."""

SUIT_LETTERS: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "en": {},
    "fr": {"C": ("T",), "D": ("K",), "H": ("C",), "S": ("P",)},
    "de": {"C": ("Kr",), "D": ("K",), "H": ("H",), "S": ("P",)},
    "da": {"C": ("K",), "D": ("R",), "H": ("H",), "S": ("S",)},
}
"""The letters each language's players type for a suit, by the suit's letter in the
notation (C D H S): French trèfle, carreau, cœur, pique; German Kreuz, Karo, Herz, Pik;
Danish klør, ruder, hjerter, spar.  French ``C`` (cœur) is also the notation's clubs:
where both readings are legal moves the terminal asks which is meant."""

MOVE_WORDS: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "en": {},
    "fr": {"pass": ("passe", "passer"), "order": ("commande", "commander"),
           "alone": ("seul", "seule"), "trump": ("atout",), "discard": ("écarte", "écarter"),
           "call": ("appelle", "appeler"), "defend": ("défends", "défendre"),
           "play": ("joue", "jouer"), "help": ("aide",), "hint": ("conseil",),
           "quit": ("quitter",)},
    "de": {"pass": ("passe", "passen"), "order": ("bestelle", "bestellen"),
           "alone": ("allein",), "trump": ("Trumpf",), "discard": ("drücke", "drücken"),
           "call": ("rufe", "rufen"), "defend": ("verteidige", "verteidigen"),
           "play": ("spiele", "spielen"), "help": ("Hilfe",), "hint": ("Tipp",),
           "quit": ("beenden",)},
    "da": {"pass": ("pas",), "order": ("bestil",), "alone": ("alene",),
           "trump": ("trumf",), "discard": ("smid",), "call": ("kald",),
           "defend": ("forsvar",), "play": ("spil",), "help": ("hjælp",), "hint": ("tip",),
           "quit": ("afslut",)},
}
"""The words of the moves and commands in each language, by their English word: the
first is the one shown (``passe``, ``atout cœur seul``), every one is understood, and so
is the English word; ``p`` is pass in every language."""


SUIT_NAMES: Final = (N_("clubs"), N_("diamonds"), N_("hearts"), N_("spades"))
"""The suits by :class:`Suit`, in English (:func:`suit_name`: in a language)."""

_SUIT_ONE: Final = (N_("club"), N_("diamond"), N_("heart"), N_("spade"))

ROLES: Final = ("the joker", "the right bower", "the left bower")
"""What a card may be besides its rank and suit (:func:`card_role`), in English."""

_ROLE_WORDS: Final = {
    "the joker": (N_("the joker"), N_("joker")),
    "the right bower": (N_("the right bower"), N_("right bower")),
    "the left bower": (N_("the left bower"), N_("left bower")),
}


class CardWriter(Protocol):
    """Writes one card for the reader: the notation (:data:`NOTATION`), or the terminal's
    colours and letters (``euchre.cli.style.CardStyle``)."""

    def card(self, card: Card, /) -> str:
        """The card as the reader sees it."""
        ...


class _Notation:
    def card(self, card: Card, /) -> str:
        return str(card)


NOTATION: Final[CardWriter] = _Notation()
"""Cards as the notation types them (``KD``, ``TS``, ``JK``; RECORDS)."""


def suit_name(suit: Suit, lang: str) -> str:
    """The suit in ``lang``: ``hearts``, ``cœur``, ``Herz``, ``hjerter``.

    >>> [suit_name(Suit.HEARTS, lang) for lang in ("en", "fr", "de", "da")]
    ['hearts', 'cœur', 'Herz', 'hjerter']
    """
    return translation(lang).gettext(SUIT_NAMES[suit])


def suit_one(suit: Suit, lang: str) -> str:
    """One card of the suit in ``lang``, as in "the highest heart".

    >>> suit_one(Suit.HEARTS, "en"), suit_one(Suit.CLUBS, "en")
    ('heart', 'club')
    """
    return translation(lang).gettext(_SUIT_ONE[suit])


def card_role(card: Card, trump: Suit | None) -> str | None:
    """``the right bower``, ``the left bower`` or ``the joker`` (one of :data:`ROLES`);
    else ``None``.  The jacks are bowers only once trump is fixed (RULES §2).

    >>> card_role(Card.JD, Suit.HEARTS), card_role(Card.JH, Suit.HEARTS), card_role(Card.JH, None)
    ('the left bower', 'the right bower', None)
    """
    if card == Card.JK:
        return "the joker"
    if trump is None:
        return None
    if card == right_bower(trump):
        return "the right bower"
    if card == left_bower(trump):
        return "the left bower"
    return None


def role_words(role: str, lang: str, short: bool = False, after_with: bool = False) -> str:
    """A :func:`card_role` in ``lang``; ``short``: without its article; ``after_with``:
    as it reads after "with" ("wins with JS, the left bower"), where German declines it
    (dem linken Bower).

    >>> role_words("the left bower", "en"), role_words("the left bower", "en", short=True)
    ('the left bower', 'left bower')
    >>> role_words("the left bower", "de", after_with=True), role_words("the left bower", "de")
    ('dem linken Bower', 'der linke Bower')
    """
    words = translation(lang)
    if after_with and not short:
        pgettext = words.pgettext
        # TRANSLATORS: "West wins with JS, the left bower": the words after "with" and a card
        return {"the joker": pgettext("after with", "the joker"),
                "the right bower": pgettext("after with", "the right bower"),
                "the left bower": pgettext("after with", "the left bower")}[role]
    return words.gettext(_ROLE_WORDS[role][short])


def listed(words: Sequence[str], lang: str, last: str = "and") -> str:
    """``QD``, ``QD and 9D``, ``AH, QD and 9D`` (``last="or"``: ``QD or 9D``) in ``lang``.

    >>> listed(["AH", "QD", "9D"], "en"), listed(["QD", "9D"], "fr", "or")
    ('AH, QD and 9D', 'QD ou 9D')
    """
    if len(words) <= 1:
        return "".join(words)
    _ = translation(lang).gettext
    message = _("{names} or {last}") if last == "or" else _("{names} and {last}")
    return message.format(names=", ".join(words[:-1]), last=words[-1])


def move_word(english: str, lang: str) -> str:
    """A move's or command's word as ``lang``'s players type it: ``passe`` for ``pass``
    in French (:data:`MOVE_WORDS`); English where it has none.

    >>> move_word("pass", "fr"), move_word("trump", "de"), move_word("pass", "en")
    ('passe', 'Trumpf', 'pass')
    """
    return MOVE_WORDS[lang].get(english, (english,))[0]


def move_text(action: Action, lang: str, cards: CardWriter = NOTATION,
              named: bool = False) -> str:
    """An action as a player of ``lang`` types it: ``passe``, ``atout cœur seul``,
    ``écarte`` and a card; in English the notation (``trump H``).  ``named``: a trump's
    suit in words in English too (``trump spades``).

    >>> move_text(Action.parse("trump H alone"), "de"), move_text(Action.parse("discard 9C"), "en")
    ('Trumpf Herz allein', 'discard 9C')
    >>> move_text(Action.parse("trump S"), "en", named=True)
    'trump spades'
    """
    kind = action.kind
    alone = f" {move_word('alone', lang)}" if action.alone else ""
    if kind is ActionKind.PASS:
        return move_word("pass", lang)
    if kind is ActionKind.ORDER:
        return move_word("order", lang) + alone
    if kind is ActionKind.DEFEND_ALONE:
        return f"{move_word('defend', lang)} {move_word('alone', lang)}"
    if kind is ActionKind.TRUMP and action.suit is not None:
        suit = suit_name(action.suit, lang) if named or lang != "en" else action.suit.char
        return f"{move_word('trump', lang)} {suit}{alone}"
    card = cards.card(action.card) if action.card is not None else ""
    if kind is ActionKind.PLAY:
        return card
    return f"{move_word(kind.value, lang)} {card}"


_NO_ALONE: Final = N_("There is no going alone in two-handed euchre.")


def why_illegal(obs: Observation, action: Action, lang: str,
                cards: CardWriter = NOTATION) -> str:
    """Two short sentences in ``lang``: what the person cannot do, and the rule in words
    ("You", never a seat number or a section of a file the player does not have).

    ``obs`` is the person's observation at their turn (RULES §12); ``action`` is the
    refused one.  The rules core says why (:func:`euchre.core.refusal`); this only words
    its reason (:func:`refusal_reason`).
    """
    _ = translation(lang).gettext
    return _("{cannot} {reason}").format(cannot=_cannot(action, lang, cards),
                                         reason=_reason(obs, action, lang, cards))


def _cannot(action: Action, lang: str, cards: CardWriter) -> str:
    """What the person cannot do, as a sentence: ``You cannot play 9S.``"""
    _ = translation(lang).gettext
    kind = action.kind
    card = cards.card(action.card) if action.card is not None else ""
    if kind is ActionKind.PASS:
        return _("You cannot pass.")
    if kind is ActionKind.ORDER:
        return _("You cannot order it up alone.") if action.alone else _("You cannot order it up.")
    if kind is ActionKind.TRUMP and action.suit is not None:
        suit = suit_name(action.suit, lang)
        return (_("You cannot name {suit} and go alone.") if action.alone
                else _("You cannot name {suit}.")).format(suit=suit)
    if kind is ActionKind.DEFEND_ALONE:
        return _("You cannot defend alone.")
    if kind is ActionKind.DISCARD:
        return _("You cannot discard {card}.").format(card=card)
    if kind is ActionKind.CALL:
        return _("You cannot call {card}.").format(card=card)
    return _("You cannot play {card}.").format(card=card)


def _mover_state(obs: Observation) -> core.Int64Array:
    """The core's state as far as ``obs`` shows it: enough for :func:`euchre.core.refusal`
    to answer for the seat that looks (its hand, own discards, the phase and the trick).
    The compiled core loads here, at the first refusal worded."""
    from euchre import core

    st = core.new_state(obs.rules)
    st[core.DEALER] = obs.dealer
    st[core.TURNUP] = int(obs.turnup)
    st[core.PHASE] = _PHASE_IDS[obs.phase]
    st[core.TURN] = obs.seat if obs.to_move is None else obs.to_move
    hand = card_mask(int(c) for c in obs.hand)
    st[core.HANDS + obs.seat] = hand
    st[core.TRUMP_SUIT] = -1 if obs.trump is None else int(obs.trump)
    st[core.MAKER] = -1 if obs.maker is None else obs.maker
    st[core.TAKEN] = int(obs.turnup_taken is True)
    st[core.DUMMY_LEFT] = hand.bit_count() - 5
    if obs.trick and obs.trump is not None:
        st[core.TRICK_LEN] = len(obs.trick)
        st[core.LED] = effective_suit(obs.trick[0][1], obs.trump)
    for k, c in enumerate(obs.discards):
        st[core.HISTORY + k] = obs.seat * core.SEAT_SHIFT + DISCARD + int(c)
    st[core.N_ACTIONS] = len(obs.discards)
    return st


_PHASE_IDS: Final = {phase: i for i, phase in enumerate(Phase)}


def _reason(obs: Observation, action: Action, lang: str, cards: CardWriter) -> str:
    """The rule that refuses ``action``, in words: the core's reason (:func:`core.refusal`)."""
    from euchre import core

    code, x, y = core.refusal(_mover_state(obs), obs.seat, action.id)
    return refusal_reason(Refused(code), x, y, obs, lang, cards)


def refusal_reason(code: Refused, x: int, y: int, obs: Observation, lang: str,
                   cards: CardWriter = NOTATION) -> str:
    """The core's reason ``code`` with its arguments ``x``, ``y`` (:class:`Refused`) as a
    sentence in ``lang`` for the seat of ``obs``; the choices it names are the
    observation's legal actions.

    >>> from euchre import Deal, Rules
    >>> deal = Deal.random(Rules(players=4), dealer=0, seed=1)
    >>> refusal_reason(Refused.NO_ALONE, 0, 0, deal.observation(1), "fr")
    'On ne joue pas seul dans l’euchre à deux.'
    """
    words = translation(lang)
    _, ngettext = words.gettext, words.ngettext
    if code is Refused.LEGAL:
        raise ValueError("the action is legal: there is no reason to word")
    if code in (Refused.DEAL_OVER, Refused.NOT_YOUR_TURN):
        return _("It is not your turn.")
    if code is Refused.NO_ALONE:
        return _(_NO_ALONE)
    if code in (Refused.ROUND_ONE, Refused.ROUND_ONE_NAMED):
        suit = suit_name(Suit(x), lang)
        if code is Refused.ROUND_ONE_NAMED:
            return (_("In the first round of bidding you either pass or take it up ({suit} "
                      "trump); you may name another suit in the second round, if everyone "
                      "passes.") if y else
                    _("In the first round of bidding you either pass or order it up ({suit} "
                      "trump); you may name another suit in the second round, if everyone "
                      "passes.")).format(suit=suit)
        return (_("It is the first round of bidding: pass, or take it up ({suit} trump).")
                if y else
                _("It is the first round of bidding: pass, or order it up ({suit} trump).")
                ).format(suit=suit)
    if code is Refused.TURNED_DOWN:
        return (_("{suit} was turned down: it cannot be trump this deal. Name another "
                  "suit, or pass.") if y else
                _("{suit} was turned down: it cannot be trump this deal. Stick the "
                  "dealer: name another suit.")).format(
                    suit=suit_name(Suit(x), lang).capitalize())
    if code is Refused.STICK_THE_DEALER:
        return _("Stick the dealer: when everyone else has passed twice, the dealer "
                 "must name trump.")
    if code is Refused.ROUND_TWO:
        return _("It is the second round of bidding: name a suit (for example {example}) or "
                 "pass.").format(example=move_text(Action.trump(Suit.HEARTS), lang, cards))
    if code is Refused.JOKER_NAMES:
        return _("The joker was turned up: you are the dealer and name trump "
                 "(for example {example}).").format(
                     example=move_text(Action.trump(Suit.HEARTS), lang, cards))
    if code is Refused.KEEP_TURNUP:
        return _("In this game the dealer must keep the turn-up {card}: discard "
                 "another card.").format(card=cards.card(Card(x)))
    if code is Refused.DISCARD_NOT_HELD:
        return _("You do not hold it.")
    if code is Refused.EXCHANGE:
        return _("You are the dealer and picked up {card}: discard one card (discarding "
                 "{card} keeps your hand as it was).").format(card=cards.card(Card(x)))
    if code is Refused.DUMMY_NOT_HELD:
        return _("It is not in your hand or in the dummy.")
    if code is Refused.DUMMY:
        return ngettext("You took up the dummy: discard {n} more card, one at a time.",
                        "You took up the dummy: discard {n} more cards, one at a time.",
                        x).format(n=x)
    if code is Refused.CALL_OWN_CARD:
        return _("You hold it yourself: call a card you do not hold.")
    # a card the maker knows to be out of play would be a lone hand in secret (RULES §6.3)
    if code is Refused.CALL_OWN_DISCARD:
        return _("You discarded it, and a card you know to be out of play may not "
                 "be called.")
    if code is Refused.CALL_TURNED_DOWN:
        return _("It was turned down in the first round, and a card you know to "
                 "be out of play may not be called.")
    if code is Refused.CALL_NOT_IN_PACK:
        return _("It is not in this pack of {n} cards.").format(n=obs.rules.pack_size)
    if code is Refused.CALL_A_CARD:
        return _("Call your partner: name a card you do not hold (for example "
                 "{example}).").format(
                     example=move_text(Action.call(Card.AH), lang, cards))
    if code is Refused.DEFEND:
        return _("You may defend alone, or pass.")
    return _play_reason(code, x, y, obs, lang, cards)


def _play_reason(code: Refused, x: int, y: int, obs: Observation, lang: str,
                 cards: CardWriter) -> str:
    _ = translation(lang).gettext
    playable = [a.card for a in obs.legal_actions if a.card is not None]
    may = listed([cards.card(c) for c in sort_hand(playable, obs.trump)], lang, "or")
    if code is Refused.PLAY_A_CARD:
        return _("It is time to play a card: you may play {cards}.").format(cards=may)
    if code is Refused.PLAY_NOT_HELD:
        return _("You do not hold it; you may play {cards}.").format(cards=may)
    trump, led, card = obs.trump, Suit(y), Card(x)
    assert trump is not None
    held = listed([cards.card(c) for c in sort_hand(playable, trump)], lang)
    rule = (_("You must follow trump ({suit}): you hold {cards}.") if led == trump
            else _("You must follow {suit}: you hold {cards}.")).format(
                suit=suit_name(led, lang), cards=held)
    return rule + _belonging_notes(card, led, trump, playable, lang, cards)


def _belonging_notes(card: Card, led: Suit, trump: Suit, playable: Sequence[Card],
                     lang: str, cards: CardWriter) -> str:
    """Where the bowers and the joker belong, when that is why (RULES §2)."""
    _ = translation(lang).gettext
    notes = []
    left = left_bower(trump)
    if card == left and left.suit == led:
        role = card_role(card, trump)
        assert role is not None
        notes.append(_("{card} is {role}: it counts as a {trump}, not a {led}.").format(
            card=cards.card(card), role=role_words(role, lang), trump=suit_one(trump, lang),
            led=suit_one(led, lang)))
    elif card == Card.JK:
        notes.append(_("{card} is the joker: it counts as a {trump}.").format(
            card=cards.card(card), trump=suit_one(trump, lang)))
    for c in playable:
        role = card_role(c, trump)
        if role in ("the left bower", "the joker") and led == trump:
            assert role is not None
            notes.append(_("{card}, {role}, counts as a {trump}.").format(
                card=cards.card(c), role=role_words(role, lang), trump=suit_one(trump, lang)))
    return "".join(" " + n for n in notes)
