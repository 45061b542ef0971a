# remis — two commands on a fresh machine: `make demo` and `make test`.
SHELL  := bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# pip warns about this machine's unused local indexes; keep its output to what matters
PIP    := $(PY) -m pip
QUIET  := 2>&1 | { grep -v "^WARNING: Location .* is ignored" || true; }
# One line before each step of make demo and make test, so a long step is never silent.
STEP   := @printf '==> %s\n'

# rustup puts cargo in ~/.cargo/bin, which a plain non-login shell (CI) does not have on PATH.
export PATH := $(HOME)/.cargo/bin:$(PATH)
CARGO  ?= cargo
RUST_SRC := rust/Cargo.toml rust/Cargo.lock $(shell find rust/src -name '*.rs' 2>/dev/null)

.PHONY: demo test venv venv-dev core lint lint-rust test-rust typecheck bench clean web i18n chromium pg-deps bench-service bench-hostile \
	docs dist wheel-test screenshots bench-web

$(VENV)/.base: pyproject.toml
	@command -v $(CARGO) >/dev/null || { echo "remis needs a Rust toolchain (https://rustup.rs): cargo not found"; exit 1; }
	$(STEP) "$(VENV): a virtualenv with pip and maturin"
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip maturin $(QUIET)
	$(STEP) "$(VENV): remis[all] and its dependencies, compiling the core (several minutes the first time)"
	$(PIP) install -q -e '.[all]' $(QUIET)
	touch $@ $(VENV)/.core

$(VENV)/.dev: pyproject.toml
	@command -v $(CARGO) >/dev/null || { echo "remis needs a Rust toolchain (https://rustup.rs): cargo not found"; exit 1; }
	$(STEP) "$(VENV): a virtualenv with pip and maturin"
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip maturin $(QUIET)
	$(STEP) "$(VENV): remis[dev] and its dependencies, compiling the core (several minutes the first time)"
	$(PIP) install -q -e '.[dev]' $(QUIET)
	touch $(VENV)/.base $(VENV)/.core $@

# The compiled core (remis._core), rebuilt in place only when the Rust sources change.
$(VENV)/.core: $(RUST_SRC) | $(VENV)/.base
	$(STEP) "core: compiling remis._core (cargo, release)"
	VIRTUAL_ENV=$(abspath $(VENV)) $(VENV)/bin/maturin develop --release --skip-install -q
	touch $@

venv: $(VENV)/.base $(VENV)/.core
venv-dev: $(VENV)/.dev $(VENV)/.core
core: $(VENV)/.core

