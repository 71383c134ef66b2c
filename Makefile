# Competition kit: every hosted competition (ST2024 at the top level, the others in competitions/<id>/) goes
# through the same road: its reference builder, its baselines, the one bundle builder, the one check.
# `make` builds ST2024 and every further competition from their embedded synthetic samples;
# `make COMPETITION=<id> [DATA=<release>] [TEST_GOLD=<dir>]` builds one competition (ST2024: `make DATA=...` is
# `make COMPETITION=st2024 DATA=...`); `make test` runs the tests.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
DATA ?= sample_data
DIST := dist
REF := reference_data
SHARED ?= ../shared/st2024
ORG := $(PY) -m organiser
# The top-level competition (the scoring_program/ module that declares COMPETITION_ID) and every hosted one.
TOP := $(basename $(notdir $(shell grep -l '^COMPETITION_ID = ' scoring_program/*.py)))
HOSTED := $(TOP) $(notdir $(patsubst %/,%,$(dir $(wildcard competitions/*/competition.yaml))))
# The competition this run builds (default: the top-level one), its folders and its data: DATA=sample_data means
# its embedded synthetic sample, with the sample's test gold when it keeps one apart (a release's test files are
# unannotated: give TEST_GOLD=DIR to build a test phase from its gold).
C := $(or $(COMPETITION),$(TOP))
CTOP := $(filter $(TOP),$(C))
CDIST := $(if $(CTOP),$(DIST),$(DIST)/$(C))
CREF := $(if $(CTOP),$(REF),$(REF)/$(C))
CSAMPLE := $(if $(CTOP),sample_data,competitions/$(C)/sample_data)
CDATA := $(if $(filter sample_data,$(DATA)),$(CSAMPLE),$(DATA))
ifeq ($(DATA),sample_data)
TEST_GOLD ?= $(wildcard $(CSAMPLE)/test_gold)
endif
# The schedule every date and the test phase's feedback mode come from (default: the competition's own
# schedule.yaml); SCHEDULE=other.yaml overrides it for the reference (its split) and the bundles alike.
SCHEDULE_OPTION := $(if $(SCHEDULE),--schedule $(SCHEDULE))
GOLD_OPTION := $(if $(TEST_GOLD),--test-gold $(TEST_GOLD))
# The test gold's public/private split is drawn once and kept in SPLIT_STATE (docs/test_feedback.md): as secret as
# the gold, never uploaded, kept by `make clean`; back it up. SPLIT_SEED=S: the first draw's seed (default: random);
# NEW_SPLIT=1: draw anew (make check then counts the items the draws made public together).
SPLITS := splits
SPLIT_STATE ?= $(SPLITS)/$(C).json
SPLIT_OPTION := --split-state $(SPLIT_STATE) $(if $(SPLIT_SEED),--split-seed $(SPLIT_SEED)) $(if $(NEW_SPLIT),--new-split)
# `make check` checks what was built last (build.json names its data); a DATA given on the command line (or in
# the environment) must be that data, else the check is refused.
CHECK_DATA := $(if $(filter command line environment,$(origin DATA)),--data $(CDATA))

.PHONY: all venv browser reference bundle baselines check bench test clean summary

# Plain `make` builds ST2024 and, on their embedded samples, every further competition (`make competitions`);
# with COMPETITION or DATA given, only that competition.
all: venv reference baselines bundle summary $(if $(COMPETITION)$(filter-out sample_data,$(DATA)),,competitions docs)

# The documents generated from the declarations: docs/organisers.md (tracked; names no competition, rewritten when
# organiser/procedure.py changed), dist/organisers.md (every competition's procedure), dist/competitions.md (their
# table). A new competition folder changes no tracked file.
.PHONY: docs
docs: venv
	$(ORG) docs --out $(DIST)

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

# REFERENCE_OPTIONS: options of the competition's own reference builder (ST2024: --keep-recoverable-gaps).
reference: venv
	$(ORG) reference --competition $(C) --data $(CDATA) $(GOLD_OPTION) --out $(CREF) --report $(CDIST)/data_quality.md \
		$(SPLIT_OPTION) $(SCHEDULE_OPTION) $(REFERENCE_OPTIONS)

baselines: reference
	$(ORG) baselines --competition $(C) --data $(CDATA) --reference $(CREF) --out $(CDIST)

bundle: reference baselines
	$(ORG) bundle --competition $(C) --data $(CDATA) $(GOLD_OPTION) --reference $(CREF) --out $(CDIST) $(SCHEDULE_OPTION)

# Checks the last build of the competition, never rebuilds it (builds only when nothing was built yet); plain
# `make check` (no COMPETITION, no DATA) also checks every further competition built in dist/<id>/.
check: venv
	@test -f $(CDIST)/build.json || $(MAKE) --no-print-directory COMPETITION=$(C) bundle
	$(ORG) check --dist $(CDIST) $(CHECK_DATA) --submissions $(CDIST)/submissions
	@$(if $(COMPETITION)$(CHECK_DATA),true,for id in $(filter-out $(TOP),$(HOSTED)); do \
		test ! -f $(DIST)/$$id/build.json || $(MAKE) --no-print-directory COMPETITION=$$id check || exit 1; done)

