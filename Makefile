# The two commands a newcomer needs: `make play` and `make test`.
# Both build .venv from scratch on first use and reuse it afterwards.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PLAY_STAMP := $(VENV)/.installed-play
BENCH_STAMP := $(VENV)/.installed-bench
SERVE_STAMP := $(VENV)/.installed-serve

.PHONY: play serve test lint typecheck pytest bench clean postgresql

# The browser test drives Debian's chromium, never a downloaded browser: apt-get installs
# it when missing (as root, or through sudo); without apt-get that one test is skipped.
CHROMIUM := /usr/bin/chromium

# The server's tests also run on PostgreSQL, a throwaway cluster of Debian's `postgresql`
# package (its initdb found under /usr/lib/postgresql): apt-get installs it when missing,
# like chromium; without it those tests are skipped, saying why.

BABEL_STAMP := $(VENV)/.installed-babel

# The translations: euchre/locale/<lang>/LC_MESSAGES/<domain>.po, in the repository; the
# compiled .mo files beside them are built here (and by the package build, setup.py),
# never committed.
LANGS := fr de da
DOMAINS := euchre web
PO := $(foreach d,$(DOMAINS),$(foreach l,$(LANGS),euchre/locale/$(l)/LC_MESSAGES/$(d).po))
MO := $(PO:.po=.mo)

.PHONY: catalogs compile-catalogs

$(BABEL_STAMP):
	@test -n "$(PYTHON)" && $(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "euchre needs Python 3.11 or newer: install it, or run make PYTHON=/path/to/python3.11"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet 'babel>=2.12'
	touch $(BABEL_STAMP)

# the catalogs are compiled before the package is installed, and again when a .po changes;
# playing needs the package alone, serving its `web` extra (FastAPI, uvicorn), the tests
# the development tools and the web extra besides
$(PLAY_STAMP): pyproject.toml setup.py | $(BABEL_STAMP) $(MO)
	$(BIN)/python -m pip install --quiet -e .
	touch $(PLAY_STAMP)

$(SERVE_STAMP): pyproject.toml setup.py | $(BABEL_STAMP) $(MO)
	$(BIN)/python -m pip install --quiet -e '.[web]'
	touch $(SERVE_STAMP) $(PLAY_STAMP)

$(STAMP): pyproject.toml setup.py | $(BABEL_STAMP) $(MO)
	$(BIN)/python -m pip install --quiet -e '.[dev,web]'
	touch $(STAMP) $(PLAY_STAMP) $(SERVE_STAMP)

euchre/locale/%.mo: euchre/locale/%.po | $(BABEL_STAMP)
	$(BIN)/pybabel -q compile -D $(basename $(notdir $<)) -l $(firstword $(subst /, ,$*)) -i $< -o $@

compile-catalogs: $(MO)

# Extract every marked message into the domain's template (euchre/locale/<domain>.pot)
# and bring every language's catalog up to date with it: new messages arrive empty (the
# tests fail until they are translated), messages gone from the code are dropped.
catalogs: $(BABEL_STAMP)
	for d in $(DOMAINS); do \
	  $(BIN)/pybabel -q extract -F babel-$$d.cfg -o euchre/locale/$$d.pot --no-location \
	    --sort-output --add-comments=TRANSLATORS: --project=euchre \
	    --copyright-holder="the euchre authors" . || exit 1; \
	  for l in $(LANGS); do \
	    $(BIN)/pybabel -q update -D $$d -i euchre/locale/$$d.pot -d euchre/locale -l $$l \
	      --init-missing --ignore-obsolete --ignore-pot-creation-date || exit 1; \
	  done; \
	done

# The tests also seat OpenSpiel's ISMCTS bot, from the optional `bench` extra, check the
# PettingZoo and Gymnasium environments with those libraries' own tests, and run the worked
# example (examples/maskable_ppo.py) at a tiny size with the `rl` extra (CPU PyTorch); the
# server's tests run on PostgreSQL too, with the `postgres` extra (psycopg); tournaments and
# self-play run on a real Ray cluster of one and two nodes (`data`, `distributed`).
$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,web,bench,pettingzoo,gymnasium,rl,postgres,data,distributed]'
	touch $(BENCH_STAMP)

play: $(PLAY_STAMP) $(MO)
	$(BIN)/euchre play $(ARGS)

serve: $(SERVE_STAMP) $(MO)
	$(BIN)/euchre serve $(ARGS)

$(CHROMIUM):
	@if command -v apt-get >/dev/null 2>&1; then \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium fonts-dejavu-core; \
	else \
	  echo "no apt-get here: the browser test will be skipped (it needs $(CHROMIUM))"; \
	fi

# ruff and mypy run beside the tests: the type check takes a core for a minute or two
# while the tests mostly wait on servers, browsers and terminals
test: $(BENCH_STAMP)
	$(MAKE) --no-print-directory -j3 lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check euchre tests benchmarks examples

typecheck: $(STAMP)
	$(BIN)/mypy

# after chromium: two apt-get at once would fight over dpkg's lock (make test runs with -j)
postgresql: | $(CHROMIUM)
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  true; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq postgresql; \
	else \
	  echo "no apt-get here: the server's tests on PostgreSQL will be skipped (they need Debian's postgresql)"; \
	fi

# --durations: CI's log names the slowest tests (and their fixtures' setup), where time goes.
# -n auto: one worker a core (at most four), each given a whole test file at a time
# (--dist loadfile), so a file's shared chromium, Ray cluster or server stays in one
# process. Most tests wait on servers, browsers and terminals more than they compute:
# on two cores two workers finish the suite in far less time than one.
pytest: $(BENCH_STAMP) $(CHROMIUM) postgresql $(MO)
	$(BIN)/pytest README.md euchre tests -n auto --maxprocesses 4 --dist loadfile --durations=25

bench: $(BENCH_STAMP)
	$(BIN)/python benchmarks/selfplay.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
	rm -f $(MO)
