# Two entry points do all setup on a fresh machine: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run web test check lint format typecheck bench system-deps

$(STAMP): pyproject.toml
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	@touch $(STAMP)

# Debian packages: libopus0 (voice encoder), espeak-ng (offline speech) and chromium (the web
# logbook's browser tests, driven by Playwright; never a downloaded browser). Installed when missing
# and we are root; otherwise we say what to install and carry on (text-only still works).
system-deps:
	@missing=""; \
	 command -v espeak-ng >/dev/null 2>&1 || missing="$$missing espeak-ng"; \
	 ldconfig -p 2>/dev/null | grep -q libopus.so.0 || missing="$$missing libopus0"; \
	 test -x /usr/bin/chromium || missing="$$missing chromium"; \
	 if [ -n "$$missing" ]; then \
	   if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	     apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	   else echo "Please install:$$missing (e.g. sudo apt-get install$$missing)"; fi; \
	 fi

run: system-deps $(STAMP)
	$(PY) -m bot

# The web logbook alone (read-only, same store): WEB_HOST/WEB_PORT, default 127.0.0.1:8080.
web: $(STAMP)
	$(PY) -m bot.web

# The same gate as CI, in order: lint, formatting, types, then the tests. Any failure stops it.
test: system-deps $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(PY) -m pytest

check: test

lint: $(STAMP)
	$(VENV)/bin/ruff check .

format: $(STAMP)
	$(VENV)/bin/ruff format .

typecheck: $(STAMP)
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(PY) bench/engine.py
