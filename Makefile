# Parlour's two commands: `make run` (the main job) and `make test` (everything CI runs).
# Both install from lock files (every package pinned with its hashes: decision 0043): `make run` only
# what running needs (the main lock), `make test` the development lock on top (the test tools).
VENV := .venv
PY := $(VENV)/bin/python
RUN_STAMP := $(VENV)/.installed-run
STAMP := $(VENV)/.installed
MAIN_LOCK := requirements/main.lock
LOCK := requirements/dev.lock
UV_VERSION := 0.13.9

.PHONY: run test setup lock

$(RUN_STAMP): pyproject.toml setup.py $(MAIN_LOCK) $(wildcard src/parlour/tripeaks/solver/*.c src/parlour/thirteen/bots/*.c src/parlour/native/*.h)
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes --only-binary :all: -r $(MAIN_LOCK)
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(RUN_STAMP)

$(STAMP): $(RUN_STAMP) $(LOCK)
	$(PY) -m pip install --quiet --require-hashes --only-binary :all: -r $(LOCK)
	touch $(STAMP)

setup: $(STAMP)

run: $(RUN_STAMP)
	$(VENV)/bin/parlour serve

test: $(STAMP)
	bash scripts/system-deps.sh
	$(PY) -m pytest -n 2 -m "not alone" $(PYTEST_ARGS)
	$(PY) -m pytest -m alone $(PYTEST_ARGS)

# After changing a dependency in pyproject.toml: write both lock files again (needs PyPI).
lock: $(STAMP)
	$(PY) -m pip install --quiet uv==$(UV_VERSION)
	$(VENV)/bin/uv pip compile pyproject.toml requirements/build.in --generate-hashes --python-version 3.11 \
		--universal --custom-compile-command "make lock" -q -o $(MAIN_LOCK)
	$(VENV)/bin/uv pip compile pyproject.toml requirements/build.in --extra dev --generate-hashes \
		--python-version 3.11 --universal --custom-compile-command "make lock" -q -o $(LOCK)
