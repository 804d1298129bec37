"""The compiled rules core (euchre/core.py) against the reference engine (euchre/deal.py).

One rulebook, two forms: the state machine of RULES §3-§9 exists in ``Deal`` (readable)
and in the core (compiled, for machines); the small rules they share are written once
(``euchre.sides``, ``euchre.scoring``, the card tables of ``euchre.cards``) and the reason
for a refusal is the core's (``core.refusal``).  These tests hold the two together on
random play of every variant and option: the same legal actions at every step, the same
phases and seats to move, the same illegal actions refused, the same results.  The last
tests show the suite catches a drift: a copy of the core with the three-handed leader or
the partner call broken fails the comparison.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_properties import SETTINGS, deal_st

from euchre import core
from euchre.actions import NUM_ACTIONS, ORDER, PASS
from euchre.deal import Deal, Phase
from euchre.rules import Rules

PHASES = list(Phase)


def core_state(deal: Deal, module: ModuleType = core) -> core.Int64Array:
    """A core state holding the deal's cards as dealt, before any action."""
    state: core.Int64Array = module.new_state(deal.rules)
    hands = list(deal.dealt) + [0] * (5 - deal.n)
    module.start(state, deal.dealer, *hands, deal.dealt_dummy or 0, int(deal.turnup))
    return state


def play_both(deal: Deal, rng: random.Random, module: ModuleType = core,
              steer: Callable[[Deal], int | None] | None = None) -> None:
    """Play ``deal`` to its end at random on the engine and on the core, asserting at
    every step that they agree; an illegal action must be refused by both, unchanged.

    ``steer`` picks the action where it returns one (a legal one), to reach a case
    random play seldom reaches."""
    state = core_state(deal, module)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    while True:
        module.legal_mask(state, mask)
        legal = deal.legal_action_ids()
        assert np.flatnonzero(mask).tolist() == legal, deal.to_record()
        assert PHASES[state[module.PHASE]] is deal.phase, deal.to_record()
        if deal.is_over:
            break
        assert state[module.TURN] == deal.to_move
        wrong = rng.randrange(NUM_ACTIONS)
        if wrong not in legal:
            before = state.copy()
            assert not module.apply_action(state, wrong)
            assert (state == before).all()
        steered = steer(deal) if steer is not None else None
        action = rng.choice(legal) if steered is None else steered
        deal.apply(action)
        assert module.apply_action(state, action)
        if deal.phase is Phase.PLAY and not deal.current_trick:
            assert state[module.LEADER] == deal.leader
    result = deal.result
    points = np.zeros(5, dtype=np.int64)
    module.points(state, points)
    n = deal.n
    assert tuple(points[:n]) == result.points, deal.to_record()
    assert tuple(state[module.TRICKS:module.TRICKS + n]) == result.tricks
    assert module.makers_mask(state) == sum(1 << s for s in result.makers)
    assert bool(module.alone(state)) == result.alone
    assert (state[module.LONE] if state[module.LONE] >= 0 else None) == result.lone_defender


@SETTINGS
@given(deal_st())
def test_core_plays_every_rule_as_the_engine(drawn: tuple[Deal, random.Random]) -> None:
    """RULES §3-§9, every variant and option: the core and the engine agree at every step."""
    deal, rng = drawn
    play_both(deal, rng)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_core_agrees_on_many_deals_of_each_variant(players: int) -> None:
    """The bulk: 300 deals per variant with the options on and off (RULES §3-§9)."""
    rng = random.Random(players)
    options: list[dict[str, Any]] = [{}, {"joker": True}, {"stick_the_dealer": players != 5},
               {"dealer_must_take_up": True, "deck": 32}]
    if players in (3, 4):
        options.append({"defend_alone": players == 4})
    for i in range(300):
        rules = Rules(players=players, **options[i % len(options)])
        deal = Deal.random(rules, dealer=rng.randrange(players), seed=rng.randrange(2**32))
        play_both(deal, rng)


def _dealer_makes(deal: Deal) -> int | None:
    """Round 1: everyone passes to the dealer, who takes it up (then discards and calls
    at random)."""
    if deal.phase is Phase.BID_TURNUP:
        return ORDER if deal.to_move == deal.dealer else PASS
    return None


def _round_two(deal: Deal) -> int | None:
    """Round 1: everyone passes, the turn-up is turned down; round 2 at random."""
    return PASS if deal.phase is Phase.BID_TURNUP else None