# BEFORE=<git revision>: that revision's scorer and this tree's, timed taking turns in one run.
bench: venv
	$(PY) tests/bench.py --data $(SHARED) $(if $(BEFORE),--before $(BEFORE))

summary: venv
	$(ORG) summary --competition $(C) --out $(CDIST)

# Final results of a phase: SUBMISSIONS=the platform's bulk download (or <team>/<name>.zip folder); RESULTS_PHASE
# picks the reference phase (test by default); RESULTS_OPTIONS passes more options. `make results COMPETITION=lince
# SUBMISSIONS=DIR` does the same for a further competition (its reference in reference_data/<id>/, its baselines
# in dist/<id>/submissions/, the results in dist/<id>/results/).
.PHONY: results bench-results
# The ranking is made on the organisers' part of a split test reference (REF/private/<phase>: the private part in
# mode public_private, the whole gold in modes blind and full), never uploaded; the part the platform scored
# (REF/<phase>) gives each team's public rank beside its final one (mode public_private).
# A split phase without its private part is refused (no fallback to the part the platform scored): the
# results command says which folder is missing and how to get it back.
RESULTS_PHASE ?= test
RESULTS_PRIVATE := $(wildcard $(CREF)/private/$(RESULTS_PHASE)/split.json)
RESULTS_REF := $(if $(RESULTS_PRIVATE),$(CREF)/private/$(RESULTS_PHASE),$(CREF)/$(RESULTS_PHASE))
results: venv
	@test -n "$(SUBMISSIONS)" || { echo "make results: give SUBMISSIONS=<download zip or folder>" >&2; exit 2; }
	$(ORG) results --competition $(C) --reference $(RESULTS_REF) --submissions $(SUBMISSIONS) \
		$(if $(RESULTS_PRIVATE),--public-reference $(CREF)/$(RESULTS_PHASE) --phase $(RESULTS_PHASE)) \
		--baselines $(CDIST)/submissions --out $(CDIST)/results $(RESULTS_OPTIONS)

bench-results: venv
	$(PY) tests/bench_results.py --data $(SHARED)

# The competition on Codabench from the command line (organiser/codabench/, docs/codabench.md), on the instance of
# $CODABENCH_URL (default: the public one) with the token of $CODABENCH_TOKEN or ~/.config/codabench/token (written,
# readable by you only, by `make codabench-login`). CODABENCH_ID is the competition's id that codabench-upload
# prints, PHASE a phase's id that codabench-phases lists.
CB := $(ORG) codabench
need = @test -n "$($(1))" || { echo "make $@: give $(1)=$(2)" >&2; exit 2; }
.PHONY: codabench-login codabench-upload codabench-publish codabench-approve codabench-phases codabench-open-test \
	codabench-reference pull leaderboard
codabench-login: venv
	$(CB) login
codabench-upload: venv
	$(call need,BUNDLE,$(CDIST)/bundles/<stem>-codabench.zip)
	$(CB) upload $(BUNDLE)
codabench-publish: venv
	$(call need,CODABENCH_ID,<competition id>)
	$(CB) publish --competition $(CODABENCH_ID)
# MATCH='*@uni.example': only the pending registrations whose user name or e-mail match.
codabench-approve: venv
	$(call need,CODABENCH_ID,<competition id>)
	$(CB) participants --competition $(CODABENCH_ID) --approve $(if $(MATCH),--match '$(MATCH)')
codabench-phases: venv
	$(call need,CODABENCH_ID,<competition id>)
	$(CB) phases --competition $(CODABENCH_ID)
codabench-open-test: venv
	$(call need,CODABENCH_ID,<competition id>)
	$(call need,PHASE,<test phase id>)
	$(call need,ZIP,$(CDIST)/public_data/<subtask>-test.zip)
	$(CB) open-test --competition $(CODABENCH_ID) --phase $(PHASE) --zip $(ZIP)
codabench-reference: venv
	$(call need,CODABENCH_ID,<competition id>)
	$(call need,PHASE,<test phase id>)
	$(call need,ZIP,$(CDIST)/reference/<subtask>-test.zip)
	$(CB) reference --competition $(CODABENCH_ID) --phase $(PHASE) --zip $(ZIP) --private $(CREF)/private/test
# OUT: where each team's submission that counts goes (default $(CDIST)/codabench/phase-<id>/), then
# `make results SUBMISSIONS=<OUT>`.
pull: venv
	$(call need,PHASE,<phase id>)
	$(CB) pull --phase $(PHASE) --out $(or $(OUT),$(CDIST)/codabench/phase-$(PHASE))
leaderboard: venv
	$(call need,PHASE,<phase id>)
	$(CB) leaderboard --phase $(PHASE) --out $(CDIST)/results/leaderboards

# The suite, and every competition's own tests (competitions/<id>/tests/, found by pytest: nothing to list here).
test: venv browser
	$(PY) -m pytest -q tests competitions

# The split states (splits/) are kept: they fix which test items are public (docs/test_feedback.md).
clean:
	rm -rf $(DIST) $(REF) .pytest_cache .hypothesis $(BROWSER)/node_modules
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

# Every further competition on its embedded sample (part of plain `make`).
.PHONY: competitions
competitions: venv
	@for id in $(filter-out $(TOP),$(HOSTED)); do $(MAKE) --no-print-directory COMPETITION=$$id DATA=sample_data all || exit 1; done
