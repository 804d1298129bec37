"""Games, rubbers and the draw (RULES §3, §10, §11)."""

from __future__ import annotations

import itertools
import random

import pytest

from euchre import Card, Deal, Rules
from euchre.deal import DealResult
from euchre.game import Game, Rubber, draw_for_partners, rubber_points


def _finish_randomly(game: Game, rng: random.Random) -> None:
    while not game.is_over:
        game.apply(rng.choice(game.deal.legal_action_ids()))


def _result(points: tuple[int, ...]) -> DealResult:
    n = len(points)
    return DealResult(None, 0, False, None, None, (0,) * n, points, True)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_dealer_passes_left_after_every_deal(players: int) -> None:
    """RULES §3 preamble: the dealer passes to the left after every deal, redeals included."""
    game = Game(Rules(players=players), seed=11)
    _finish_randomly(game, random.Random(3))
    dealers = [d.dealer for d in game.deals]
    assert dealers[0] == game.first_dealer
    for a, b in itertools.pairwise(dealers):
        assert b == (a + 1) % players


def test_thrown_in_deal_passes_the_deal_and_scores_nothing() -> None:
    """RULES §4: all pass twice without stick the dealer: thrown in, the next dealer deals."""
    game = Game(Rules(players=4), seed=5, dealer=2)
    for _ in range(8):
        game.apply("pass")
    finished = game.deals[-1]
    assert finished.result.thrown_in and finished.result.points == (0, 0, 0, 0)
    assert game.scores == (0, 0, 0, 0)
    assert game.deal.dealer == 3 and len(game.deals) == 1


def test_first_dealer_is_random_but_seeded() -> None:
    """RULES §3: the first dealer is chosen at random; a seed reproduces the game."""
    dealers = {Game(Rules(players=3), seed=s).first_dealer for s in range(30)}
    assert dealers == {0, 1, 2}
    a, b = Game(Rules(players=3), seed=9), Game(Rules(players=3), seed=9)
    assert a.deal.to_record() == b.deal.to_record()


def test_game_won_at_target_partners_share_score() -> None:
    """RULES §10: first to the target wins; four-handed partners score together (§9)."""
    game = Game(Rules(players=4, target=5), seed=1, dealer=0)
    game.add_points(_result((2, 0, 2, 0)))
    assert not game.is_over
    game.add_points(_result((4, 0, 4, 0)))
    assert game.is_over and game.winners == (0, 2)


def test_tied_players_at_the_top_share_the_win() -> None:
    """RULES §10 [decided]: several over the target: the highest wins, ties share."""
    game = Game(Rules(players=3), seed=1, dealer=0)
    game.add_points(_result((8, 8, 9)))
    game.add_points(_result((2, 2, 0)))
    assert game.scores == (10, 10, 9)
    assert game.winners == (0, 1)


def test_highest_score_wins_when_several_pass_the_target() -> None:
    """RULES §10 [decided]: the highest score wins when several reach the target together."""
    game = Game(Rules(players=5), seed=1, dealer=0)
    game.add_points(_result((9, 8, 0, 0, 0)))
    game.add_points(_result((1, 4, 0, 0, 0)))
    assert game.winners == (1,)


def test_at_the_bridge_four_against_two_or_less() -> None:
    """RULES §10: game to 5, a side with 4 while the other has 2 or fewer is at the bridge."""
    game = Game(Rules(players=4, target=5), seed=1, dealer=0)
    game.add_points(_result((0, 4, 0, 4)))
    assert game.at_the_bridge == 1
    game.add_points(_result((3, 0, 3, 0)))
    assert game.at_the_bridge is None
    ten = Game(Rules(players=4), seed=1, dealer=0)
    ten.add_points(_result((4, 0, 4, 0)))
    assert ten.at_the_bridge is None


def test_apply_after_game_over_is_refused() -> None:
    """RULES §10: once a side reaches the target the game is over."""
    game = Game(Rules(players=2, target=1, stick_the_dealer=True), seed=2)
    _finish_randomly(game, random.Random(1))
    with pytest.raises(ValueError, match="game is over"):
        game.apply("pass")


