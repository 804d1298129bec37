"""Why an action is refused, in one place: the rules core's reason code
(:func:`euchre.core.refusal`), which ``Deal``'s errors and the players' wording
(:func:`euchre.wording.why_illegal`) both word.

On random states of every variant and option (``tests/random_states.py``): the core gives
a reason exactly where ``Deal`` refuses, the reason a seat's observation yields is the
core's reason on the whole state, and every reason reads as a sentence to the player."""

from __future__ import annotations

from random_states import random_states

from euchre import core
from euchre.actions import NUM_ACTIONS, Action
from euchre.core import Refused
from euchre.deal import IllegalActionError
from euchre.wording import _mover_state, why_illegal

STATES = 400


def test_the_core_refuses_exactly_what_deal_refuses() -> None:
    """RULES §3-§8: for every action of every random state, a reason code where and only
    where ``Deal`` raises, and "not your turn" for every other seat (and nothing else)."""
    for deal, state in random_states(STATES, seed=31):
        mover = deal.to_move
        assert mover is not None
        for a in range(NUM_ACTIONS):
            code, _, _ = core.refusal(state, -1, a)
            assert (code == Refused.LEGAL) == deal.is_legal(a), (repr(deal), a, code)
            assert deal.refusal(a) == (Refused(code), *core.refusal(state, mover, a)[1:])
            for seat in range(deal.n):
                if seat != mover:
                    assert core.refusal(state, seat, a) == (Refused.NOT_YOUR_TURN, mover, 0)
                    try:
                        deal.check(a, seat=seat)
                    except IllegalActionError:
                        pass
                    else:
                        raise AssertionError(f"seat {seat} acted out of turn")


def test_a_seat_sees_the_reason_the_core_gives() -> None:
    """The wording asks the core about the state as the mover's observation shows it
    (RULES §12): the same reason, with the same arguments, as on the whole state."""
    for deal, state in random_states(STATES, seed=32):
        mover = deal.to_move
        assert mover is not None
        seen = _mover_state(deal.observation(mover))
        for a in range(NUM_ACTIONS):
            assert core.refusal(seen, mover, a) == core.refusal(state, mover, a), (
                repr(deal), Action.from_id(a))


def test_every_reason_is_worded_for_the_player_in_each_language() -> None:
    """Every refusal of every random state reads as two sentences in the player's
    language, with no seat number and no section of a file the player does not have."""
    cannot = {"en": "You cannot", "fr": "Vous ne pouvez pas", "de": "Du kannst",
              "da": "Du kan ikke"}
    for deal, _ in random_states(60, seed=33):
        mover = deal.to_move
        assert mover is not None
        obs = deal.observation(mover)
        for a in range(NUM_ACTIONS):
            if deal.is_legal(a):
                continue
            for lang, start in cannot.items():
                text = why_illegal(obs, Action.from_id(a), lang)
                assert text.startswith(start) and "§" not in text and "seat" not in text, text
