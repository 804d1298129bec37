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
from typing import Final, Protocol

from euchre.actions import Action, ActionKind
from euchre.cards import Card, Suit, effective_suit, left_bower, pack_mask, right_bower, sort_hand
from euchre.deal import Observation, Phase
from euchre.i18n import translation

__all__ = ["MOVE_WORDS", "NOTATION", "RANKS", "RANKS_TYPED", "ROLES", "SUIT_LETTERS",
           "SUIT_NAMES", "CardWriter", "card_role", "listed", "move_text", "move_word",
           "role_words", "suit_name", "suit_one", "why_illegal"]


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
    refused one.  The engine says what is legal (``legal_actions``); this only words it.
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


def _reason(obs: Observation, action: Action, lang: str, cards: CardWriter) -> str:
    words = translation(lang)
    _, ngettext = words.gettext, words.ngettext
    phase = obs.phase
    kind = action.kind
    legal = obs.legal_actions
    card = action.card
    if phase is Phase.PLAY:
        return _play_reason(obs, action, lang, cards)
    if phase is Phase.BID_TURNUP:
        suit = obs.turnup.suit if obs.turnup.suit is not None else obs.rules.joker_suit
        assert suit is not None
        if kind is ActionKind.ORDER and action.alone and not obs.rules.alone_allowed:
            return _(_NO_ALONE)
        dealer = obs.seat == obs.dealer
        if kind is ActionKind.TRUMP:
            return (_("In the first round of bidding you either pass or take it up ({suit} "
                      "trump); you may name another suit in the second round, if everyone "
                      "passes.") if dealer else
                    _("In the first round of bidding you either pass or order it up ({suit} "
                      "trump); you may name another suit in the second round, if everyone "
                      "passes.")).format(suit=suit_name(suit, lang))
        return (_("It is the first round of bidding: pass, or take it up ({suit} trump).")
                if dealer else
                _("It is the first round of bidding: pass, or order it up ({suit} trump).")
                ).format(suit=suit_name(suit, lang))
    if phase is Phase.BID_SUIT:
        down = obs.turnup.suit if obs.turnup.suit is not None else obs.rules.joker_suit
        if kind is ActionKind.TRUMP and action.suit is not None and action.suit == down:
            may_pass = any(a.kind is ActionKind.PASS for a in legal)
            return (_("{suit} was turned down: it cannot be trump this deal. Name another "
                      "suit, or pass.") if may_pass else
                    _("{suit} was turned down: it cannot be trump this deal. Stick the "
                      "dealer: name another suit.")).format(
                        suit=suit_name(down, lang).capitalize())
        if kind is ActionKind.PASS:
            return _("Stick the dealer: when everyone else has passed twice, the dealer "
                     "must name trump.")
        if action.alone and not obs.rules.alone_allowed:
            return _(_NO_ALONE)
        return _("It is the second round of bidding: name a suit (for example {example}) or "
                 "pass.").format(example=move_text(Action.trump(Suit.HEARTS), lang, cards))
    if phase is Phase.NAME_TRUMP:
        if action.alone and not obs.rules.alone_allowed:
            return _(_NO_ALONE)
        return _("The joker was turned up: you are the dealer and name trump "
                 "(for example {example}).").format(
                     example=move_text(Action.trump(Suit.HEARTS), lang, cards))
    if phase is Phase.EXCHANGE:
        turnup = cards.card(obs.turnup)
        if kind is ActionKind.DISCARD and card is not None:
            if card == obs.turnup and obs.rules.dealer_must_take_up:
                return _("In this game the dealer must keep the turn-up {card}: discard "
                         "another card.").format(card=turnup)
            if card not in obs.hand:
                return _("You do not hold it.")
        return _("You are the dealer and picked up {card}: discard one card (discarding "
                 "{card} keeps your hand as it was).").format(card=turnup)
    if phase is Phase.DUMMY:
        left = len(obs.hand) - 5
        if kind is ActionKind.DISCARD and card is not None and card not in obs.hand:
            return _("It is not in your hand or in the dummy.")
        return ngettext("You took up the dummy: discard {n} more card, one at a time.",
                        "You took up the dummy: discard {n} more cards, one at a time.",
                        left).format(n=left)
    if phase is Phase.CALL_PARTNER:
        if kind is ActionKind.CALL and card is not None:
            if card in obs.hand:
                return _("You hold it yourself: call a card you do not hold.")
            # a card the maker knows to be out of play would be a lone hand in secret
            if card in obs.discards:
                return _("You discarded it, and a card you know to be out of play may not "
                         "be called.")
            if card == obs.turnup and obs.turnup_taken is False:
                return _("It was turned down in the first round, and a card you know to "
                         "be out of play may not be called.")
            if not pack_mask(obs.rules.deck, obs.rules.joker) >> card & 1:
                return _("It is not in this pack of {n} cards.").format(
                    n=obs.rules.pack_size)
        return _("Call your partner: name a card you do not hold (for example "
                 "{example}).").format(
                     example=move_text(Action.call(Card.AH), lang, cards))
    if phase is Phase.DEFEND:
        if kind is ActionKind.DEFEND_ALONE and not any(
                a.kind is ActionKind.DEFEND_ALONE for a in legal):
            return _("You may not defend alone now.")
        return _("You may defend alone, or pass.")
    return _("It is not your turn.")


def _play_reason(obs: Observation, action: Action, lang: str, cards: CardWriter) -> str:
    _ = translation(lang).gettext
    playable = [a.card for a in obs.legal_actions if a.card is not None]
    may = listed([cards.card(c) for c in sort_hand(playable, obs.trump)], lang, "or")
    card = action.card
    if action.kind is not ActionKind.PLAY or card is None:
        return _("It is time to play a card: you may play {cards}.").format(cards=may)
    if card not in obs.hand:
        return _("You do not hold it; you may play {cards}.").format(cards=may)
    trump = obs.trump
    assert trump is not None and obs.trick
    led = effective_suit(obs.trick[0][1], trump)
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
