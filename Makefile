# Parlour's two commands: `make run` (the main job) and `make test` (everything CI runs).
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test setup

$(STAMP): pyproject.toml setup.py $(wildcard src/parlour/tripeaks/solver/*.c src/parlour/thirteen/bots/*.c)
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/parlour serve

test: $(STAMP)
	bash scripts/system-deps.sh
	$(PY) -m pytest -n 2 -m "not alone" $(PYTEST_ARGS)
	$(PY) -m pytest -m alone $(PYTEST_ARGS)
