# The two commands: `make run` and `make test` (see README.md; the rest of the targets: docs/testing.md).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
export PORT
# 127.0.0.1: this computer only; HOST=0.0.0.0 make run listens on every interface, so phones
# on the hall's Wi-Fi reach it (it prints their addresses).
HOST ?= 127.0.0.1
export HOST

# The suite runs twice: on PostgreSQL + Redis (these local servers unless set) and on the
# embedded default of `make run` (SQLite + the filesystem broker, under var/test-embedded).
TEST_DATABASE_URL ?= $(or $(DATABASE_URL),postgres://postgres@127.0.0.1:5432/preference)
TEST_REDIS_URL ?= $(or $(REDIS_URL),redis://127.0.0.1:6379/0)
PYTEST := $(PY) -m pytest -n 2 --dist loadgroup

.PHONY: run test test-fast test-postgres test-embedded system-deps install install-dev lock lint format \
	bench bench-load migrate messages clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade --quiet pip

# What was tested is what installs: the versions of the lock files, each file checked against
# its hash (`make lock` writes them from pyproject.toml; docs/operations.md, «Installing what was tested»). requirements.txt:
# what the app runs on (the Docker image installs it too); requirements-dev.txt: that and the
# tools of the tests, at the same versions. The project itself is not installed: it runs from
# this folder.
$(VENV)/.installed: requirements.txt | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements-dev.txt | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r requirements-dev.txt
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

# The lock files again from pyproject.toml, for Python 3.11 on Linux: the versions already
# locked are kept unless pyproject.toml rules them out; LOCK_ARGS=--upgrade takes the newest
# of everything, LOCK_ARGS="--upgrade-package django" of one package.
UV_COMPILE = $(VENV)/bin/uv pip compile pyproject.toml --quiet --generate-hashes \
	--python-version 3.11 --python-platform linux --custom-compile-command "make lock"
lock: install-dev
	$(UV_COMPILE) --extra dev $(LOCK_ARGS) -o requirements-dev.txt
	$(UV_COMPILE) -c requirements-dev.txt -o requirements.txt

migrate: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py loaddata schemes
	$(PY) manage.py ensure_director

run: migrate
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py serve --host $(HOST) --port $(PORT)

system-deps:
	@sh scripts/system-deps.sh

# Both backends run even when the first fails, so one run shows every failure.
test: install-dev system-deps
	@pg=0; sq=0; \
	$(MAKE) --no-print-directory test-postgres || pg=$$?; \
	$(MAKE) --no-print-directory test-embedded || sq=$$?; \
	echo "== PostgreSQL + Redis: $$([ $$pg = 0 ] && echo passed || echo FAILED);" \
	  "SQLite + filesystem broker: $$([ $$sq = 0 ] && echo passed || echo FAILED)"; \
	[ $$pg = 0 ] && [ $$sq = 0 ]

# The pure cores and every test that needs no database, broker or browser (20 seconds; no
# service needed: the embedded cache under var/test-fast).
test-fast: install-dev
	rm -rf var/test-fast
	env -u DATABASE_URL -u REDIS_URL VAR_DIR=$(CURDIR)/var/test-fast $(PYTEST) -m "not django_db and not browser and not slow" $(PYTEST_ARGS)

# The pure tests (no database, browser, process or backend of their own: test-fast's) run
# once, in the embedded half; the browser files are shared out between the halves (markers
# `embedded` and `postgres`, tests/browser/conftest.py), but for those whose subject is what
# the backend serves: every other test runs on both backends.
test-postgres: install-dev system-deps
	@echo "== the suite on PostgreSQL + Redis"
	rm -rf var/test-postgres
	VAR_DIR=$(CURDIR)/var/test-postgres DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PYTEST) -m "not embedded and (django_db or browser or slow or backend)" $(PYTEST_ARGS)

test-embedded: install-dev system-deps
	@echo "== the suite on the embedded default: SQLite + the filesystem broker"
	rm -rf var/test-embedded
	env -u DATABASE_URL -u REDIS_URL VAR_DIR=$(CURDIR)/var/test-embedded $(PYTEST) -m "not postgres" $(PYTEST_ARGS)

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install-dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: install-dev
	@for f in bench/bench_*.py; do echo "== $$f"; DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PY) $$f || exit 1; done

# The event day under load (a few minutes; not part of `make bench`): 100 tables × 4, 400
# phones, the hall screen, two consoles and 100 saves against `make run`'s server.
# Its own Redis database; LOAD_ARGS passes options (e.g. LOAD_ARGS="--duration 30");
# LOAD_ARGS="--embedded --phases day --tables 20" runs a club evening against `make run`'s
# embedded default (SQLite, the filesystem broker) instead (docs/operations.md, «Durability»).
LOAD_REDIS_URL ?= redis://127.0.0.1:6379/6
bench-load: install-dev
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(LOAD_REDIS_URL) $(PY) bench/load_event_day.py $(LOAD_ARGS)

messages: install-dev
	$(PY) manage.py makemessages -l ru -l en --ignore '.venv/*' --ignore 'var/*'
	$(PY) manage.py makemessages -d djangojs -l ru -l en --ignore '.venv/*' --ignore 'var/*' --ignore 'static/vendor/*'
	$(PY) manage.py compilemessages --ignore '.venv/*'

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache
