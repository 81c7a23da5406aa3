# Quick start: `make play` starts the app, `make web` the web app, `make test` runs ruff, mypy and pytest.
# Both create .venv and install the package with its dependencies on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play web test lint typecheck pytest bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,cluster]'
	@echo "Compiling the engines' kernels (once; about a minute on a fresh machine)..."
	$(BIN)/abgames warmup
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/abgames

web: $(STAMP)
	$(BIN)/abgames web

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/pruning.py
	$(BIN)/python benchmarks/engine_speed.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
