"""Find the initial rounds of whist tournaments, once, for every count of players
N ≡ 0 or 1 (mod 4) from 4 to 32 and a few beyond (33, 36; 37, 53 and 61 built by
:func:`multiplier_round`), and print them as the module ``euchre/night/whist_data.py``.

N ≡ 1 (mod 4): the players are the elements of an abelian group G of order N (Z_N, or
Z_3 x Z_3 for nine, which has no cyclic whist tournament); the initial round seats
every element but 0, which sits out.  N ≡ 0 (mod 4): the players are G of order N - 1
(Z_{N-1}) and a fixed point ∞ (written N - 1), which partners 0 in the initial round.
The tournament is the initial round developed over G: round g adds g to every element,
∞ stays ∞ (see :mod:`euchre.night.whist`).

Developed, the initial round is a whist tournament when the differences of its partner
pairs cover every nonzero element of G once and those of its opponent pairs every
nonzero element twice (pairs with ∞ left out: ∞ partners and opposes everyone by the
development itself).  So the partnerships without ∞ form a *starter* of G (pairs that
cover every element but 0, whose differences ±d cover every nonzero element once): the
search draws random starters (depth first, in a random order) and, for each, looks
depth first for a way to seat its partnerships two by two at tables so that no
opponent difference occurs more than twice.  Seeded: the same run prints the same
module.

Run: ``python scripts/find_whist.py > euchre/night/whist_data.py`` (a few minutes).
"""

from __future__ import annotations

import itertools
import random

Pair = tuple[int, int]
Table = tuple[Pair, Pair]


def group_of(order: int) -> tuple[int, ...]:
    """The moduli of the group searched for ``order`` elements (the same as
    ``euchre.night.whist.group_moduli``)."""
    return (3, 3) if order == 9 else (order,)


def subtract_table(moduli: tuple[int, ...]) -> list[list[int]]:
    """``sub[x][y]`` = x - y in the group whose elements are mixed-radix numbers."""
    elements = list(itertools.product(*(range(q) for q in moduli)))

    def index(e: tuple[int, ...]) -> int:
        out = 0
        for digit, q in zip(e, moduli, strict=True):
            out = out * q + digit
        return out

    return [[index(tuple((a - b) % q for a, b, q in zip(x, y, moduli, strict=True)))
             for y in elements] for x in elements]


def search(players: int, seed: int, tries: int = 10_000) -> list[Table] | None:
    """One initial round for ``players``, or ``None`` when ``tries`` starters gave
    none."""
    rotational = players % 4 == 0
    m = players - 1 if rotational else players
    inf = m
    sub = subtract_table(group_of(m))
    rng = random.Random(seed)
    # the difference classes {d, -d} of the nonzero elements, by element
    cls = [min(d, sub[0][d]) for d in range(m)]

    def starter() -> list[Pair] | None:
        covered, used, pairs = {0}, set(), []

        def step() -> bool:
            free = [e for e in range(m) if e not in covered]
            if not free:
                return True
            u = free[0]
            partners = [v for v in free[1:] if cls[sub[v][u]] not in used]
            rng.shuffle(partners)
            for v in partners:
                d = cls[sub[v][u]]
                covered.update((u, v))
                used.add(d)
                pairs.append((u, v))
                if step():
                    return True
                covered.difference_update((u, v))
                used.discard(d)
                pairs.pop()
            return False

        return pairs if step() else None

    def seat(partnerships: list[Pair]) -> list[Table] | None:
        oppose = [0] * m
        tables: list[Table] = []
        nodes = 0

        def step(left: list[Pair]) -> bool:
            nonlocal nodes
            nodes += 1
            if not left:
                return True
            if nodes > 20_000:
                return False
            p = left[0]
            for q in left[1:]:
                marked = [d for x in p for y in q if inf not in (x, y)
                          for d in (sub[x][y], sub[y][x])]
                for d in marked:
                    oppose[d] += 1
                if all(oppose[d] <= 2 for d in marked):
                    tables.append((p, q))
                    if step([r for r in left if r not in (p, q)]):
                        return True
                    tables.pop()
                for d in marked:
                    oppose[d] -= 1
            return False

        return tables if step(partnerships) else None

    for _ in range(tries):
        pairs = starter()
        if pairs is None:
            continue
        found = seat([(inf, 0), *pairs] if rotational else pairs)
        if found is not None:
            return found
    return None


def multiplier_round(p: int) -> list[Table]:
    """The initial round for a prime ``p`` ≡ 5 (mod 8) players, at once: the orbit of
    one table under multiplication by the subgroup H of the fourth powers
    (odd order n = (p - 1) / 4, so -1 is not in H).  Its tables cover every nonzero
    element once when the table holds one element of each coset of H; its partner
    differences cover every nonzero element once when the two partner differences lie
    in cosets of different parity (their negatives fill the other two cosets); its
    opponent differences cover every nonzero element twice when two of the four lie in
    even cosets and two in odd ones."""
    g = next(g for g in range(2, p) if len({pow(g, k, p) for k in range(p - 1)}) == p - 1)
    log = {pow(g, k, p): k for k in range(p - 1)}
    powers = [pow(g, 4 * k, p) for k in range(p // 4)]

    def coset(x: int) -> int:
        return log[x % p] % 4

    for a, b, c, d in itertools.permutations(range(1, p), 4):
        if sorted(map(coset, (a, b, c, d))) != [0, 1, 2, 3]:
            continue
        if (coset(a - b) - coset(c - d)) % 2 == 0:
            continue
        if sum(coset(x) % 2 for x in (a - c, a - d, b - c, b - d)) != 2:
            continue
        return [((h * a % p, h * b % p), (h * c % p, h * d % p)) for h in powers]
    raise ValueError(f"no base table for {p}")


def module_text(found: dict[int, list[Table]]) -> str:
    """The module ``euchre/night/whist_data.py`` holding ``found``."""
    lines = ['"""The initial rounds of the whist tournaments the package ships, found once by',
             "``scripts/find_whist.py`` (which prints this module): players -> the tables of "
             "the",
             'initial round, each two partnerships, over the group of '
             ':mod:`euchre.night.whist`."""',
             "",
             "INITIAL_ROUNDS: dict[int, tuple[tuple[tuple[int, int], tuple[int, int]], ...]] "
             "= {"]
    for n, tables in sorted(found.items()):
        lines.append(f"    {n}: (")
        row = "       "
        for t in tables:
            item = f" {t!r},"
            if len(row) + len(item) > 96:
                lines.append(row)
                row = "       "
            row += item
        lines.append(row)
        lines.append("    ),")
    lines.append("}")
    return "\n".join(lines) + "\n"


SEARCHED: tuple[int, ...] = (*(n for n in range(4, 33) if n % 4 in (0, 1)), 33, 36)
"""The counts found by the search (seconds up to 32 players, a minute or two for 33 and
36; beyond, it found none within its tries)."""
MULTIPLIED: tuple[int, ...] = (37, 53, 61)
"""The primes ≡ 5 (mod 8) above 32 and up to 64, built at once by
:func:`multiplier_round`."""


def main() -> None:
    found = {}
    for n in SEARCHED:
        tables = search(n, seed=n)
        if tables is None:
            raise SystemExit(f"no whist tournament found for {n} players")
        found[n] = tables
    for n in MULTIPLIED:
        found[n] = multiplier_round(n)
    print(module_text(found), end="")


if __name__ == "__main__":
    main()
