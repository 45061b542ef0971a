# remis — two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip

.PHONY: demo test venv venv-dev lint typecheck bench clean pg-deps bench-service

$(VENV)/.base: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e .
	touch $@

$(VENV)/.dev: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[dev]'
	touch $(VENV)/.base $@

venv: $(VENV)/.base
venv-dev: $(VENV)/.dev

demo: venv
	$(VENV)/bin/remis game examples/*.pgn

lint: venv-dev
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/mypy src

test: venv-dev lint pg-deps
	$(VENV)/bin/pytest

bench: venv-dev
	$(PY) benchmarks/replay.py

# PostgreSQL server for the service tests (Debian's package; as root only).
# Without it those tests are skipped and pytest prints the reason.
pg-deps:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    (apt-get install -y -q postgresql >/dev/null 2>&1 || \
	     (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q postgresql >/dev/null 2>&1)) \
	    || echo "remis: could not install postgresql; its service tests will be skipped"; \
	  else echo "remis: postgresql missing (apt-get install postgresql as root); its service tests will be skipped"; fi; }

bench-service: venv-dev
	$(PY) benchmarks/service.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
