# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export FLASK_APP := scorekeeper

.PHONY: run lan test test-fast lint format bench clean messages translations new-language

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit("scorekeeper needs Python 3.11 or newer") if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamp files: reinstall only when pyproject.toml changes. `make run` is the full app, the photo
# check included; where the photo extra has no wheels (a rare platform), the app still runs and
# the camera field says what is missing.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[photo]" || { \
		echo "The photo extra could not be installed here: the app runs without the photo check."; \
		$(BIN)/python -m pip install --quiet -e .; }
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test,photo]"
	@touch $@ $(VENV)/.installed

# The compiled catalogs (translations/<lang>/LC_MESSAGES/messages.mo) are made from the .po
# files, which are what git keeps; every command that serves or tests compiles them first.
# pybabel (Babel's own command) reads babel.cfg and pyproject.toml's [tool.babel.*].
translations: $(VENV)/.installed
	$(BIN)/pybabel -q compile

# After changing a sentence: extract them all and bring every catalog up to date (README,
# "Languages"); then translate what came in empty and `make translations`.
messages: $(VENV)/.installed
	$(BIN)/pybabel extract
	$(BIN)/pybabel update

# A new language in one command: make new-language CODE=de (then translate its messages.po).
new-language: $(VENV)/.installed
	@test -n "$(CODE)" || { echo "Which language? make new-language CODE=de" >&2; exit 1; }
	@test ! -e scorekeeper/translations/$(CODE)/LC_MESSAGES/messages.po || \
		{ echo "$(CODE) has a catalog already: scorekeeper/translations/$(CODE)/LC_MESSAGES/messages.po" >&2; exit 1; }
	$(BIN)/pybabel extract
	$(BIN)/pybabel init -l $(CODE)
	@echo "Translate scorekeeper/translations/$(CODE)/LC_MESSAGES/messages.po, then make translations."

# Another port: make run PORT=8080 (or make lan PORT=8080); the default is 5000, or
# SCOREKEEPER_PORT when that is set.
run: $(VENV)/.installed translations
	$(BIN)/flask db upgrade
	$(BIN)/python -m scorekeeper $(if $(PORT),--port $(PORT))

# Every phone on the club's Wi-Fi: listens on all addresses, prints the address phones open
# and its QR code, and puts that address in the share links (README: "Use it at your table").
lan: $(VENV)/.installed translations
	$(BIN)/flask db upgrade
	$(BIN)/python -m scorekeeper --lan $(if $(PORT),--port $(PORT))

test: $(VENV)/.installed-test
	$(BIN)/pybabel -q compile
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The suite without the tests marked slow (those that start a process: a server, redis-server,
# Caddy, a wheel build, the browser; CONTRIBUTING.md): minutes instead of the whole run.
# `make test` (and CI) still runs everything.
test-fast: $(VENV)/.installed-test
	$(BIN)/pybabel -q compile
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -m "not slow" $(PYTEST_ARGS)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(VENV)/.installed-test
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) build dist .pytest_cache
