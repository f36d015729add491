# Two commands on a fresh machine: `make run` (set up, start the app) and `make test`
# (set up with the test tools, lint, run the whole suite). Both create .venv and install into
# it; `make run` installs only what the app needs. `make check` is the loop before a commit:
# lint and the tests marked neither slow nor browser, in under a minute.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
APP := $(VENV)/.installed-app
TOOLS := $(VENV)/.installed-test
# Two workers; loadgroup keeps each xdist_group's tests (a module's shared build) on one.
PYTEST := $(BIN)/python -m pytest -n 2 -q --dist loadgroup

.PHONY: run test check lint bench system-deps clean

# Compiled and assertion-rewritten modules are kept in __pycache__: without them every run
# (and each test worker) compiles the tests and pytest's plugins again, seconds each time.
unexport PYTHONDONTWRITEBYTECODE

$(APP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	$(BIN)/gridgames warm || true  # an optimisation: what fails compiles where first used
	touch $(APP)

$(TOOLS): $(APP)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(TOOLS)

run: $(APP)
	@echo "gridgames is installed in $(VENV): run $(BIN)/gridgames, or 'source $(BIN)/activate' to have it on your PATH"
	$(BIN)/gridgames serve

system-deps:
	bash scripts/install-system-deps

lint: $(TOOLS)
	$(BIN)/ruff check src tests bench examples

test: $(TOOLS) system-deps lint
	$(PYTEST)

check: $(TOOLS) lint
	$(PYTEST) -m "not slow and not browser"

bench: $(APP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) test-artifacts .pytest_cache .ruff_cache
