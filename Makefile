# Quick start: `make play` starts the app, `make web` the web app, `make test` runs ruff,
# mypy and pytest. Each creates .venv and installs what it needs on first use: the app
# alone for play and web, the test tools, the cluster extra (Ray) and the rl extra
# (PettingZoo, Gymnasium, OpenSpiel) for test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
APP_STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: play web test lint typecheck pytest bench clean

$(APP_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	@echo "Compiling the engines' kernels (once; about a minute on a fresh machine)..."
	$(BIN)/abgames warmup
	touch $(APP_STAMP)

$(DEV_STAMP): $(APP_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,cluster,rl]'
	touch $(DEV_STAMP)

play: $(APP_STAMP)
	$(BIN)/abgames

web: $(APP_STAMP)
	$(BIN)/abgames web

test: lint typecheck pytest

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests benchmarks scripts examples
	$(BIN)/ruff format --check src tests benchmarks scripts examples

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

pytest: $(DEV_STAMP)
	$(BIN)/python -m pytest

bench: $(APP_STAMP)
	$(BIN)/python benchmarks/pruning.py
	$(BIN)/python benchmarks/engine_speed.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