demo: venv web i18n
	$(STEP) "remis game examples/*.pgn: the bundled real games"
	$(VENV)/bin/remis game examples/*.pgn
	@echo
	@echo "Next, from this folder (or after 'source $(VENV)/bin/activate', without the $(VENV)/bin/):"
	@echo "  $(VENV)/bin/remis serve      # then open http://127.0.0.1:8000/ (Ctrl-C stops it)"
	@echo "  $(VENV)/bin/remis audit examples/ --out findings.jsonl --report report.html"
	@echo "  $(VENV)/bin/remis position '8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1'"

lint: venv-dev lint-rust
	$(STEP) "lint: ruff and mypy --strict"
	$(VENV)/bin/ruff check src tests benchmarks docs/_build
	$(VENV)/bin/mypy src

lint-rust:
	$(STEP) "lint: cargo fmt --check and clippy -D warnings"
	cd rust && $(CARGO) fmt --check
	cd rust && $(CARGO) clippy -q --all-targets -- -D warnings

test-rust:
	$(STEP) "test-rust: cargo test"
	cd rust && $(CARGO) test -q

test: venv-dev lint test-rust web i18n chromium pg-deps docs wheel-test
	$(STEP) "pytest: the whole suite"
	$(VENV)/bin/pytest

# Every benchmark in turn; their output becomes docs/benchmarks.md (CHA=/path/to/cha
# puts the unwinnability questions to CHA too, built outside this tree).
bench: venv-dev
	$(PY) benchmarks/page.py $(if $(CHA),--cha $(CHA))

# The web page (src/remis/service/web): npm ci + esbuild bundle into web/dist (not committed;
# the wheel takes it in through [tool.maturin] include).  Needs Node >= 20 and npm.
WEB := src/remis/service/web
WEB_SRC := $(wildcard $(WEB)/src/*) $(WEB)/index.html $(WEB)/build.mjs $(WEB)/package.json

# Without npm the page is not built (remis serve says so at /; the CLI needs none of it).
NPM ?= npm

# npm's own notices (funding, audit, install-script warnings) stay out; its errors do not.
$(WEB)/node_modules/.package-lock.json: $(WEB)/package-lock.json
	$(STEP) "web: npm ci (the page's locked packages)"
	cd $(WEB) && $(NPM) ci --no-audit --no-fund --loglevel=error

$(WEB)/dist/index.html: $(WEB)/node_modules/.package-lock.json $(WEB_SRC)
	$(STEP) "web: bundling the page with esbuild"
	cd $(WEB) && $(NPM) run --silent build

web:
	@if command -v $(NPM) >/dev/null 2>&1; then $(MAKE) --no-print-directory $(WEB)/dist/index.html; \
	else echo "web: $(NPM) not found: the web page is not built (it needs Node.js 20 and npm)"; fi

# PNGs of the page's main screens at 1280x900 and 390x844, into screenshots/ (not committed)
screenshots: venv-dev web i18n chromium
	REMIS_SCREENSHOTS=$(abspath screenshots) $(VENV)/bin/pytest -q -p no:cacheprovider tests/web/test_screens.py
	@ls screenshots/*.png | wc -l | xargs -I{} echo "screenshots: {} PNGs in screenshots/"

# The page's load time on loopback and its compressed size
bench-web: venv-dev web i18n chromium
	$(PY) benchmarks/web_load.py

# Translations: compile the committed .po catalogues to .mo (the loader reads
# the .po itself when the .mo is missing or older).
i18n:
	$(STEP) "i18n: compiling the translation catalogues"
	@if [ -x $(VENV)/bin/pybabel ]; then \
		$(VENV)/bin/pybabel compile -d src/remis/i18n/locale -D remis 2>&1 | grep -v "^compiling" || true; \
	else echo "i18n: Babel not installed in $(VENV); the .po catalogues are read directly"; fi

# Debian's Chromium for the browser tests (tests/web skip, with the reason, without it).
chromium:
	$(STEP) "chromium: for the browser tests"
	@command -v chromium >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ]; then \
			(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) \
			|| echo "chromium: install failed; the browser tests will be skipped"; \
		else echo "chromium: not installed and not root; the browser tests will be skipped"; fi; }

# PostgreSQL server for the service tests (Debian's package; as root only).
# Without it those tests are skipped and pytest prints the reason.
pg-deps:
	$(STEP) "pg-deps: PostgreSQL for the database tests"
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    (apt-get install -y -q postgresql >/dev/null 2>&1 || \
	     (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q postgresql >/dev/null 2>&1)) \
	    || echo "remis: could not install postgresql; its service tests will be skipped"; \
	  else echo "remis: postgresql missing (apt-get install postgresql as root); its service tests will be skipped"; fi; }

# The documentation site (docs/, mkdocs.yml) into site/; --strict turns every
# warning (a broken link, a public name missing from the API pages) into a failure.
docs: venv-dev
	$(STEP) "docs: the site into site/ (mkdocs, strict)"
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site

# Wheel and sdist in dist/, through the same cargo target as `make core`
# (so no second Rust compile), with the page and the catalogues they must carry.
dist: venv-dev web i18n
	@test -f $(WEB)/dist/index.html || { echo "dist: the web page is not built (make web needs Node.js 20 and npm)"; exit 1; }
	@ls src/remis/i18n/locale/*/LC_MESSAGES/remis.mo >/dev/null || { echo "dist: the catalogues are not compiled (make i18n)"; exit 1; }
	$(STEP) "dist: wheel and sdist (maturin), checked by twine"
	rm -rf dist
	$(VENV)/bin/maturin build --release --quiet --interpreter $(PY) --out dist
	$(VENV)/bin/maturin sdist --manifest-path rust/Cargo.toml --out dist
	$(VENV)/bin/twine check --strict dist/*

# The built wheel in a fresh virtualenv outside the tree: import, game, position, serve.
# Without npm there is no page, and so no wheel worth testing: say so, as make web does.
wheel-test: venv-dev
	@if command -v $(NPM) >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory dist && \
		echo "==> wheel-test: the wheel in a fresh virtualenv" && \
		$(PY) tests/packaging/wheel_smoke.py dist/*.whl; \
	else echo "wheel-test: skipped: $(NPM) not found, so the wheel would lack the web page (Node.js 20)"; fi

bench-service: venv-dev
	$(PY) benchmarks/service.py

# The soak test of issue 50: 50 honest games while hostile clients attack (60 s).
bench-hostile: venv-dev
	$(PY) benchmarks/hostile.py

clean:
	rm -rf $(VENV) build dist site rust/target src/remis/_core.*.so .pytest_cache .mypy_cache .ruff_cache $(WEB)/dist $(WEB)/node_modules
