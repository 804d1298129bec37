"""RULES §6.3 at the web table: the page's call grid is built from the deal view's
``legal`` (static/table.js ``callGrid``), so a card the maker knows to be out of play is
never offered, and a call of it sent anyway is refused with the reason in the player's
language."""

from __future__ import annotations

from euchre import Action, Deal, Rules
from euchre.server.table import _explain
from euchre.server.views import deal_view

# Five-handed (28 cards), dealer 4, turn-up TH; the kitty is 8H 9H.
FIVE = ["AH KH QH 8C 9C", "JH JD 8S 9S TS", "AC KC QC JC TC", "AD KD QD TD 9D",
        "AS KS QS JS 8D"]


def test_the_call_grid_never_offers_the_makers_own_discard() -> None:
    deal = Deal.from_cards(Rules(players=5), 4, hands=FIVE, turnup="TH")
    for action in ("pass", "pass", "pass", "pass", "order", "discard 8D"):
        deal.apply(action)
    view = deal_view(deal, 4)
    assert view["phase"] == "call_partner"
    assert "call 8D" not in view["legal"] and "call 8H" in view["legal"]
    assert _explain(deal.observation(4), Action.parse("call 8D"), "fr") == (
        "Vous ne pouvez pas appeler 8D. Vous l’avez écartée, et vous ne pouvez pas appeler "
        "une carte que vous savez hors jeu.")


def test_the_call_grid_never_offers_the_turned_down_card() -> None:
    deal = Deal.from_cards(Rules(players=5), 4, hands=FIVE, turnup="TH")
    for action in ("pass",) * 5 + ("trump S",):
        deal.apply(action)
    view = deal_view(deal, 0)
    assert view["phase"] == "call_partner"
    assert "call TH" not in view["legal"] and "call 8H" in view["legal"]
