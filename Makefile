# Competition kit (ST2024, plus competitions/<id>/). `make` builds everything from the embedded synthetic data;
# `make DATA=../shared/st2024` does the same on a release checkout; `make test` runs the tests.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
DATA ?= sample_data
# The synthetic sample carries its test gold apart from its public test files; a release checkout
# has none (its test files are unannotated): give TEST_GOLD=DIR to build a test phase from it.
ifeq ($(DATA),sample_data)
TEST_GOLD ?= sample_data/test_gold
endif
DIST := dist
REF := reference_data
SHARED ?= ../shared/st2024
# The schedule every date comes from (see schedule.yaml); `make SCHEDULE=other.yaml` uses another one.
SCHEDULE ?= schedule.yaml
ORG := $(PY) -m organiser
# `make check` checks what was built last (dist/build.json names its data); a DATA given on the command
# line (or in the environment) must be that data, else the check is refused.
CHECK_DATA := $(if $(filter command line environment,$(origin DATA)),--data $(DATA))

.PHONY: all venv browser reference bundle baselines check bench test clean summary

# Plain `make` builds ST2024 and, on their embedded samples, every further competition of competitions/
# (`make competitions`); with DATA=<a release>, only ST2024.
HOSTED := $(notdir $(patsubst %/,%,$(dir $(wildcard competitions/*/competition.yaml))))
all: venv reference bundle baselines summary $(if $(filter sample_data,$(DATA)),competitions)

$(VENV)/.stamp: requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

venv: $(VENV)/.stamp

# The platforms' page sanitisers (DOMPurify, marked), pinned in tests/browser/package-lock.json, for the
# browser test of the pages (tests/test_pages_browser.py; Chromium comes from the system, .ci/run installs it).
BROWSER := tests/browser
$(BROWSER)/node_modules/.stamp: $(BROWSER)/package.json $(BROWSER)/package-lock.json
	cd $(BROWSER) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

browser: $(BROWSER)/node_modules/.stamp

reference: venv
	$(ORG) reference --data $(DATA) $(if $(TEST_GOLD),--test-gold $(TEST_GOLD)) --out $(REF) --report $(DIST)/data_quality.md

bundle: reference baselines
	$(ORG) bundle --data $(DATA) --reference $(REF) --out $(DIST) --schedule $(SCHEDULE)

baselines: reference
	$(ORG) baselines --data $(DATA) --reference $(REF) --out $(DIST)

# Checks the last build, never rebuilds it (builds only when nothing was built yet); without DATA it also
# checks every further competition built in dist/<id>/. `make check COMPETITION=lince` checks only that
# competition's last build (dist/lince/).
ifeq ($(COMPETITION),)
check: venv
	@test -f $(DIST)/build.json || $(MAKE) --no-print-directory bundle
	$(ORG) check --dist $(DIST) $(CHECK_DATA) --submissions $(DIST)/submissions
	@$(if $(CHECK_DATA),true,for id in $(HOSTED); do test ! -f $(DIST)/$$id/build.json || \
		$(MAKE) --no-print-directory COMPETITION=$$id check || exit 1; done)
else
check: venv
	@test -f $(DIST)/$(COMPETITION)/build.json || $(MAKE) --no-print-directory competition
	$(ORG) check --dist $(DIST)/$(COMPETITION) $(if $(filter command line environment,$(origin DATA)),--data $(CDATA)) \
		--submissions $(DIST)/$(COMPETITION)/submissions
endif

bench: venv
	$(PY) tests/bench.py --data $(SHARED)

summary: venv
	$(ORG) summary --out $(DIST)

# Final results of a phase (issue 13): SUBMISSIONS=the platform's bulk download (or <team>/<name>.zip folder);
# RESULTS_PHASE picks the reference phase (test by default); RESULTS_OPTIONS passes more options.
# `make results COMPETITION=lince SUBMISSIONS=DIR` does the same for a further competition (its reference in
# reference_data/<id>/, its baselines in dist/<id>/submissions/, the results in dist/<id>/results/).
.PHONY: results bench-results
RESULTS_PHASE ?= test
RESULTS_DIR = $(if $(COMPETITION),$(COMPETITION)/)
results: venv
	@test -n "$(SUBMISSIONS)" || { echo "make results: give SUBMISSIONS=<download zip or folder>" >&2; exit 2; }
	$(ORG) results $(if $(COMPETITION),--competition $(COMPETITION)) --reference $(REF)/$(RESULTS_DIR)$(RESULTS_PHASE) \
		--submissions $(SUBMISSIONS) --baselines $(DIST)/$(RESULTS_DIR)submissions --out $(DIST)/$(RESULTS_DIR)results \
		$(RESULTS_OPTIONS)

bench-results: venv
	$(PY) tests/bench_results.py --data $(SHARED)

test: venv browser
	$(PY) -m pytest -q tests

clean:
	rm -rf $(DIST) $(REF) .pytest_cache .hypothesis $(BROWSER)/node_modules
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

# A further competition (competitions/<id>/): `make COMPETITION=lince [DATA=DIR]` builds its references,
# baseline table and bundle under reference_data/<id>/ and dist/<id>/ (DATA defaults to its embedded
# synthetic sample, with the sample's test gold when it keeps one apart; TEST_GOLD=DIR gives a release's test
# gold). ST2024's targets above are unchanged.
ifneq ($(COMPETITION),)
.DEFAULT_GOAL := competition
endif
CDIR = competitions/$(COMPETITION)
CSAMPLE = $(filter sample_data,$(DATA))
CDATA = $(if $(CSAMPLE),$(CDIR)/sample_data,$(DATA))

.PHONY: competition competitions
competitions: venv
	@for id in $(HOSTED); do $(MAKE) --no-print-directory COMPETITION=$$id DATA=sample_data competition || exit 1; done
competition: venv
	@test -n "$(COMPETITION)" || { echo "give COMPETITION=<id> (one of: $$(ls competitions))"; exit 2; }
	$(PY) $(CDIR)/reference.py --data $(CDATA) $(if $(CSAMPLE),$(if $(wildcard $(CDIR)/sample_data/test_gold),--test-gold $(CDIR)/sample_data/test_gold),$(if $(TEST_GOLD),--test-gold $(TEST_GOLD))) --out $(REF)/$(COMPETITION)
	$(PY) $(CDIR)/baselines.py --data $(CDATA) --reference $(REF)/$(COMPETITION)/dev --out $(DIST)/$(COMPETITION)
	$(PY) -m organiser.competition_bundle --competition $(COMPETITION) --reference $(REF)/$(COMPETITION) \
		--out $(DIST)/$(COMPETITION) --baselines $(DIST)/$(COMPETITION)/baselines.md --data $(CDATA)
