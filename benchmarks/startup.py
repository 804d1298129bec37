"""How long ``euchre play`` takes from the command to its first question, at a terminal.

The game runs on a pseudo-terminal (pexpect), as a person would see it, so that whatever
the terminal brings in (line editing with ``readline``) is counted.  Each run starts a
fresh interpreter, waits for the first prompt, answers ``q`` and ``y`` and an empty file
name, and is timed from the spawn to the prompt.

    .venv/bin/python benchmarks/startup.py --runs 20
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import pexpect


def first_prompt_seconds(args: list[str]) -> float:
    """Seconds from starting ``euchre play`` to its first prompt."""
    start = time.perf_counter()
    child = pexpect.spawn(
        sys.executable, ["-c", "from euchre.cli import main; main()", "play", *args],
        env={"TERM": "xterm", "PATH": "/usr/bin:/bin", "COLUMNS": "120", "LANG": "C.UTF-8"},
        encoding="utf-8", dimensions=(40, 120), timeout=60)
    child.expect(r"› $")
    elapsed = time.perf_counter() - start
    child.sendline("q")
    child.expect(r"N\]\S* $")
    child.sendline("y")
    child.expect(r"› $")  # the offer to save
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    return elapsed


def main() -> None:
    """Time the runs and print the median, the fastest and the slowest."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=4)
    options = parser.parse_args()
    args = ["--seed", str(options.seed), "--delay", "0", "--bots", "basic"]
    first_prompt_seconds(args)  # warm the disk cache and the bytecode
    times = [first_prompt_seconds(args) for _ in range(options.runs)]
    print(f"euchre play, start to first prompt over {options.runs} runs: "
          f"median {statistics.median(times):.3f} s, fastest {min(times):.3f} s, "
          f"slowest {max(times):.3f} s")


if __name__ == "__main__":
    main()
