# Parlour's two commands: `make run` (the main job) and `make test` (everything CI runs).
# Both install from the lock file (every package pinned with its hashes: decision 0043).
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
LOCK := requirements/dev.lock
UV_VERSION := 0.13.9

.PHONY: run test setup lock

$(STAMP): pyproject.toml setup.py $(LOCK) $(wildcard src/parlour/tripeaks/solver/*.c src/parlour/thirteen/bots/*.c src/parlour/native/*.h)
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes --only-binary :all: -r $(LOCK)
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/parlour serve

test: $(STAMP)
	bash scripts/system-deps.sh
	$(PY) -m pytest -n 2 -m "not alone" $(PYTEST_ARGS)
	$(PY) -m pytest -m alone $(PYTEST_ARGS)

# After changing a dependency in pyproject.toml: write both lock files again (needs PyPI).
lock: $(STAMP)
	$(PY) -m pip install --quiet uv==$(UV_VERSION)
	$(VENV)/bin/uv pip compile pyproject.toml requirements/build.in --generate-hashes --python-version 3.11 \
		--universal --custom-compile-command "make lock" -q -o requirements/main.lock
	$(VENV)/bin/uv pip compile pyproject.toml requirements/build.in --extra dev --generate-hashes \
		--python-version 3.11 --universal --custom-compile-command "make lock" -q -o $(LOCK)