def test_deal_carries_the_score_into_observations() -> None:
    """Bots see the game score with the deal (RULES §12: the score is public)."""
    game = Game(Rules(players=2, stick_the_dealer=True), seed=4)
    rng = random.Random(2)
    while len(game.deals) < 2:
        game.apply(rng.choice(game.deal.legal_action_ids()))
    assert game.deal.observation(0).scores == game.scores


def test_draw_orders_king_high_ace_low() -> None:
    """RULES §11: for the draw K is high and A low; the two lowest partner, the lowest deals."""
    for seed in range(200):
        draw = draw_for_partners(random.Random(seed), Rules())
        order = "A789TJQK"
        keys = {}
        for p in range(4):
            keys[p] = [order.index(str(row[p])[0]) for row in draw.rounds if row[p] is not None]
        low = sorted(range(4), key=lambda p: keys[p])[:2]
        assert {draw.seats[0], draw.seats[2]} == set(low)
        assert draw.seats[0] == low[0] and draw.dealer == 0
        assert sorted(draw.seats) == [0, 1, 2, 3]


def test_equal_draws_draw_again() -> None:
    """RULES §11: players who draw equal cards draw again, until no tie remains."""
    redraws = 0
    for seed in range(300):
        draw = draw_for_partners(random.Random(seed), Rules())
        first = draw.rounds[0]
        ranks = [str(c)[0] for c in first if c is not None]
        tied = {p for p in range(4) if ranks.count(ranks[p]) > 1}
        if tied:
            redraws += 1
            assert len(draw.rounds) > 1
            assert {p for p in range(4) if draw.rounds[1][p] is not None} == tied
        else:
            assert len(draw.rounds) == 1
        cards = [c for row in draw.rounds for c in row if c is not None]
        assert len(cards) == len(set(cards)) and Card.JK not in cards
    assert redraws > 0


def test_game_with_the_draw_deals_first_from_the_lowest() -> None:
    """RULES §11: with the draw, the lowest card deals first."""
    game = Game(Rules(players=4, draw=True), seed=8)
    assert game.draw is not None and game.first_dealer == game.draw.dealer == 0


@pytest.mark.parametrize(("loser", "points"), [(-1, 3), (0, 3), (1, 2), (2, 2), (3, 1), (9, 1)])
def test_rubber_points_by_losers_score(loser: int, points: int) -> None:
    """RULES §11: 3 rubber points if the losers had 0 or less, 2 for 1 or 2, 1 for 3+."""
    assert rubber_points(loser) == points


def test_rubber_is_best_of_three_with_margin() -> None:
    """RULES §11: first side to two games; margin = 2 + winners' − losers' rubber points."""
    for seed in range(6):
        rubber = Rubber(Rules(players=4, target=5, rubber=True), seed=seed)
        rng = random.Random(seed)
        while not rubber.is_over:
            rubber.apply(rng.choice(rubber.game.deal.legal_action_ids()))
        won = rubber.games_won
        assert max(won) == 2 and 2 <= len(rubber.games) <= 3
        w = rubber.winner
        assert w is not None and won[w] == 2
        pts = [0, 0]
        for g in rubber.games:
            side = g.winners[0] % 2
            pts[side] += rubber_points(g.scores[1 - side])
        assert rubber.rubber_points == (pts[0], pts[1])
        assert rubber.margin == 2 + pts[w] - pts[1 - w]
        # the deal keeps passing left from one game to the next
        dealers = [d.dealer for g in rubber.games for d in g.deals]
        assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(dealers))


def test_rubber_only_four_handed() -> None:
    """RULES §11: rubbers are a four-handed extra."""
    with pytest.raises(ValueError, match="four-handed"):
        Rubber(Rules(players=3))


def test_game_deals_are_reproducible_deal_records() -> None:
    """A game's deals rebuild from their records to the same result."""
    game = Game(Rules(players=5), seed=21)
    _finish_randomly(game, random.Random(21))
    for deal in game.deals:
        again = Deal.from_record(deal.to_record())
        assert again.result == deal.result
