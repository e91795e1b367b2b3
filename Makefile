# simlib: `make report` (the main job) and `make test` are all a fresh machine needs.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SIMLIB := $(VENV)/bin/simlib
LAKE ?= data/lake
# The default batch: the scale knob for `make report`.
PLAYS ?= 200000
PLAYERS ?= 4
SEED ?= 1

.PHONY: install test lint report simulate pipeline bench docs clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

test: install
	$(PY) -m pytest -q

lint: install
	$(VENV)/bin/ruff check simlib tests pipelines

simulate: install
	$(SIMLIB) simulate mauer --plays $(PLAYS) --players $(PLAYERS) --policies random --seed $(SEED) --lake $(LAKE)

report: simulate

bench: install
	$(PY) -m simlib.bench

docs: install
	$(SIMLIB) schema > docs/lake.md

clean:
	rm -rf $(VENV) data/lake data/marts
