# Junction: `make run` serves the app, `make host` serves a table to the phones on this network,
# `make test` runs the whole suite.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
HOST   ?= 127.0.0.1
# The second test pass: real PostgreSQL and Redis on this machine (override to point elsewhere).
PG_URL    ?= postgres://postgres@127.0.0.1:5432/test
REDIS_TEST_URL ?= redis://127.0.0.1:6379/0

.PHONY: run host test test-default test-pure test-default-services test-services install install-run migrate lint lint-js bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# What the app runs on (make run, make host) ...
$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet "."
	touch $@

# ... and the test and lint tools with it (make test, lint, bench).
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet ".[dev]"
	touch $@ $(VENV)/.installed-run

install-run: $(VENV)/.installed-run
install: $(VENV)/.installed

migrate: install-run
	$(BIN)/python manage.py migrate --noinput

# The clock runner (games with a clock: manage.py run_clocks) runs beside Daphne and stops with it.
run: migrate
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	@echo "Junction on http://$(HOST):$(PORT)/  (Ctrl-C stops it)"
	@$(BIN)/python manage.py run_clocks --verbosity 0 & clocks=$$!; \
	trap 'kill $$clocks 2>/dev/null' EXIT INT TERM; \
	$(BIN)/daphne -b $(HOST) -p $(PORT) config.asgi:application

# A table on this local network: every interface, DEBUG off, compressed static files; prints the
# address phones open and its QR code (scripts/host.py; README "Hosting a table").
host: migrate
	JUNCTION_HOST=1 $(BIN)/python manage.py collectstatic --noinput --verbosity 0
	@JUNCTION_HOST=1 $(BIN)/python manage.py run_clocks --verbosity 0 & clocks=$$!; \
	trap 'kill $$clocks 2>/dev/null' EXIT INT TERM; \
	PORT=$(PORT) $(BIN)/python scripts/host.py

# The pure rules tests and the two passes' service tests run at once (the service tests mostly wait on their
# servers and browsers): their output is printed as each part ends. When PostgreSQL and Redis answer, both
# passes run and share the cases marked pass_only (JUNCTION_TEST_SPLIT, tests/conftest.py); else pass 1 runs them all.
test: install
	@$(MAKE) --no-print-directory lint-js
	@split=0; if $(BIN)/python scripts/services_up.py "$(PG_URL)" "$(REDIS_TEST_URL)" >/dev/null 2>&1; then split=1; fi; \
	echo "== the pure rules tests, the embedded default's and PostgreSQL + Redis's service tests, side by side (each printed when it ends)"; \
	JUNCTION_TEST_SPLIT=$$split $(MAKE) --no-print-directory -j3 --output-sync=target test-pure test-default-services test-services

# Pass 1: the embedded default (SQLite file + in-memory channel layer): the pure rules tests on every core
# (exit 5: a PYTEST_ARGS selection left none), then the rest (tests/conftest.py, JUNCTION_TEST_PART).
test-default: install
	@$(MAKE) --no-print-directory test-pure
	@$(MAKE) --no-print-directory test-default-services

test-pure: install
	@echo "== the pure rules tests (tests/games/engines/), on every core"
	env -u DATABASE_URL -u REDIS_URL JUNCTION_TEST_PART=pure $(BIN)/python -m pytest -n auto tests/games/engines $(PYTEST_ARGS); \
		rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 5 ]

test-default-services: install
	@echo "== tests on the embedded default: SQLite + in-memory channel layer"
	env -u DATABASE_URL -u REDIS_URL JUNCTION_TEST_PART=services $(BIN)/python -m pytest $(PYTEST_ARGS)

# Pass 2: PostgreSQL + Redis, when both answer: every test but the pure rules tests (which reach no database,
# channel layer or server) and the layout walk (what pages look like): they ran in pass 1.
test-services: install
	@if $(BIN)/python scripts/services_up.py "$(PG_URL)" "$(REDIS_TEST_URL)"; then \
		echo "== tests on PostgreSQL + Redis (the pure rules tests ran in pass 1)"; \
		JUNCTION_TEST_PART=services DATABASE_URL="$(PG_URL)" REDIS_URL="$(REDIS_TEST_URL)" $(BIN)/python -m pytest $(PYTEST_ARGS); \
	else \
		echo "== SKIPPED the PostgreSQL + Redis pass: not reachable (see above)"; \
		if [ -n "$$CI" ]; then echo "CI must run it: failing"; exit 1; fi; \
	fi

lint: install lint-js
	$(BIN)/ruff check .

# The page scripts (static/js/): ESLint (eslint.config.mjs), installed from package-lock.json into node_modules/
# by npm. Without Node.js it is skipped with a note (CI must run it: failing there).
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

lint-js:
	@if command -v npm >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory node_modules/.installed && echo "== ESLint on static/js" && node_modules/.bin/eslint static/js; \
	else \
		echo "== SKIPPED ESLint on static/js: Node.js (npm) is not installed"; \
		if [ -n "$$CI" ]; then echo "CI must run it: failing"; exit 1; fi; \
	fi

bench: install
	@for f in bench/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) node_modules staticfiles var .pytest_cache .hypothesis
