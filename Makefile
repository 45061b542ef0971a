# remis — two commands on a fresh machine: `make demo` and `make test`.
SHELL  := bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# pip warns about this machine's unused local indexes; keep its output to what matters
PIP    := $(PY) -m pip
QUIET  := 2>&1 | { grep -v "^WARNING: Location .* is ignored" || true; }

# rustup puts cargo in ~/.cargo/bin, which a plain non-login shell (CI) does not have on PATH.
export PATH := $(HOME)/.cargo/bin:$(PATH)
CARGO  ?= cargo
RUST_SRC := rust/Cargo.toml rust/Cargo.lock $(shell find rust/src -name '*.rs' 2>/dev/null)

.PHONY: demo test venv venv-dev core lint lint-rust test-rust typecheck bench clean web i18n chromium pg-deps bench-service bench-hostile

$(VENV)/.base: pyproject.toml
	@command -v $(CARGO) >/dev/null || { echo "remis needs a Rust toolchain (https://rustup.rs): cargo not found"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip maturin $(QUIET)
	$(PIP) install -q -e . $(QUIET)
	touch $@ $(VENV)/.core

$(VENV)/.dev: pyproject.toml
	@command -v $(CARGO) >/dev/null || { echo "remis needs a Rust toolchain (https://rustup.rs): cargo not found"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip maturin $(QUIET)
	$(PIP) install -q -e '.[dev]' $(QUIET)
	touch $(VENV)/.base $(VENV)/.core $@

# The compiled core (remis._core), rebuilt in place only when the Rust sources change.
$(VENV)/.core: $(RUST_SRC) | $(VENV)/.base
	VIRTUAL_ENV=$(abspath $(VENV)) $(VENV)/bin/maturin develop --release --skip-install -q
	touch $@

venv: $(VENV)/.base $(VENV)/.core
venv-dev: $(VENV)/.dev $(VENV)/.core
core: $(VENV)/.core

demo: venv web i18n
	$(VENV)/bin/remis game examples/*.pgn

lint: venv-dev lint-rust
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/mypy src

lint-rust:
	cd rust && $(CARGO) fmt --check
	cd rust && $(CARGO) clippy -q --all-targets -- -D warnings

test-rust:
	cd rust && $(CARGO) test -q

test: venv-dev lint test-rust web i18n chromium pg-deps
	$(VENV)/bin/pytest

bench: venv-dev
	$(PY) benchmarks/replay.py

# The web page (src/remis/service/web): npm ci + esbuild bundle into web/dist (not committed;
# the wheel takes it in as a hatch artifact).  Needs Node >= 20 and npm.
WEB := src/remis/service/web
WEB_SRC := $(wildcard $(WEB)/src/*) $(WEB)/index.html $(WEB)/build.mjs $(WEB)/package.json

# Without npm the page is not built (remis serve says so at /; the CLI needs none of it).
NPM ?= npm

$(WEB)/node_modules/.package-lock.json: $(WEB)/package-lock.json
	cd $(WEB) && $(NPM) ci --no-audit --no-fund

$(WEB)/dist/index.html: $(WEB)/node_modules/.package-lock.json $(WEB_SRC)
	cd $(WEB) && $(NPM) run build

web:
	@if command -v $(NPM) >/dev/null 2>&1; then $(MAKE) --no-print-directory $(WEB)/dist/index.html; \
	else echo "web: $(NPM) not found: the web page is not built (it needs Node.js 20 and npm)"; fi

# Translations: compile the committed .po catalogues to .mo (the loader reads
# the .po itself when the .mo is missing or older).
i18n:
	@if [ -x $(VENV)/bin/pybabel ]; then \
		$(VENV)/bin/pybabel compile -d src/remis/i18n/locale -D remis 2>&1 | grep -v "^compiling" || true; \
	else echo "i18n: Babel not installed in $(VENV); the .po catalogues are read directly"; fi

# Debian's Chromium for the browser tests (tests/web skip, with the reason, without it).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ]; then \
			(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) \
			|| echo "chromium: install failed; the browser tests will be skipped"; \
		else echo "chromium: not installed and not root; the browser tests will be skipped"; fi; }

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

# The soak test of issue 50: 50 honest games while hostile clients attack (60 s).
bench-hostile: venv-dev
	$(PY) benchmarks/hostile.py

clean:
	rm -rf $(VENV) build dist rust/target src/remis/_core.*.so .pytest_cache .mypy_cache .ruff_cache $(WEB)/dist $(WEB)/node_modules
