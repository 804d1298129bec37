"""Every test starts in English, whatever the machine's locale (see
``tests/english_environment.py``; mypy skips this file, which only imports it)."""

from english_environment import english_environment

__all__ = ["english_environment"]
