"""A club night of progressive euchre: the seating of every round (:mod:`.schedule`,
with the whist tournaments of :mod:`.whist`) and the night's scoring and standings
(:mod:`.scoring`).  Part of the engine: pure functions over plain data, no I/O.

>>> night = make_schedule(13)
>>> len(night.rounds), len(night.rounds[0].tables), night.rounds[0].out
(13, 3, (1,))
"""

from euchre.night.schedule import (
    FORMATS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MIN_PLAYERS,
    Format,
    Round,
    Schedule,
    ScheduleError,
    Table,
    full_rounds,
    make_schedule,
    opposed_counts,
    partnered_counts,
    partners,
    teams,
    winners_first_round,
    winners_next_round,
)
from euchre.night.scoring import (
    SIT_OUT_POLICIES,
    Hand,
    NightScoring,
    RoundResult,
    SitOutPolicy,
    Standing,
    TableResult,
    hand_points,
    round_points,
    standings,
)

__all__ = [
    "FORMATS",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MIN_PLAYERS",
    "SIT_OUT_POLICIES",
    "Format",
    "Hand",
    "NightScoring",
    "Round",
    "RoundResult",
    "Schedule",
    "ScheduleError",
    "SitOutPolicy",
    "Standing",
    "Table",
    "TableResult",
    "full_rounds",
    "hand_points",
    "make_schedule",
    "opposed_counts",
    "partnered_counts",
    "partners",
    "round_points",
    "standings",
    "teams",
    "winners_first_round",
    "winners_next_round",
]
