"""The players' rules page: every variant and option is there, and what a player reads
points to it, not to files the player does not have."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from euchre.cli import app
from euchre.rules import Rules

ROOT = Path(__file__).resolve().parents[2]
RULES_PAGE = ROOT / "docs" / "rules.md"

OPTION_WORDS = {
    "players": "`--players 2`, `3`, `4` or `5`",
    "deck": "`--deck 24`, `28` or `32`",
    "joker": "`--joker`",
    "joker_turnup": "`--joker-turnup suit:S`",
    "stick_the_dealer": "`--stick-the-dealer`",
    "dealer_must_take_up": "`--dealer-must-take-up`",
    "defend_alone": "`--defend-alone`",
    "target": "`--to N`",
    "draw": "`--draw`",
    "rubber": "| rubbers | in the browser |",
}
"""How the options table of docs/rules.md names each field of ``Rules``."""


def test_every_rules_option_is_explained() -> None:
    text = RULES_PAGE.read_text(encoding="utf-8")
    fields = {f.name for f in dataclasses.fields(Rules)}
    assert fields == set(OPTION_WORDS)
    for words in OPTION_WORDS.values():
        assert words in text


@pytest.mark.parametrize("section", [
    "## 1. The pack", "## 2. Which card beats which", "## 3. The deal",
    "## 4. Choosing trump: the bidding", "### Going alone", "## 5. The dealer's exchange",
    "## 6. After the bidding", "### 6.3 Five players: calling a partner",
    "## 7. Defending alone", "## 8. Playing the tricks", "## 9. Scoring a deal",
    "## 10. Winning the game", "## 11. Four-handed extras",
    "## 12. What you see, and what you don't", "## Every option", "## Writing cards and moves",
])
def test_the_rules_page_has_its_sections(section: str) -> None:
    assert section in RULES_PAGE.read_text(encoding="utf-8").splitlines()


def test_every_variant_is_scored() -> None:
    rows = [line for line in RULES_PAGE.read_text(encoding="utf-8").splitlines()
            if line.startswith("| ") and "players" in line.split("|")[1]]
    for players in ("two", "three", "four", "five"):
        assert any(row.startswith(f"| {players} players") for row in rows), players


def test_the_rules_page_has_examples() -> None:
    assert RULES_PAGE.read_text(encoding="utf-8").count("*Example.*") >= 5


def test_what_players_read_points_to_the_rules_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/rules.md" in readme
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        assert "../shared" not in page.read_text(encoding="utf-8"), page.name
    assert not re.search(r"RULES\.md|RECORDS\.md", RULES_PAGE.read_text("utf-8"))


@pytest.mark.parametrize("command", ["play", "replay", "analyze", "tournament", "simulate",
                                     "solve", "serve"])
def test_the_help_of_a_command_cites_no_file_the_player_lacks(command: str) -> None:
    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert not re.search(r"RULES(\.md| §)|RECORDS\.md|\.\./shared", result.stdout)
