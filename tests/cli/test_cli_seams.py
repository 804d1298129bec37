"""Issue 30, item 9: the smaller seams of the terminal, each as a person meets it."""

from __future__ import annotations

import io
import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from euchre import Action, Deal, Rules
from euchre.cards import Suit
from euchre.cli import app
from euchre.cli.analyze import print_review
from euchre.cli.difficulty import choose_level
from euchre.cli.lang import use
from euchre.cli.narrate import Narrator
from euchre.cli.prompt import Prompter
from euchre.cli.results import result_words
from euchre.cli.seats import SeatNames
from euchre.deal import DealResult
from euchre.jobs.analysis import Decision, Review
from euchre.wording import why_illegal

runner = CliRunner()
HANDS = ["9C TC JC QC KC", "AD KD AH KH QH", "QD 9D 9S TS QS", "AC TD JD JS KS"]


def test_stick_the_dealer_naming_the_turned_down_suit_does_not_offer_to_pass() -> None:
    """Under stick the dealer the dealer may not pass: the refusal says so, not "or pass"."""
    deal = Deal.from_cards(Rules(players=4, stick_the_dealer=True), dealer=0, hands=HANDS,
                           turnup="TH")
    for _ in range(7):
        deal.apply("pass")
    assert deal.to_move == 0
    said = why_illegal(deal.observation(0), Action.parse("trump H"), "en")
    assert said == ("You cannot name hearts. Hearts was turned down: it cannot be trump this "
                    "deal. Stick the dealer: name another suit.")


def test_the_review_calls_a_move_as_good_as_the_experts_the_same() -> None:
    """Its legend says "same: the same, or as good": a different move at cost 0.00 is so."""
    record = {"rules": {"players": 2}, "seats": ["You", "North"], "deals": [], "winners": []}
    as_good = Decision(deal=0, index=0, phase="bid_turnup", played=Action.parse("pass"),
                       best=Action.parse("order"), cost=0.001, mistake=False, values={})
    worse = Decision(deal=0, index=2, phase="bid_turnup", played=Action.parse("pass"),
                     best=Action.parse("order"), cost=0.4, mistake=True, values={})
    out = io.StringIO()
    print_review(Console(file=out, width=200, color_system=None), Review(0, (as_good, worse)),
                 [record])
    rows = [line for line in out.getvalue().splitlines() if "bidding, round 1" in line]
    assert "same" in rows[0] and "order" not in rows[0]
    assert "order" in rows[1] and "same" not in rows[1]


def test_the_hint_names_a_trump_in_words() -> None:
    out = io.StringIO()
    narrator = Narrator(Console(file=out, width=200, color_system=None),
                        SeatNames.around(2, 0, person=True), 0)
    deal = Deal.from_cards(Rules(players=2), dealer=0,
                           hands=["9C TC JC QC KC", "AC 9D TD JD QD"], turnup="KD")
    deal.apply("pass")
    deal.apply("pass")
    obs = deal.observation(deal.to_move or 0)
    best = Action.parse("trump S")
    narrator.hint(obs, best, {best: 0.5, Action.parse("pass"): -0.25})
    said = out.getvalue()
    assert "Hint: the expert would name spades trump." in said
    assert "trump spades +0.50" in said


def test_a_danish_lone_defender_who_euchres_is_said_to_have_done_it() -> None:
    """"Bet mod dig" read as "against you": the euchre was by you."""
    use("da")
    names = SeatNames.around(4, 0, person=True)
    euchred = DealResult(Suit.HEARTS, 1, False, 0, None, (3, 2, 0, 0), (4, 0, 4, 0), True)
    said = result_words(euchred, names, next_dealer=1)
    assert said.startswith("Bet af dig som eneste forsvarer!"), said


def test_french_results_put_a_narrow_space_before_the_colon() -> None:
    use("fr")
    names = SeatNames.around(4, 0, person=True)
    made = DealResult(Suit.HEARTS, 0, False, None, None, (3, 0, 0, 2), (1, 0, 1, 0), True)
    said = result_words(made, names, next_dealer=1)
    assert "\u202f: " in said and " : " not in said.replace("\u202f: ", ""), said


def test_replaying_what_is_not_a_record_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text('{"foo": 1}\n')
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert f"{path}: " in result.output


