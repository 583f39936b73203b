# Unitile: `make serve` plays the game, `make test` runs every check. Both set up what they need.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test lint tables serve site clean

$(STAMP): requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.lock
	touch $(STAMP)

venv: $(STAMP)

lint: $(STAMP)
	$(PY) -m ruff check unitile_py pipeline tests bench

test: $(STAMP) lint
	$(PY) -m pytest

tables: $(STAMP)
	$(PY) -m pipeline build --board 5x5

clean:
	rm -rf build
