# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean venv browser screenshots

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,rl]'
	@echo "compiling the computer players and simulators (first install only, a few minutes)"
	$(VENV)/bin/raceday warm-up --quiet
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/raceday keirin watch --seed 2012 --delay 0.15

lint: $(STAMP)
	$(PY) -m ruff check src tests bench tools
	$(PY) -m mypy src
	$(VENV)/bin/lint-imports

# Browser tests drive Debian's Chromium (Playwright's own browser download is unreachable).
CHROMIUM ?= /usr/bin/chromium
# Caddy fronts the scale-out test's two server processes (docs/usage/scale-out.md).
CADDY ?= /usr/bin/caddy
browser:
	@if [ ! -x $(CHROMIUM) ] || [ ! -x $(CADDY) ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Chromium (browser tests) and Caddy (scale-out test)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      chromium fonts-noto-cjk caddy >/dev/null; \
	  else \
	    echo "!!! $(CHROMIUM) or $(CADDY) is missing and this is not root: install the 'chromium' and 'caddy' packages"; \
	  fi; \
	fi

test: $(STAMP) lint browser
	$(PY) -m pytest -n 2 -q

# Every phase of every game at 390x844 and 1920x1080 into docs/usage/img (tools/scenes/).
screenshots: $(STAMP) browser
	$(PY) tools/screenshots.py

bench: $(STAMP)
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
