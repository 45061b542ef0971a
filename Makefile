# remis — two commands on a fresh machine: `make demo` and `make test`.
SHELL  := bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# pip warns about this machine's unused local indexes; keep its output to what matters
PIP    := $(PY) -m pip
QUIET  := 2>&1 | { grep -v "^WARNING: Location .* is ignored" || true; }

.PHONY: demo test venv venv-dev lint typecheck bench clean

$(VENV)/.base: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip $(QUIET)
	$(PIP) install -q -e . $(QUIET)
	touch $@

$(VENV)/.dev: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip $(QUIET)
	$(PIP) install -q -e '.[dev]' $(QUIET)
	touch $(VENV)/.base $@

venv: $(VENV)/.base
venv-dev: $(VENV)/.dev

demo: venv
	$(VENV)/bin/remis game examples/*.pgn

lint: venv-dev
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/mypy src

test: venv-dev lint
	$(VENV)/bin/pytest

bench: venv-dev
	$(PY) benchmarks/replay.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
