# The two commands a newcomer needs: `make play` and `make test`.
# Both build .venv from scratch on first use and reuse it afterwards.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck pytest bench clean

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" && $(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "euchre needs Python 3.11 or newer: install it, or run make PYTHON=/path/to/python3.11"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/euchre play $(ARGS)

test: $(STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check euchre tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest README.md euchre tests

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	$(BIN)/python benchmarks/selfplay.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
