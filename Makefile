# Two commands on a fresh machine: `make run` (set up, start the app) and `make test`
# (set up, lint, run the whole suite). Both create .venv and install into it.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench system-deps clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/gridgames serve

system-deps:
	bash scripts/install-system-deps

lint: $(STAMP)
	$(BIN)/ruff check src tests bench

test: $(STAMP) system-deps lint
	$(BIN)/python -m pytest -n 2 -q

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) test-artifacts .pytest_cache .ruff_cache
