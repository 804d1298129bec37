"""Every test starts in English, whatever the machine's locale (see
``tests/english_environment.py``; mypy skips this file, which only imports it)."""

from english_environment import english_environment
from legal_count import computed

__all__ = ["computed", "english_environment"]

from hypothesis import settings

# Tests check behaviour, never time: no deadline on an example (a loaded machine, or the
# first call compiling a numba kernel, would otherwise fail a correct test).
settings.register_profile("euchre", deadline=None)
settings.load_profile("euchre")
