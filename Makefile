# simlib: `make report` (the main job) and `make test` are all a fresh machine needs.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SIMLIB := $(VENV)/bin/simlib
LAKE ?= data/lake
# The default batch is each game's report_batch.toml; SCALE multiplies every run's plays
# (make report SCALE=0.1 for a quick look, SCALE=4 for tighter intervals).
SCALE ?= 1
# Bytecode is written beside the modules it is compiled from (the venv's and the tree's __pycache__, which git
# ignores), even where the environment says PYTHONDONTWRITEBYTECODE=1 (as this machine's does): else every Python
# process compiled each module it imports from source again, scipy's and pandas' included (5 of `simlib report`'s
# 11 s on a small lake; docs/compile.md)
export PYTHONDONTWRITEBYTECODE :=

.PHONY: install install-dev test test-fast lint report serve ladder simulate pipeline bench bench-ab bench-compile bench-pairing bench-workbench calibrate docs clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	@# --no-compile: Python compiles the modules a command imports as it imports them; compiling every installed
	@# module up front took 14 of the install's 35 s (docs/compile.md)
	$(PY) -m pip install --quiet --no-compile -e .
	touch $@

# What the tests add: pytest, ruff, and the Dask and S3 extras with the tests' own S3 server; and for the browser
# test (tests/analysis/test_browser.py) Selenium and Debian's chromium and chromium-driver, apt-installed when missing.
install-dev: $(VENV)/.installed-dev
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
		{ echo "installing chromium and chromium-driver for the browser test"; \
		  apt-get update -q && apt-get install -y -q chromium chromium-driver; }

$(VENV)/.installed-dev: $(VENV)/.installed
	$(PY) -m pip install --quiet --no-compile -e '.[dev]'
	touch $@

# Tests run on every core (pytest-xdist), a test file to a worker: a file's fixtures are built once. The kernels
# are compiled first, games side by side (a no-op when they are): else two workers compile the same game at once
test: install-dev
	$(SIMLIB) compile
	$(PY) -m pytest -q -n auto --dist loadfile

# The quick tier while editing (a few minutes; tests/conftest.py lists what it leaves out and why)
test-fast: install-dev
	$(SIMLIB) compile
	$(PY) -m pytest -q -m "not slow" -n auto --dist loadfile --durations=10

lint: install-dev
	$(VENV)/bin/ruff check simlib tests pipelines

# The designer's workbench in the browser, on this machine only: http://127.0.0.1:8765/ (PORT=... for another)
PORT ?= 8765
serve: install
	$(SIMLIB) serve --port $(PORT)

simulate: install
	$(SIMLIB) batch --scale $(SCALE) --lake $(LAKE)

pipeline: install
	$(SIMLIB) pipeline --lake $(LAKE)

report: install
	@echo "simlib: 1/3 simulating each game's report batch (the first run on a machine compiles the kernels first)"
	$(SIMLIB) batch --scale $(SCALE) --lake $(LAKE)
	@echo "simlib: 2/3 building the marts"
	$(SIMLIB) pipeline --lake $(LAKE)
	@echo "simlib: 3/3 writing the report"
	$(SIMLIB) report --lake $(LAKE)

# Each game's full skill ladder (its ladder_batch.toml: random, the heuristics, search at rising budgets) into the
# same lake, then the marts and the report: the report's ladder figures gain the rungs and plays (minutes to hours;
# SCALE=0.1 for a first look). Resumes like every run.
ladder: install
	@echo "simlib: 1/3 simulating each game's skill ladder (SCALE=$(SCALE))"
	$(SIMLIB) batch --ladder --scale $(SCALE) --lake $(LAKE)
	@echo "simlib: 2/3 building the marts"
	$(SIMLIB) pipeline --lake $(LAKE)
	@echo "simlib: 3/3 writing the report"
	$(SIMLIB) report --lake $(LAKE)

bench: install
	$(PY) -m simlib.bench

# This tree's kernels against revision REV's (default HEAD: the uncommitted changes), alternately in one run, one
# thread: plays/s of a scripted and a search line-up and rollout steps/s per game (make bench-ab REV=main)
REV ?= HEAD
bench-ab: install
	$(PY) -m simlib.bench_ab --against $(REV)

# Each game's first compile with an empty Numba cache (minutes; docs/compile.md)
bench-compile: install
	$(PY) -m simlib.bench_compile

# Every interval's coverage and every test's size on lakes whose truth is known by construction (docs/statistics.md;
# a few minutes; make test runs the short version)
calibrate: install
	$(PY) -m simlib.calibrate

# Seconds to the workbench's first verdict per game at random players, a fresh server each (issue 39: 10 s, and
# 30 s for Catan and Die Mauerspechte)
bench-workbench: install
	$(PY) -m simlib.bench_workbench

# How much each game's report sweeps gain from common random numbers (a few minutes)
bench-pairing: install
	$(PY) -m simlib.bench_pairing

docs: install
	$(SIMLIB) schema > docs/lake.md

clean:
	rm -rf $(VENV) data/lake data/marts data/.marts-* data/.marts.lock data/simlib.duckdb reports/*.html reports/figures
