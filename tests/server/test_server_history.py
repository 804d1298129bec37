"""The history page's frames (:func:`euchre.server.history.replay_frames`): every trick
of a deal stays in view once complete, the last one included, and the five-handed partner
is marked from the moment the called card is played, never before."""

from __future__ import annotations

import itertools
from typing import Any

from euchre.game import Game
from euchre.records import game_record
from euchre.rules import Rules
from euchre.server.history import replay_frames

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]


def _replay(rules: Rules, seed: int) -> dict[str, Any]:
    game = Game(rules, seed=seed)
    while not game.is_over:
        game.apply(game.deal.legal_action_ids()[0])
    return replay_frames(game_record(game, NAMES[:rules.players]))


def _whole_tricks(deal: dict[str, Any], active: int) -> list[dict[str, Any]]:
    return [f for f in deal["frames"] if len(f["trick"]) == active]


def test_every_trick_of_every_deal_is_shown_whole_with_its_winner_the_last_included() -> None:
    out = _replay(Rules(players=4, target=5, stick_the_dealer=True), seed=11)
    for deal in out["deals"]:
        frames = deal["frames"]
        active = 4 - len(frames[-1]["sitting_out"])
        whole = _whole_tricks(deal, active)
        assert len(whole) == 5
        assert [f["trick_winner"] for f in whole] == [
            s for f, g in itertools.pairwise(frames)
            for s in range(4) if g["tricks_won"][s] > f["tricks_won"][s]]
        # the deal's last frame is its last trick, whole
        assert frames[-1] is whole[-1] and frames[-1]["trick_winner"] is not None
        # a trick in progress has no winner yet
        assert all(f["trick_winner"] is None for f in frames if 0 < len(f["trick"]) < active)


def _five_handed_deals() -> list[dict[str, Any]]:
    deals = []
    for seed in (0, 1, 2, 10):  # seed 10 has a deal whose called card is in the kitty
        deals += _replay(Rules(players=5, target=5), seed)["deals"]
    return [d for d in deals if any(f["called"] for f in d["frames"])]


def test_the_five_handed_partner_is_marked_once_the_called_card_is_played() -> None:
    marked = 0
    for deal in _five_handed_deals():
        frames = deal["frames"]
        called = next(f["called"] for f in frames if f["called"])
        played = [i for i, f in enumerate(frames)
                  if f["action"] and f["action"]["action"] == f"play {called}"]
        if not played:  # in the kitty: no partner, ever
            assert all(f["partner"] is None for f in frames)
            continue
        at = played[0]
        holder = frames[at]["action"]["seat"]
        assert all(f["partner"] is None for f in frames[:at])
        assert all(f["partner"] == holder for f in frames[at:])
        marked += 1
    assert marked >= 1


def test_a_called_card_left_in_the_kitty_marks_no_partner() -> None:
    kitty = [d for d in _five_handed_deals()
             if next(f["called"] for f in d["frames"] if f["called"]) in d["kitty"]]
    assert kitty
    for deal in kitty:
        assert all(f["partner"] is None for f in deal["frames"])
