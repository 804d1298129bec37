"""Merge puzzle files made in seed chunks (``euchre puzzle make --seed S ...`` each) into
one set, each position once, every puzzle rated by the bots' solving of it
(:func:`euchre.puzzles.rating.rated_by_bots`): a file whose header says ``"rating":
"bots"`` (the maker's, a merged set) keeps its ratings, a file made before the maker rated
that way is rated again, so that all are rated alike.  The header keeps the first file's
command and seed (as ``command`` and ``seed``) and every part's command, seed and
positions examined (as ``parts``), and the positions examined in all.

Run: ``python scripts/merge_puzzles.py --out euchre/puzzles/data/4.jsonl.gz FILE...``
(the output may be one of the inputs).
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import Any

from euchre.jobs.distributed import versions
from euchre.puzzles import Puzzle, read_puzzles, write_puzzles
from euchre.puzzles.rating import rated_by_bots


def parts_of(header: dict[str, Any]) -> list[dict[str, Any]]:
    """The parts a file's header names: its own command, or a merged file's parts."""
    if "parts" in header:
        return list(header["parts"])
    return [{"command": header["command"], "seed": header["seed"],
             "examined": header.get("examined", 0),
             "parameters": header.get("parameters", {})}]


def merge(paths: list[Path]) -> tuple[dict[str, Any], list[Puzzle]]:
    """The merged header and puzzles of the files, in the order given."""
    parts: list[dict[str, Any]] = []
    puzzles: dict[str, Puzzle] = {}
    for path in paths:
        header, found = read_puzzles(path.read_bytes())
        parts += parts_of(header)
        by_bots = header.get("rating") == "bots"
        for puzzle in found:
            if puzzle.id not in puzzles:
                puzzles[puzzle.id] = puzzle if by_bots else dataclasses.replace(
                    puzzle, rating=rated_by_bots(puzzle))
    rated = list(puzzles.values())
    header = {"command": parts[0]["command"], "seed": parts[0]["seed"], "parts": parts,
              "examined": sum(int(p["examined"]) for p in parts), "rating": "bots",
              "versions": versions()}
    return header, rated


def main() -> None:
    """Parse the arguments and merge."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("files", type=Path, nargs="+")
    args = parser.parse_args()
    header, puzzles = merge(args.files)
    players = {p.players for p in puzzles}
    if len(players) > 1:
        parser.error(f"the files hold puzzles of several variants: {sorted(players)}")
    count = write_puzzles(args.out, puzzles, header)
    print(f"{count} puzzles from {len(header['parts'])} parts "
          f"({header['examined']} positions examined): {args.out}")


if __name__ == "__main__":
    main()