@pytest.mark.parametrize("steer", [_dealer_makes, _round_two], ids=["dealer", "round2"])
def test_core_refuses_the_calls_the_engine_refuses(steer: Callable[[Deal], int | None]
                                                   ) -> None:
    """RULES §6.3, five-handed: the maker may not call a card it knows to be out of play
    (a dealer-maker's discard, a turn-up turned down in round 1), in the core as in the
    engine: 150 deals each where the dealer takes it up, or round 2 names trump, the
    call made at random among the legal ones, with and without the joker."""
    rng = random.Random(63)
    for i in range(150):
        rules = Rules(players=5, joker=i % 3 == 0, deck=32 if i % 2 else 28)
        deal = Deal.random(rules, dealer=rng.randrange(5), seed=rng.randrange(2**32))
        play_both(deal, rng, steer=steer)


@pytest.mark.parametrize(("rule", "broken"), [
    ("                own |= 1 << (a - DISCARD)", "                own |= 0"),
    ("st[TAKEN] == 1, st[TURNUP], own)", "True, st[TURNUP], own)"),
], ids=["own discard", "turned down"])
def test_a_core_that_lets_the_maker_call_a_known_card_fails_the_comparison(
        rule: str, broken: str) -> None:
    """Break RULES §6.3 in a copy of the core (it forgets the maker's own discard, or
    counts the turn-up as taken: the maker may call a card it knows to be out of play; the
    rule itself is one function, ``sides.callable_cards``): the comparison with the engine
    must fail on the deals that reach the call."""
    intact = _core_copy(rule, rule)
    copy = _core_copy(rule, broken)
    steer = _dealer_makes if "DISCARD" in rule else _round_two
    rng = random.Random(5)
    failures = 0
    for _ in range(20):
        deal = Deal.random(Rules(players=5), dealer=rng.randrange(5), seed=rng.randrange(2**32))
        play_both(deal.copy(), random.Random(1), intact, steer=steer)
        try:
            play_both(deal, random.Random(1), copy, steer=steer)
        except AssertionError:
            failures += 1
    assert failures > 0


def test_core_state_matches_the_phases_of_the_engine() -> None:
    """The core's phase numbers are the order of ``Phase``."""
    names = ["BID_TURNUP", "BID_SUIT", "NAME_TRUMP", "EXCHANGE", "DUMMY_MERGE",
             "CALL_PARTNER", "DEFEND", "PLAY", "OVER"]
    assert [getattr(core, n) for n in names] == list(range(len(PHASES)))
    assert PHASES[core.DUMMY_MERGE] is Phase.DUMMY


@given(st.integers(0, 2**32 - 1), st.integers(0, 10_000))
def test_random_numbers_are_the_same_compiled_and_plain(seed: int, stream: int) -> None:
    """The counter-based generator gives deal ``i`` the same cards compiled or not."""
    plain = core.random_u32.py_func  # the undecorated Python function
    for counter in range(3):
        assert core.random_u32(seed, stream, counter) == plain(seed, stream, counter)
        assert 0 <= core.random_u32(seed, stream, counter) < 2**32


def test_random_rollouts_deal_uniformly() -> None:
    """RULES §3: over many deals every card of the pack is the turn-up about equally
    often, and each seat deals about equally often."""
    state = core.new_state(Rules(players=3))
    turnups = np.zeros(33, dtype=np.int64)
    dealers = np.zeros(3, dtype=np.int64)
    for i in range(24_000):
        core.deal_random(state, 5, i, -1)
        turnups[state[core.TURNUP]] += 1
        dealers[state[core.DEALER]] += 1
        hands = [int(state[core.HANDS + s]) for s in range(3)] + [int(state[core.DUMMY])]
        assert [h.bit_count() for h in hands] == [5, 5, 5, 5]
        union = 0
        for h in hands:
            assert union & h == 0
            union |= h
        assert not union >> int(state[core.TURNUP]) & 1
    pack = [c for c in range(33) if Rules(players=3).deck == 24 and turnups[c]]
    assert len(pack) == 24
    assert turnups[pack].min() > 800 and turnups[pack].max() < 1200  # 1,000 expected
    assert dealers.min() > 7_500


