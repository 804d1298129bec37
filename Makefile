# The two commands a newcomer needs: `make play` and `make test`.
# Both build .venv from scratch on first use and reuse it afterwards.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench

.PHONY: play serve test lint typecheck pytest bench clean postgresql

# The browser test drives Debian's chromium, never a downloaded browser: apt-get installs
# it when missing (as root, or through sudo); without apt-get that one test is skipped.
CHROMIUM := /usr/bin/chromium

# The server's tests also run on PostgreSQL, a throwaway cluster of Debian's `postgresql`
# package (its initdb found under /usr/lib/postgresql): apt-get installs it when missing,
# like chromium; without it those tests are skipped, saying why.

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" && $(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "euchre needs Python 3.11 or newer: install it, or run make PYTHON=/path/to/python3.11"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The tests also seat OpenSpiel's ISMCTS bot, from the optional `bench` extra, check the
# PettingZoo and Gymnasium environments with those libraries' own tests, and run the worked
# example (examples/maskable_ppo.py) at a tiny size with the `rl` extra (CPU PyTorch); the
# server's tests run on PostgreSQL too, with the `postgres` extra (psycopg).
$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench,pettingzoo,gymnasium,rl,postgres]'
	touch $(BENCH_STAMP)

play: $(STAMP)
	$(BIN)/euchre play $(ARGS)

serve: $(STAMP)
	$(BIN)/euchre serve $(ARGS)

$(CHROMIUM):
	@if command -v apt-get >/dev/null 2>&1; then \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium fonts-dejavu-core; \
	else \
	  echo "no apt-get here: the browser test will be skipped (it needs $(CHROMIUM))"; \
	fi

test: $(BENCH_STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check euchre tests benchmarks examples

typecheck: $(STAMP)
	$(BIN)/mypy

postgresql:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  true; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq postgresql; \
	else \
	  echo "no apt-get here: the server's tests on PostgreSQL will be skipped (they need Debian's postgresql)"; \
	fi

pytest: $(BENCH_STAMP) $(CHROMIUM) postgresql
	$(BIN)/pytest README.md euchre tests

bench: $(BENCH_STAMP)
	$(BIN)/python benchmarks/selfplay.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
