"""The bots' model files shipped in the package (``euchre/bots/models/``): how a file is
named after the rules it was made for, how those rules are keyed, and which files there
are.  The pre-play correction (:mod:`euchre.bots.learned`, ``prebid-*.npz``) and the net
(:mod:`euchre.bots.net`, ``net-*.npz``) share them.

>>> from euchre import Rules
>>> file_name("net-", Rules(players=4))
'net-4.npz'
>>> file_name("prebid-", Rules(players=4, stick_the_dealer=True))
'prebid-4-stick_the_dealer.npz'
>>> rules_key(Rules(players=2, target=5)) == rules_key(Rules(players=2))
True
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from euchre.rules import Rules

__all__ = ["file_name", "rules_key", "shipped"]


def rules_key(rules: Rules) -> str:
    """The rules a model is for, as canonical JSON; the target is left out, for no model
    depends on it (the net's observation holds no scores, the correction's features
    divide the scores by it), so one model serves every target."""
    d = rules.to_dict()
    d.pop("target", None)
    return json.dumps(d, sort_keys=True)


def file_name(prefix: str, rules: Rules) -> str:
    """A model file's name for the rules: ``prefix``, the number of players, and the
    options that differ from the variant's defaults (the target left out)."""
    base = Rules(players=rules.players).to_dict()
    parts = [f"{prefix}{rules.players}"]
    for key, value in rules.to_dict().items():
        if key != "target" and value != base[key]:
            parts.append(key if value is True else f"{key}={value}")
    return "-".join(parts) + ".npz"


def shipped(prefix: str) -> list[Path]:
    """The model files shipped in the package whose names start with ``prefix``, by name."""
    folder = resources.files("euchre.bots") / "models"
    if not folder.is_dir():
        return []
    return sorted(Path(str(p)) for p in folder.iterdir()
                  if p.name.startswith(prefix) and p.name.endswith(".npz"))
