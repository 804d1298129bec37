"""Plain ``pytest`` collects without the optional extras (issue 24): what needs one is
skipped, naming the extra to install (the root ``conftest.py``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

HIDE_THE_WEB = """
import sys
for name in ("fastapi", "uvicorn", "pydantic", "websockets", "markdown_it"):
    sys.modules[name] = None  # import fails as if the web extra were not installed
import pytest
# no paths: the project's test paths, as plain `pytest` collects them (a folder named on the
# command line would load its conftest.py before collection starts)
sys.exit(pytest.main(["--collect-only", "-q", "-rs", "-p", "no:cacheprovider",
                      "-p", "no:randomly"]))
"""


def test_without_the_web_extra_the_server_is_skipped_not_an_error() -> None:
    done = subprocess.run(
        [sys.executable, "-c", HIDE_THE_WEB], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "error" not in done.stdout.lower()
    assert "needs the 'web' extra" in done.stdout
    assert "pip install -e '.[web]'" in done.stdout
