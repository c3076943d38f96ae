# Scorebook: `make run` serves the site, `make test` runs every test.
# Both set up everything they need on a fresh machine.

SHELL := /bin/bash
# Django 6 needs Python 3.12 or newer; the default python3 here is 3.11.
PYTHON ?= $(shell for p in python3.13 python3.12 $$HOME/.pyenv/versions/3.13*/bin/python3.13 $$HOME/.pyenv/versions/3.12*/bin/python3.12 /usr/bin/python3.13 /usr/bin/python3.12; do \
	"$$p" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { echo "$$p"; break; }; done)
VENV := .venv
HOST ?= 127.0.0.1
PORT ?= 8000
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := requirements.lock
UV_VERSION := 0.13.9

.PHONY: run test test-fast test-sqlite test-postgres postgres install lock lint format chromium nginx gettext messages catalogues migrate bench bench-night bench-settle-up mutants docs translations screenshots clean

# Every package, transitive ones included, comes pinned with its hashes from requirements.lock
# (made by `make lock` from pyproject.toml); the site itself is then installed on top, editable.
$(STAMP): pyproject.toml $(LOCK)
	@test -n "$(PYTHON)" || { echo "Python 3.12 or newer is needed (python3.12 / python3.13)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

install: $(STAMP)

# After changing the dependencies in pyproject.toml: `make lock`, then commit requirements.lock.
# `make lock UPGRADE=--upgrade` also moves the unpinned transitive packages to their latest releases.
lock:
	@test -n "$(PYTHON)" || { echo "Python 3.12 or newer is needed (python3.12 / python3.13)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	test -x $(BIN)/uv || $(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	$(BIN)/uv pip compile pyproject.toml --extra test --universal --python-version 3.12 --generate-hashes \
		--custom-compile-command "make lock" --quiet $(UPGRADE) -o $(LOCK)
	$(MAKE) install

# Lint, format and type checks run before every test run (and so in CI); mypy reads
# [tool.mypy] in pyproject.toml (the whole site and tools/, the engine and tools/ strictly), vulture [tool.vulture] (dead code in scorebook/
# and bench/; what only Django, a setting or a template reads is in vulture_whitelist.py).
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/vulture

# Rewrites files: sorts imports, applies the safe fixes, formats.
format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Browser tests drive Debian's Chromium (Playwright's own browser download is not used).
chromium:
	@test -x /usr/bin/chromium || { apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium; }

# tests/test_slow_clients.py runs the nginx of docs/operating.md in front of its gunicorn (Debian's nginx; no service started).
nginx:
	@test -x /usr/sbin/nginx || { apt-get update -qq && apt-get install -y -qq --no-install-recommends nginx-light; }

# Translations: GNU gettext compiles the catalogues (and extracts messages for the tests).
gettext:
	@command -v msgfmt >/dev/null || { apt-get update -qq && apt-get install -y -qq --no-install-recommends gettext; }

messages: install gettext
	$(BIN)/python manage.py compilemessages --ignore=.venv -v 0

# After adding or changing a message: extract them into the three catalogues (file names only as
# references, so that moving code does not rewrite every catalogue), then translate the new entries.
catalogues: install gettext
	$(BIN)/python manage.py makemessages --no-obsolete --add-location=file --ignore='.venv/*' --ignore='tests/*' \
		--locale=fr --locale=nl --locale=en
	sed -i 's/^"POT-Creation-Date: .*\\n"$$/"POT-Creation-Date: 2026-01-01 00:00+0000\\n"/' locale/*/LC_MESSAGES/django.po

migrate: install messages
	$(BIN)/python manage.py migrate --noinput

run: migrate
	$(BIN)/python manage.py seed_demo --if-empty
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# Every test, in two passes after lint (docs/development.md, "How a test is put in which group"):
# - the SQLite pass: every test but the browser's, on two processes (pytest-xdist, each with its own
#   test database; worksteal: a worker that is done takes tests from the other);
# - the PostgreSQL pass: the tests marked `both_databases` (what they check depends on the database),
#   on two processes, then the browser's (marker `browser`: Chromium, and gunicorn behind nginx started
#   once for the run) in one process, where their waits are not slowed by a second worker.
# Every step of TEST_STEPS always runs; the target fails if one failed (a run that selects no test,
# through PYTEST_ARGS, is not a failure). Each pass prints how long it took.
# The JavaScript tests (node --test, `make test-js`) join TEST_STEPS, and test-fast's prerequisites.
TEST_STEPS := test-sqlite test-postgres
test: install chromium nginx messages postgres lint
	@status=0; \
	for step in $(TEST_STEPS); do $(MAKE) --no-print-directory $$step || status=1; done; \
	exit $$status

# Every test but the browser's and the slow ones (@pytest.mark.slow: a fresh clone, a server or
# another process, a big sweep), on SQLite and two processes: at most 3 minutes on two cores.
# It prints how long it took. `make test` runs everything.
test-fast: install messages lint
	@echo "make test-fast: every test but the browser's and the slow ones, SQLite, two processes"; \
	time env -u DATABASE_URL $(PYTEST) -m "not slow and not browser" --numprocesses=2 --dist=worksteal $(PYTEST_ARGS)

PYTEST := DJANGO_ALLOW_ASYNC_UNSAFE=true $(BIN)/python -m pytest
# PostgreSQL for the second pass: a database of this checkout's own (pytest makes test_<name>, one per
# process), so that two checkouts on one server never meet; `make test PG_DATABASE=...` chooses another,
# PG_URL another server.
PG_DATABASE ?= sb_make_$(shell basename "$(CURDIR)" | tr -c 'a-z0-9\n' '_')
PG_URL ?= postgres://postgres:postgres@127.0.0.1:5432/$(PG_DATABASE)

# The SQLite pass. The races run their default rounds here (RACE_ROUNDS is for the PostgreSQL pass:
# tests/races.py).
test-sqlite: install messages
	@echo "make test, the SQLite pass: every test but the browser's, two processes"; \
	status=0; \
	time env -u RACE_ROUNDS -u DATABASE_URL $(PYTEST) -m "not browser" --numprocesses=2 --dist=worksteal $(PYTEST_ARGS) \
		|| [ $$? -eq 5 ] || status=1; \
	exit $$status

# The PostgreSQL pass: the both_databases tests on two processes, then the browser's in one, against
# the site as deployed on PostgreSQL (tests/deployed_site.py).
test-postgres: install chromium nginx messages postgres
	@echo "make test, the PostgreSQL pass ($(PG_DATABASE)): the both_databases tests on two processes, then the browser's in one"; \
	status=0; \
	time { \
		DATABASE_URL=$(PG_URL) $(PYTEST) -m "both_databases and not browser" --numprocesses=2 --dist=worksteal $(PYTEST_ARGS) \
			|| [ $$? -eq 5 ] || status=1; \
		DATABASE_URL=$(PG_URL) $(PYTEST) -m browser $(PYTEST_ARGS) || [ $$? -eq 5 ] || status=1; \
	}; \
	exit $$status

# Debian's PostgreSQL 15 on 127.0.0.1:5432 (installed when missing, its cluster started, the postgres
# user given the password postgres, as on CI's machine); left running.
postgres:
	@command -v pg_ctlcluster >/dev/null || { apt-get update -qq && apt-get install -y -qq --no-install-recommends postgresql; }
	@pg_ctlcluster 15 main start 2>/dev/null || pg_ctlcluster 15 main status >/dev/null
	@for _ in $$(seq 1 30); do runuser -u postgres -- pg_isready -q && break; sleep 1; done
	@runuser -u postgres -- psql -q -c "ALTER USER postgres PASSWORD 'postgres'"

# Every figure of the benchmark with its target (about 15 minutes, the club night included); exits 1 on a MISS.
bench: install chromium nginx
	$(BIN)/python bench/run.py

bench-night: install nginx
	$(BIN)/python bench/night.py

# The parts of docs/ made from the code, in every language (docs/fr/, docs/nl/): the presets' grids,
# the worked examples (tests/rules/cases), the evening file's JSON Schema (tools/docs, a build tool outside
# the site). tests/test_docs.py fails when they are out of date.
docs: install
	$(BIN)/python -m tools.docs

# Which translations of docs/ are behind their English page, and what changed in English since; once a
# translation says the same again: .venv/bin/python -m tools.docs stamp docs/fr/rules/liege.md
translations: install
	$(BIN)/python -m tools.docs translations

# The guides' pictures (docs/img/): a demo club in a throwaway database, served on a free port of
# 127.0.0.1, photographed at 390x844 in Chromium (docs/screenshots.py; a few minutes).
screenshots: install chromium messages
	DJANGO_ALLOW_ASYNC_UNSAFE=true $(BIN)/python docs/screenshots.py

# The club's settle-up against an independent solver (OR-Tools' CP-SAT, 20 s a month) on 24 generated
# club months, and its time on clubs of 60 (about 9 minutes); exits 1 on a MISS.
bench-settle-up: install
	$(BIN)/python bench/settle_up.py

# Mutation testing of the money (mutmut; [tool.mutmut] in pyproject.toml says what is mutated and which tests
# run): a fresh copy of the tree in mutants/, every mutation of the balance modules run against tests/ledger
# and the engine's money tests, on MUTANTS_CHILDREN processes. Long (tests/ledger/equivalent_mutants.md has
# its last count and time); not part of make test. It fails when a mutation no test kills (one that makes
# them run out of time counts as killed) is not listed in that file with its reason; `mutmut show NAME`
# shows one.
MUTANTS_CHILDREN ?= 2
mutants: install messages
	rm -rf mutants
	time $(BIN)/mutmut run --max-children $(MUTANTS_CHILDREN)
	$(BIN)/mutmut results | grep -v ': timeout$$' | sed 's/^ *//; s/:.*//' | LC_ALL=C sort > mutants/not-killed.txt
	grep -o 'scorebook\.[^ `|]*__mutmut_[0-9]*' tests/ledger/equivalent_mutants.md | LC_ALL=C sort > mutants/listed.txt
	LC_ALL=C comm -23 mutants/not-killed.txt mutants/listed.txt > mutants/unlisted.txt
	@test ! -s mutants/unlisted.txt || { echo "Not killed and not listed in tests/ledger/equivalent_mutants.md:"; \
		cat mutants/unlisted.txt; exit 1; }

clean:
	rm -rf $(VENV) db.sqlite3 .pytest_cache artifacts