# -- a drift is caught -----------------------------------------------------------------------------
def _core_copy(replace: str, by: str) -> ModuleType:
    """A plain-Python copy of euchre/core.py with one line of its rules changed."""
    source = Path(core.__file__).read_text()
    assert replace in source
    spec = importlib.util.spec_from_loader("broken_core", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__file__ = core.__file__  # the copy reads the core's own digest, unchanged
    sys.modules["broken_core"] = module
    config: Any = numba.config
    was = config.DISABLE_JIT
    config.DISABLE_JIT = True
    try:
        exec(compile(source.replace(replace, by), "broken_core.py", "exec"), module.__dict__)
    finally:
        config.DISABLE_JIT = was
        del sys.modules["broken_core"]
    return module


def test_a_broken_three_handed_leader_fails_the_comparison() -> None:
    """Break RULES §8's three-handed lead (the lone maker's left) in a copy of the core,
    which forgets the maker went alone when it asks ``sides.first_lead_after``: the
    comparison with the engine must fail, while the unbroken copy passes."""
    rule = "st[ALONE] == 1, st[LONE]))"
    intact = _core_copy(rule, rule)
    broken = _core_copy(rule, "False, st[LONE]))")
    rng = random.Random(3)
    rules = Rules(players=3)
    failures = 0
    for _ in range(200):
        deal = Deal.random(rules, dealer=rng.randrange(3), seed=rng.randrange(2**32))
        play_both(deal.copy(), random.Random(1), intact)
        try:
            play_both(deal, random.Random(1), broken)
        except AssertionError:
            failures += 1
    assert failures > 0


def test_the_core_runs_as_plain_python_with_the_same_results() -> None:
    """``NUMBA_DISABLE_JIT=1`` runs the core as plain Python (for debugging and coverage)
    and plays the very same deals: same seed, same records, same points."""
    script = (
        "import json; from euchre import Rules; from euchre.vector import VectorDeals\n"
        "out = []\n"
        "for p in (2, 3, 4, 5):\n"
        "    v = VectorDeals(Rules(players=p, joker=True, deck=32), n=3, seed=p)\n"
        "    while not v.done.all():\n"
        "        v.step(v.random_actions())\n"
        "    out.append([[v.record(i).to_json() for i in range(3)], v.points.tolist(),\n"
        "                v.observation_tensor(0).tolist()])\n"
        "print(json.dumps(out))\n")
    runs = []
    for jit_off in ("1", "0"):
        env = {**os.environ, "NUMBA_DISABLE_JIT": jit_off}
        done = subprocess.run([sys.executable, "-c", script], env=env, check=True,
                              capture_output=True, text=True)
        runs.append(json.loads(done.stdout))
    assert runs[0] == runs[1]


_CACHE_HITS = """
import sys
from pathlib import Path
from euchre import _numba
_numba.SHARED_SOURCES = (Path(sys.argv[1]),)
sys.path.insert(0, str(Path(sys.argv[1]).parent))
import kernels
assert kernels.add_one(41) == 42
print(sum(kernels.add_one.stats.cache_hits.values()))
"""


def test_a_cached_kernel_is_compiled_again_when_a_shared_source_changes(
        tmp_path: Path) -> None:
    """Numba keys a cached kernel on its own file only, so a kernel of another module
    would go on running the core's old rules (inlined into it).  The package's numba
    setup keys every kernel on the shared sources too: a change to one of them is a
    cache miss, and the same text a hit."""
    shared = tmp_path / "rules_stand_in.py"
    shared.write_text("RULE = 1\n")
    (tmp_path / "kernels.py").write_text(
        "from euchre import _numba\n\n\n@_numba.jit\ndef add_one(x):\n    return x + 1\n")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}

    def hits() -> int:
        done = subprocess.run([sys.executable, "-c", _CACHE_HITS, str(shared)], env=env,
                              check=True, capture_output=True, text=True)
        return int(done.stdout)

    assert hits() == 0  # compiled, and written beside kernels.py
    assert hits() == 1
    shared.write_text("RULE = 2\n")
    assert hits() == 0
    assert hits() == 1


def test_importing_the_compiled_modules_reads_and_writes_no_cache(tmp_path: Path) -> None:
    """No file I/O on import: numba's cache is found at a kernel's first compilation,
    not when its module is imported."""
    script = (
        "import os, sys\n"
        "import euchre.core, euchre.vector, euchre.worlds, euchre.bots.cismcts\n"
        "cache = sys.argv[1]\n"
        "print(os.path.exists(cache))\n"
        "euchre.core.is_over(euchre.core.new_state(euchre.Rules()))\n"
        "print(os.path.exists(cache) and len(os.listdir(cache)) > 0)\n")
    cache = str(tmp_path / "numba")
    done = subprocess.run([sys.executable, "-c", script, cache],
                          env={**os.environ, "NUMBA_CACHE_DIR": cache}, check=True,
                          capture_output=True, text=True)
    assert done.stdout.split() == ["False", "True"]
