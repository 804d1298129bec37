"""What the lobby's form is made of: the variants with their default rules and the bots
(``/api/options``), and the rules' options (``/api/rules/options``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from euchre.bots import BOTS, LEVELS, levels_for
from euchre.rules import OPTIONS, Rules
from euchre.server.table import HINT_BOT

__all__ = ["router"]

router = APIRouter()

_OPTION_NOTES = {o.name: o.note for o in OPTIONS[1:]}
"""What each rules option means, in a line (``/api/options``' ``notes``): the table's."""


def _options() -> dict[str, Any]:
    variants = {}
    for n in range(2, 6):
        rules = Rules(players=n)
        variants[str(n)] = {"name": rules.variant, "defaults": rules.to_dict(),
                            "levels": levels_for(rules)}
    return {"variants": variants, "bots": list(BOTS), "levels": list(LEVELS),
            "hint": HINT_BOT in BOTS, "notes": _OPTION_NOTES}


@router.get("/api/options")
async def options() -> dict[str, Any]:
    """Variants with their defaults, the option notes, every bot an API client may seat
    (``bots``), and the levels the lobby offers (``levels``)."""
    return _options()


@router.get("/api/rules/options")
async def rule_options() -> dict[str, Any]:
    """The rules' options (:data:`euchre.rules.OPTIONS`): names, types, defaults by
    variant, bounds and words; the lobby's form is made from them."""
    return {"options": [o.to_json() for o in OPTIONS]}
