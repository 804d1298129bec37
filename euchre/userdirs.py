"""Where euchre keeps a user's data on this machine: one rule for every adapter.

The terminal saves unfinished games there and the web server keeps its database there by
default; like :mod:`euchre.i18n`, this module imports nothing of the package, only the
standard library, so that any layer may ask it.

>>> data_folder().name
'euchre'
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def data_folder() -> Path:
    """euchre's folder of the user's data directory: ``$XDG_DATA_HOME/euchre`` (else
    ``~/.local/share/euchre``) on Linux, ``%LOCALAPPDATA%\\euchre`` on Windows,
    ``~/Library/Application Support/euchre`` on macOS.  Nothing is created."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "euchre"
