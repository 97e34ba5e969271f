# Triverse: two commands do everything on a fresh machine.
#   make run   - a virtual environment, Triverse with its web server (the `server` extra),
#                then the server itself
#   make test  - the same environment with every extra and the test tools, then the whole suite
PYTHON ?= python3
VENV   ?= .venv
ARGS   ?=
# ARGS go to `triverse serve`: make run ARGS="--port 8001"
BIN     = $(VENV)/bin

.PHONY: run test lint typecheck unit bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[server]'
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[server,test]'
	touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(BIN)/triverse serve $(ARGS)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/lint-imports

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy

# The browser tests run on their own: Playwright's synchronous API keeps an event loop running
# in its process, where the server tests' asyncio.run() could no longer start one. The other
# tests' durations range from milliseconds to a minute: an idle worker takes queued tests from
# a busy one (worksteal; 494 s instead of 533-573 s on a 2-core machine).
unit: $(VENV)/.installed-test
	$(BIN)/pytest -n auto --dist worksteal --doctest-modules src/triverse tests --ignore=tests/web
	$(BIN)/pytest -n auto tests/web

test: lint typecheck unit

bench: $(VENV)/.installed-test
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
