"""The words of the game in a language given, for the terminal and the web alike
(:mod:`euchre.wording`): a refusal is worded in the language asked for, whatever another
caller asked for a moment before or at the same time, and nothing keeps a language."""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor

from euchre import Action, Deal, Rules
from euchre.deal import Observation
from euchre.wording import move_text, why_illegal

# Four-handed, hearts turned up and ordered by seat 1; seat 1 then leads AD.
HANDS = ["9C TC JC QC KC", "AD KD AH KH QH", "QD 9D 9S TS QS", "AC TD JD JS KS"]

FOLLOW = {  # RULES §8: seat 2 holds diamonds and must follow AD
    "en": "You cannot play 9S. You must follow diamonds: you hold QD and 9D.",
    "fr": "Vous ne pouvez pas jouer 9S. Vous devez fournir à carreau\u202f: vous avez QD et 9D.",
    "de": "Du kannst 9S nicht spielen. Du musst Karo bedienen: du hast QD und 9D.",
    "da": "Du kan ikke spille 9S. Du skal bekende ruder: du har QD og 9D.",
}


def _seat_two_after_ad() -> Observation:
    deal = Deal.from_cards(Rules(players=4), dealer=0, hands=HANDS, turnup="TH")
    for action in ("order", "discard 9C", "AD"):
        deal.apply(action)
    return deal.observation(2)


def test_a_refusal_is_worded_in_each_language_asked_for_in_turn() -> None:
    """French, Danish, French again: each call speaks its own language, none the last
    one's."""
    obs = _seat_two_after_ad()
    refused = Action.parse("9S")
    for lang in ("fr", "da", "fr", "en", "de", "da"):
        assert why_illegal(obs, refused, lang) == FOLLOW[lang]


def test_a_refusal_is_worded_in_two_languages_at_once() -> None:
    """Two players of one process, one French and one Danish, refused at the same time
    (as the server's threads and tasks may): each reads their own language."""
    obs = _seat_two_after_ad()
    refused = Action.parse("9S")
    langs = list(itertools.islice(itertools.cycle(("fr", "da")), 400))
    with ThreadPoolExecutor(max_workers=8) as pool:
        said = list(pool.map(lambda lang: why_illegal(obs, refused, lang), langs))
    assert all(text == FOLLOW[lang] for lang, text in zip(langs, said, strict=True))


def test_a_move_is_worded_as_each_languages_players_type_it() -> None:
    moves = [Action.parse(a) for a in ("pass", "trump H alone", "discard 9C")]
    assert {lang: [move_text(m, lang) for m in moves] for lang in ("en", "fr", "de", "da")} == {
        "en": ["pass", "trump H alone", "discard 9C"],
        "fr": ["passe", "atout cœur seul", "écarte 9C"],
        "de": ["passe", "Trumpf Herz allein", "drücke 9C"],
        "da": ["pas", "trumf hjerter alene", "smid 9C"],
    }
