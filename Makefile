# Unitile: `make serve` plays the game, `make test` runs every check. Both set up what they need.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
SITE_OUT := build/site
SITE := $(SITE_OUT)/build.json
SITE_SOURCES := site/build.py site/compile_python.mjs site/run_exercise.mjs site/exercise.py $(shell find site/web unitile_py tables -type f -not -path '*/__pycache__/*' 2>/dev/null)

.PHONY: test lint tables serve site clean browser-check

# The venv holds the pinned packages and this project itself, installed editable: a `dask worker`
# started from .venv/bin runs pipeline tasks from any directory without PYTHONPATH.
$(STAMP): requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.lock
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

venv: $(STAMP)

# The Pyodide runtime comes from the npm package pinned in package-lock.json.
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

$(SITE): $(NODE_STAMP) $(SITE_SOURCES) site/serve.py
	$(PYTHON) site/build.py --out $(SITE_OUT)

# The static site in build/site: site/web, unitile_py, tables/5x5 and the Pyodide runtime.
site: $(SITE)

# Play at http://127.0.0.1:8000 (builds whatever is missing first).
serve: $(SITE)
	$(PYTHON) site/serve.py --dir $(SITE_OUT) --host 127.0.0.1 --port 8000

# tsc checks the site's JavaScript from its JSDoc (the wire's types: site/web/js/wire.js): the pages,
# the module worker and the service worker, each with its own globals (site/tsconfig*.json).
lint: $(STAMP) $(NODE_STAMP)
	$(PY) -m ruff check unitile_py pipeline tests bench site
	$(PY) -m mypy --strict unitile_py
	$(PY) -m mypy pipeline
	npx --no-install eslint --config site/eslint.config.mjs site
	npx --no-install tsc -p site/tsconfig.json
	npx --no-install tsc -p site/tsconfig.worker.json
	npx --no-install tsc -p site/tsconfig.sw.json

# Browser tests need Debian's chromium; without it they are skipped (never under CI=true).
browser-check:
	@if [ ! -x /usr/bin/chromium ]; then \
		if [ "$$CI" = "true" ]; then echo "CI=true but /usr/bin/chromium is missing: the browser tests cannot run"; exit 1; fi; \
		echo "NOTE: /usr/bin/chromium not found: SKIPPING the browser tests (apt-get install chromium to run them)"; \
	fi
	@if [ ! -x /usr/sbin/nginx ]; then \
		if [ "$$CI" = "true" ]; then echo "CI=true but /usr/sbin/nginx is missing: the hosting tests cannot run"; exit 1; fi; \
		echo "NOTE: /usr/sbin/nginx not found: SKIPPING the stock nginx hosting tests (apt-get install nginx to run them)"; \
	fi

test: $(STAMP) lint site browser-check
	$(PY) -m pytest

# Rebuild the committed lookup tables (tables/3x3, 3x5, 5x5) from the values, bit for bit; builds the
# values first where build/<board>.zarr lacks them (its time: docs/pipeline.md).
# `python -m pipeline report --board 5x5` prints each stage's time, CPU time, bound and peak memory.
tables: $(STAMP)
	for b in 3x3 3x5 5x5; do $(PY) -m pipeline build --board $$b --force tables || exit 1; done

clean:
	rm -rf build
