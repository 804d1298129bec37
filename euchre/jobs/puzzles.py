"""The puzzle maker: the expert plays deals against itself, and the positions where one
decision matters, and the obvious choice misses it, are kept as puzzles.

A :class:`PuzzleMaker` plays deal ``d`` exactly as self-play does
(:class:`~euchre.jobs.selfplay.SelfPlay`: the same shuffle, dealer and seeded bots for a
seed, ``expert`` at every seat with a fixed number of worlds).  At every decision with two
or more legal actions (a position *examined*):

1. the ``basic`` bot's choice is the obvious one;
2. a free first screen: the expert playing the deal chooses its action anyway (at
   ``play_worlds`` worlds); where it chooses the obvious one, the position goes no further
   (most positions stop here: the expert and ``basic`` agree on most decisions);
3. a screen: the expert's opinion (:func:`~euchre.bots.opinion.expert_opinion`) at
   :data:`SCREEN_WORLDS` worlds; the position goes on only when its best action is not the
   obvious one and leads by :data:`SCREEN_MARGIN` or more;
4. the verdict: two opinions at ``worlds`` worlds each (:data:`VERDICT_WORLDS` by default,
   four times a hint's) sampled with two other seeds; the position is a puzzle when both
   choose the same action, it is not the obvious one, and over their mean values it beats
   every other action by :data:`~euchre.puzzles.MARGIN` (:func:`~euchre.puzzles.judge`).
   The puzzle's values are those means, its starting rating the bots' solving of it
   (:func:`~euchre.puzzles.rating.rated_by_bots`).  The second opinion is not asked when the first
   already chooses the obvious action, or leads by less than :data:`FIRST_OPINION_FLOOR`
   (the verdict could not pass: see there).

The screens only spare work: a position is a puzzle by the verdict alone.

Units are chunks of deals run by :func:`euchre.jobs.distributed.run_job` (this machine's
cores, or Ray); a unit depends on the seed and its number only.

>>> from euchre import Rules
>>> job = PuzzleMaker(Rules(players=2), deals=1, seed=1, worlds=64, play_worlds=8)
>>> summary = job.settle(0, job.run_unit(0))
>>> summary["examined"] > 0, summary["deals"]
(True, [0, 1])
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from euchre.actions import Action
from euchre.bots import choose, make_bot
from euchre.bots.opinion import OPINION_WORLDS, expert_opinion
from euchre.deal import Deal
from euchre.jobs.selfplay import SelfPlay
from euchre.puzzles import MARGIN, Puzzle, judge, make_puzzle, margin_of
from euchre.puzzles.rating import rated_by_bots
from euchre.rules import Rules

__all__ = ["CHUNK_SIZE", "FIRST_OPINION_FLOOR", "PLAY_WORLDS", "SCREEN_MARGIN", "SCREEN_WORLDS",
           "VERDICT_WORLDS", "PuzzleMaker", "collect", "examine", "header", "verdict"]

CHUNK_SIZE: Final = 5
"""Deals per unit of work."""
PLAY_WORLDS: Final = 32
"""Worlds the expert samples per decision while playing the deals (self-play's)."""
SCREEN_WORLDS: Final = 128
"""Worlds of the quick opinion that screens a position."""
SCREEN_MARGIN: Final = 0.15
"""The lead the screen's best action needs (half the puzzle's margin: the screen is
noisier) for the position to be judged at full strength."""
VERDICT_WORLDS: Final = 4 * OPINION_WORLDS
"""Worlds of each of the two opinions that judge a position: four times a hint's."""
FIRST_OPINION_FLOOR: Final = 0.2
"""The lead the verdict's first opinion needs for the second to be asked.  Below it the
mean of the two could reach :data:`~euchre.puzzles.MARGIN` only if the second saw the
best action ahead of the first's runner-up by 0.4 or more, 0.2 more than the first did:
about 3.5 standard deviations of the difference of two opinions of 1,024 worlds (each
opinion's margin moves by about 0.04 when its worlds are redrawn, docs/benchmarks.md
"Puzzles").  No shipped puzzle's first opinion led by less than 0.26 (docs/benchmarks.md
"The maker's speed")."""
_SALTS: Final = (1, 2)
"""The sampling salts of the verdict's two opinions (a hint's is 0)."""


def verdict(deal: Deal, worlds: int = VERDICT_WORLDS, salts: tuple[int, ...] = _SALTS,
            unless: Action | None = None, floor: float = -math.inf
            ) -> tuple[dict[Action, float], list[Action]]:
    """The mean values of every legal action of the seat to move over opinions with each
    salt, and each opinion's best action; the opinions stop at the first whose best action
    is ``unless`` (the obvious one) or leads every other by less than ``floor`` (the
    position cannot be a puzzle)."""
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    opinions = []
    for salt in salts:
        opinion = expert_opinion(obs, worlds, salt=salt)
        opinions.append(opinion)
        if opinion.best == unless or margin_of(opinion.values, opinion.best) < floor:
            break
    values = {a: sum(o.values[a] for o in opinions) / len(opinions)
              for a in opinions[0].values}
    return values, [o.best for o in opinions]


def examine(deal: Deal, obvious: Action, worlds: int = VERDICT_WORLDS,
            screen_worlds: int = SCREEN_WORLDS) -> Puzzle | None:
    """The puzzle of the position of ``deal`` (its seat to move), or ``None`` when it is
    not one (see the module); ``obvious`` is the ``basic`` bot's choice there."""
    seat = deal.to_move
    assert seat is not None
    screen = expert_opinion(deal.observation(seat), screen_worlds)
    if screen.best == obvious or margin_of(screen.values, screen.best) < SCREEN_MARGIN:
        return None
    values, bests = verdict(deal, worlds, unless=obvious, floor=FIRST_OPINION_FLOOR)
    answer = judge(values, obvious, MARGIN)
    if answer is None or len(bests) < len(_SALTS) or any(b != answer for b in bests):
        return None
    puzzle = make_puzzle(deal, seat, values, answer)
    return dataclasses.replace(puzzle, rating=rated_by_bots(puzzle))


@dataclass(frozen=True, slots=True)
class PuzzleMaker:
    """What to make: the rules, the deals to play, the seed, the verdict's worlds, the
    worlds of the expert playing, and the deals per unit."""

    rules: Rules
    deals: int
    seed: int = 0
    worlds: int = VERDICT_WORLDS
    play_worlds: int = PLAY_WORLDS
    chunk_size: int = CHUNK_SIZE

    def __post_init__(self) -> None:
        if self.deals < 1:
            raise ValueError(f"the maker plays 1 or more deals, not {self.deals}")
        if self.worlds < 1 or self.play_worlds < 1 or self.chunk_size < 1:
            raise ValueError("the worlds and the chunk size are 1 or more")

    @property
    def selfplay(self) -> SelfPlay:
        """The self-play job whose deals and bots these are."""
        return SelfPlay(self.rules, ("expert",) * self.rules.players, self.deals, self.seed,
                        worlds=self.play_worlds)

    def chunk_deals(self, chunk: int) -> range:
        """The deals of a unit."""
        start = chunk * self.chunk_size
        return range(start, min(start + self.chunk_size, self.deals))

    # -- the work, for euchre.jobs.distributed -----------------------------------------
    kind = "puzzles"

    def units(self) -> int:
        """Chunks of deals."""
        return -(-self.deals // self.chunk_size)

    def parameters(self) -> dict[str, Any]:
        """What the puzzles depend on (a checkpoint's identity)."""
        return {"rules": self.rules.to_dict(), "deals": self.deals, "seed": self.seed,
                "worlds": self.worlds, "play_worlds": self.play_worlds,
                "chunk_size": self.chunk_size}

    def run_unit(self, unit: int) -> dict[str, Any]:
        """Play a unit's deals; the puzzles found (as JSON), the positions examined and
        the seconds spent."""
        start = time.perf_counter()
        play = self.selfplay
        found: list[dict[str, Any]] = []
        examined = 0
        for d in self.chunk_deals(unit):
            deal = play.deal(d)
            bots = play.seat_bots(d)
            basic = make_bot("basic", random.Random(f"{self.seed}/basic/{d}"))
            while not deal.is_over:
                seat = deal.to_move
                assert seat is not None
                move = choose(bots[seat], deal)
                if len(deal.legal_action_ids()) > 1:
                    examined += 1
                    obvious = choose(basic, deal)
                    if move != obvious:
                        puzzle = examine(deal, Action.from_id(obvious), self.worlds)
                        if puzzle is not None:
                            found.append(puzzle.to_json())
                deal.apply(move)
        return {"puzzles": found, "examined": examined,
                "seconds": time.perf_counter() - start}

    def settle(self, unit: int, output: dict[str, Any]) -> dict[str, Any]:
        """The unit's summary: its deals, and the output."""
        deals = self.chunk_deals(unit)
        return {"deals": [deals.start, deals.stop], **output}

    def deals_of(self, summary: dict[str, Any]) -> int:
        """Deals in a unit."""
        return int(summary["deals"][1] - summary["deals"][0])


def collect(summaries: Sequence[dict[str, Any]]) -> list[Puzzle]:
    """The puzzles of the units' summaries, in unit order, each position once."""
    seen: set[str] = set()
    puzzles = []
    for summary in summaries:
        for data in summary["puzzles"]:
            puzzle = Puzzle.from_json(data)
            if puzzle.id not in seen:
                seen.add(puzzle.id)
                puzzles.append(puzzle)
    return puzzles


def header(job: PuzzleMaker, command: str, summaries: Sequence[dict[str, Any]]
           ) -> dict[str, Any]:
    """A puzzle file's header: the command and seed that made it, the parameters, the
    positions examined, how the puzzles are rated (``"bots"``: by the bots' solving,
    :func:`~euchre.puzzles.rating.rated_by_bots`) and the versions."""
    from euchre.jobs.distributed import versions

    return {"command": command, "seed": job.seed, "parameters": job.parameters(),
            "examined": sum(int(s["examined"]) for s in summaries), "rating": "bots",
            "versions": versions()}