def test_resuming_what_is_not_a_record_says_it_is_not_a_saved_game(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text('{"foo": 1}\n')
    result = runner.invoke(app, ["play", "--resume", str(path)])
    assert result.exit_code == 1
    assert f"{path}: not a saved game" in result.output
    assert "record of one deal" not in result.output


def test_a_choice_out_of_range_is_refused_in_a_sentence() -> None:
    result = runner.invoke(app, ["play", "--seed", "7", "--bots", "basic"],
                           input="9\nq\ny\n\n", env={"COLUMNS": "200"})
    assert "✗ There is no choice 9: choose 1 to 3, or type the move itself." in result.stdout


class _Answers(Prompter):
    def __init__(self, console: Console, *answers: str) -> None:
        super().__init__(console, interactive=True)
        self.answers = list(answers)

    def ask(self, prompt: str) -> str:
        self.console.print(prompt)
        return self.answers.pop(0)


def test_at_60_columns_the_level_menu_wraps_each_description_under_itself() -> None:
    use("de")
    out = io.StringIO()
    console = Console(file=out, width=60, color_system=None)
    assert choose_level(console, _Answers(console, "2"), "basic") == "basic"
    lines = out.getvalue().splitlines()
    menu = lines[1:lines.index(next(line for line in lines if line.startswith("Stufe")))]
    assert all(len(line.rstrip()) <= 60 for line in menu)
    # every line is a level ("  1  Anfänger  …") or a description's next line, indented
    # under the descriptions, never at the margin
    column = menu[0].index("Macht")
    assert all(re.match(r"  \d  \S", line) or line[:column].strip() == "" for line in menu)


def test_at_60_columns_the_hand_line_breaks_between_its_parts() -> None:
    result = runner.invoke(app, ["play", "--seed", "7", "--bots", "basic", "--lang", "de"],
                           input="1\n" * 40 + "q\ny\n\n", env={"COLUMNS": "60"})
    lines = result.stdout.splitlines()
    for k, line in enumerate(lines):
        if line.startswith("Dein Blatt:") and "Trumpf" not in line and k + 2 < len(lines) \
                and lines[k + 1].startswith("  Trumpf"):
            assert lines[k + 2].startswith("  Stiche: ")
            break
    else:
        raise AssertionError("no hand line broken at 60 columns:\n" + result.stdout)
    assert not any(line.startswith("0 · ") for line in lines)  # no tally cut in two


def test_make_play_ends_with_the_activate_hint_in_the_players_language(tmp_path: Path) -> None:
    """``make play`` runs ``.venv/bin/euchre`` with the environment not activated: euchre
    itself says how to type just ``euchre``, in the player's language."""
    bin_folder = tmp_path / "venv" / "bin"
    bin_folder.mkdir(parents=True)
    (bin_folder / "activate").write_text("# the virtual environment's activate\n")
    euchre = bin_folder / "euchre"
    euchre.write_text(f"#!{sys.executable}\nfrom euchre.cli import main\nmain()\n")
    euchre.chmod(euchre.stat().st_mode | stat.S_IXUSR)
    env = {"PATH": "/usr/bin:/bin", "COLUMNS": "200", "LANG": "C.UTF-8",
           "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
           "XDG_DATA_HOME": str(tmp_path / "data")}
    done = subprocess.run([str(euchre), "play", "--bots", "basic", "--seed", "7", "--lang",
                           "fr", "--save", str(tmp_path / "g.json")], input="q\ny\n",
                          capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr
    assert f"La commande euchre est dans {bin_folder}\u202f: lancez . {bin_folder}/activate" \
        in done.stdout
    assert json.loads((tmp_path / "g.json").read_text())["winners"] == []


def test_every_french_line_of_the_terminal_keeps_its_punctuation_off_the_line_start() -> None:
    """French typography: a narrow no-break space before ``: ; ! ?``, never a plain space,
    which lets a line break put the colon at the start of the next line (``?`` the key,
    as in "? explique", is no punctuation)."""
    from babel.messages.pofile import read_po

    from euchre.i18n import LOCALE_DIR

    with (LOCALE_DIR / "fr" / "LC_MESSAGES" / "euchre.po").open("rb") as f:
        catalog = read_po(f)
    bad = [text for message in catalog if message.id
           for text in ([message.string] if isinstance(message.string, str)
                        else list(message.string or ()))
           if re.search(r" [:;!]| \?(?=$|\[| ›|\))", text)]
    assert not bad, bad
