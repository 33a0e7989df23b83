# The two commands: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
export PORT

# Tests run on PostgreSQL and Redis; these are the local servers unless set.
TEST_DATABASE_URL ?= $(or $(DATABASE_URL),postgres://postgres@127.0.0.1:5432/preference)
TEST_REDIS_URL ?= $(or $(REDIS_URL),redis://127.0.0.1:6379/0)

.PHONY: run test install install-dev lint format bench migrate messages clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade --quiet pip

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

migrate: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py loaddata schemes
	$(PY) manage.py ensure_director

run: migrate
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py serve --port $(PORT)

test: install-dev
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) \
	  $(PY) -m pytest -n 2 --dist loadgroup $(PYTEST_ARGS)

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install-dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: install-dev
	@for f in bench/bench_*.py; do echo "== $$f"; DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PY) $$f || exit 1; done

messages: install-dev
	$(PY) manage.py makemessages -l ru -l en --ignore '.venv/*' --ignore 'var/*'
	$(PY) manage.py makemessages -d djangojs -l ru -l en --ignore '.venv/*' --ignore 'var/*' --ignore 'static/vendor/*'
	$(PY) manage.py compilemessages --ignore '.venv/*'

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache
