"""A match: one game, or a rubber of games, played from one seed (RULES §10, §11).

:class:`euchre.game.Match` is what a table of the web server plays; these tests play it
to the end at the engine level and compare it with :class:`Game` and :class:`Rubber`
played from the same seed with the same choices, which it must agree with.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre import Rules
from euchre.deal import IllegalActionError
from euchre.game import Game, Match, Rubber


def _choose(rng: random.Random, legal: list[int]) -> int:
    return rng.choice(legal)


@settings(max_examples=25, deadline=None)
@given(players=st.sampled_from([2, 3, 4, 5]), seed=st.integers(0, 2**32),
       choices=st.integers(0, 2**32))
def test_a_match_of_one_game_is_the_game_to_its_target(players: int, seed: int,
                                                      choices: int) -> None:
    """RULES §10: without a rubber a match is one game, won at the target; it deals and
    scores exactly as :class:`Game` from the same seed with the same choices."""
    rules = Rules(players=players, target=5)
    match, game = Match(rules, seed), Game(rules, seed)
    ours, theirs = random.Random(choices), random.Random(choices)
    while not game.is_over:
        assert not match.is_over
        seat = match.game.deal.to_move
        match.apply(_choose(ours, match.game.deal.legal_action_ids()), seat)
        game.apply(_choose(theirs, game.deal.legal_action_ids()))
    assert match.is_over and match.rubber is None
    assert match.games == [match.game]
    assert match.game.scores == game.scores
    assert match.game.winners == game.winners
    assert [d.actions for d in match.game.deals] == [d.actions for d in game.deals]
    assert match.result() == {"games": [{"scores": list(game.scores),
                                         "winners": list(game.winners)}]}
    assert match.last_deal == (0, match.game.deals[-1])
    # every action is recorded once, in order, with the seat that took it
    recorded = [(e.seat, str(e.action)) for d in match.game.deals for e in d.events]
    assert match.actions == recorded
    assert match.seq == len(recorded)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), choices=st.integers(0, 2**32), draw=st.booleans())
def test_a_match_with_the_rubber_is_the_rubber(seed: int, choices: int, draw: bool) -> None:
    """RULES §11: four-handed with the rubber, a match plays games until a side has won
    two, and agrees with :class:`Rubber` from the same seed on every game, the games won,
    the rubber points, the winner and the margin."""
    rules = Rules(players=4, target=5, rubber=True, draw=draw)
    match, rubber = Match(rules, seed), Rubber(rules, seed)
    ours, theirs = random.Random(choices), random.Random(choices)
    while not rubber.is_over:
        assert not match.is_over
        match.apply(_choose(ours, match.game.deal.legal_action_ids()))
        rubber.apply(_choose(theirs, rubber.game.deal.legal_action_ids()))
    assert match.is_over and match.rubber is not None
    assert [g.scores for g in match.games] == [g.scores for g in rubber.games]
    assert len(match.games) in (2, 3)
    assert match.rubber.games_won == rubber.games_won
    assert match.result() == {
        "games": [{"scores": list(g.scores), "winners": list(g.winners)}
                  for g in rubber.games],
        "rubber": {"winner": rubber.winner, "margin": rubber.margin,
                   "points": list(rubber.rubber_points)},
    }
    # the last deal finished is the last deal of the last game
    assert match.last_deal == (len(match.games) - 1, match.games[-1].deals[-1])


def test_a_match_seats_the_players_by_the_draw() -> None:
    """RULES §11: with the draw, the players sit where the draw puts them: ``place_at``
    is the draw's seats and ``seat_of`` its inverse; without it, each at its own seat."""
    for seed in range(10):
        match = Match(Rules(players=4, draw=True), seed)
        draw = Game(Rules(players=4, draw=True), seed).draw
        assert draw is not None
        assert match.place_at == draw.seats
        assert all(match.place_at[match.seat_of[p]] == p for p in range(4))
    assert Match(Rules(players=3), 1).place_at == (0, 1, 2)


def test_a_match_replays_from_its_seed_and_its_actions() -> None:
    """What the server stores, the seed and the actions as text, rebuilds the match
    exactly, a rubber's games included (RULES §11)."""
    rules = Rules(players=4, target=5, rubber=True)
    match = Match(rules, 42, number=3)
    rng = random.Random(1)
    while not match.is_over:
        match.apply(rng.choice(match.game.deal.legal_action_ids()))
    again = Match(rules, match.seed, match.number)
    for seat, text in match.actions:
        again.apply(text, seat)
    assert again.number == 3
    assert again.result() == match.result()
    assert again.actions == match.actions


def test_a_match_refuses_an_action_out_of_turn_or_after_its_end() -> None:
    """RULES §4, §10: only the seat to move acts, and nobody once the match is won;
    a refused action changes nothing."""
    match = Match(Rules(players=2, target=1, stick_the_dealer=True), 5)
    deal = match.game.deal
    mover = deal.to_move
    assert mover is not None
    with pytest.raises(IllegalActionError, match="turn"):
        match.apply(deal.legal_action_ids()[0], 1 - mover)
    assert match.seq == 0 and deal.actions == []
    while not match.is_over:
        match.apply(match.game.deal.legal_action_ids()[0])
    seq = match.seq
    with pytest.raises(IllegalActionError, match="RULES §10"):
        match.apply("pass")
    assert match.seq == seq
