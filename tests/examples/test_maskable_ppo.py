"""The worked example (``examples/maskable_ppo.py``) at a tiny size: it trains and saves a
MaskablePPO policy, ``make_bot("policy:PATH")`` loads it, and the policy plays a short
tournament against ``random`` with legal actions only.  No claim on its strength."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from euchre import Rules
from euchre.bots import make_bot
from euchre.jobs.tournament import Tournament, run_tournament

for extra in ("sb3_contrib", "torch", "gymnasium", "pyspiel"):
    if importlib.util.find_spec(extra) is None:
        pytest.skip(f"the worked example needs the optional extra rl ({extra} is missing): "
                    "pip install -e '.[rl]'", allow_module_level=True)

from euchre.bots.policy import PolicyBot  # noqa: E402 - after the skip, like the extra

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "maskable_ppo.py"


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    """The example trained for 256 steps, four-handed against random; its path, figures."""
    out = tmp_path_factory.mktemp("Policy") / "Tiny PPO.zip"  # a path with capitals, a space
    figures = example().main(["--players", "4", "--opponents", "random", "--timesteps", "256",
                              "--eval-deals", "3", "--out", str(out), "--threads", "1"])
    return out, figures


def test_the_example_saves_a_policy_and_reports_its_figures(
        saved: tuple[Path, dict[str, object]]) -> None:
    out, figures = saved
    assert out.is_file()
    assert figures["timesteps"] == 256
    assert figures["eval_deals"] == 3
    assert isinstance(figures["policy_points_per_deal"], float)


def test_make_bot_loads_the_saved_policy(saved: tuple[Path, dict[str, object]]) -> None:
    bot = make_bot(f"policy:{saved[0]}", 1)
    assert isinstance(bot, PolicyBot)
    assert bot.size == 522


def test_the_policy_plays_a_tournament_against_random(
        saved: tuple[Path, dict[str, object]]) -> None:
    """Every action is checked legal by the tournament (an illegal one raises)."""
    t = Tournament(Rules(players=4), (f"policy:{saved[0]}", "random"), deals=3, seed=5)
    result = run_tournament(t)
    assert t.bots[0] == f"policy:{saved[0]}"  # the path kept its case
    assert result.deals_played >= 6


def test_a_policy_refuses_rules_whose_observation_it_cannot_read(
        saved: tuple[Path, dict[str, object]]) -> None:
    bot = make_bot(f"policy:{saved[0]}", 1)
    with pytest.raises(ValueError, match="observations of 522 numbers"):
        bot.check_rules(Rules(players=3))  # type: ignore[attr-defined]
