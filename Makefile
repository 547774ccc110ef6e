# Two commands on a fresh machine: `make demo` and `make test`.
# The interpreter the venv is made from: the distribution's own Python when it is 3.11 or
# newer and can make a venv (Debian builds it with profile-guided optimisation and LTO: the
# suite's pytest run took 614 s with it against 671-691 s with pyenv's plain build of the
# same version on this 2-core machine), else the first python3 on PATH.
PYTHON ?= $(shell for p in /usr/bin/python3 python3; do \
  "$$p" -c 'import sys, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
  && { echo "$$p"; break; }; done)
VENV ?= .venv
PY := $(VENV)/bin/python
RACEDAY := $(VENV)/bin/raceday
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

# Byte code is written even where the shell says not to (PYTHONDONTWRITEBYTECODE): without
# it every test process rewrites and compiles every module again (26 s of collection a
# process instead of 5) and every raceday subprocess starts 0.2 s slower.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: demo test check lint warm bench clean venv browser screenshots

venv: $(STAMP)

# raceday and what it needs to run: all the demo installs.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $(STAMP)

# The test and research tools (pytest, mypy, ruff, Playwright, OpenSpiel, ...): make test's.
$(DEV_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev,rl]'
	touch $(DEV_STAMP)

# The first race shows as soon as raceday is installed (it needs no compiled engine); the
# computer players compile beside it, at low priority on every core, and the demo ends
# once they are ready, so a computer's first move afterwards takes its thinking time.
demo: $(STAMP)
	@echo "the computer players compile beside this race (first install only; log: $(VENV)/warm-up.log)"
	@$(RACEDAY) warm-up --nice 10 --quiet > $(VENV)/warm-up.log 2>&1 & warming=$$!; \
	$(RACEDAY) keirin watch --seed 2012 --delay 0.15; shown=$$?; \
	if kill -0 $$warming 2>/dev/null; then \
	  echo "preparing the computer players (first install only)…"; fi; \
	wait $$warming || { cat $(VENV)/warm-up.log; exit 1; }; \
	$(RACEDAY) warm-up; exit $$shown

# Every engine, the benchmarks' optional one included (the tests use it): about a second
# once warm.
warm: $(STAMP)
	$(RACEDAY) warm-up --all --quiet

lint: $(DEV_STAMP)
	$(PY) -m ruff check src tests bench tools
	$(PY) -m mypy src
	$(VENV)/bin/lint-imports

# Browser tests drive Debian's Chromium (Playwright's own browser download is unreachable),
# through its headless shell: a fifth of the CPU per browser context (tests/conftest.py).
CHROMIUM ?= /usr/bin/chromium
HEADLESS_SHELL ?= /usr/lib/chromium/chromium-headless-shell
# Caddy fronts the scale-out test's two server processes (docs/usage/scale-out.md).
CADDY ?= /usr/bin/caddy
browser:
	@if [ ! -x $(CHROMIUM) ] || [ ! -x $(HEADLESS_SHELL) ] || [ ! -x $(CADDY) ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Chromium and its headless shell (browser tests) and Caddy (scale-out test)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      chromium chromium-headless-shell fonts-noto-cjk caddy >/dev/null; \
	  else \
	    echo "!!! $(CHROMIUM), $(HEADLESS_SHELL) or $(CADDY) is missing and this is not root: install the 'chromium', 'chromium-headless-shell' and 'caddy' packages"; \
	  fi; \
	fi

# The whole suite: what .ci/run calls.
# Three workers on two cores: part of the suite waits on subprocesses, servers and
# Chromium, and worksteal hands the long modules' tests to whichever worker is free
# (tests/conftest.py orders them so the workers finish together). Measured on this 2-core
# machine: three workers 622 s and 1,163 CPU-s, four 672 s and 1,316 CPU-s.
# On a fresh clone every test module's assertions are rewritten (pytest's cache in
# __pycache__) while mypy checks the sources on one core, not by each of the three workers
# at once when the suite starts (about 10 s of CPU each).
test: $(DEV_STAMP) browser
	@$(PY) -m pytest --collect-only -q -p no:xdist > /dev/null 2>&1 & collecting=$$!; \
	$(MAKE) --no-print-directory lint warm; made=$$?; wait $$collecting; exit $$made
	$(PY) -m pytest -n 3 --dist worksteal -q

# The edit-run loop (under 2 minutes): lint, types, and the tests not marked slow.
check: $(DEV_STAMP) lint warm
	$(PY) -m pytest -n 2 -q -m "not slow"

# Every phase of every game at 390x844, 1440x900 and 1920x1080 in English and Japanese into
# /tmp/raceday-shots (tools/scenes/); SHOTS="--docs" also refreshes docs/usage/img.
screenshots: $(DEV_STAMP) browser
	$(PY) tools/screenshots.py $(SHOTS)

bench: $(DEV_STAMP) warm
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
