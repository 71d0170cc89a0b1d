# rulespec: `make demo` on a fresh machine, `make test` for the suite (see README.md).

SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3 2>/dev/null)
VENV := .venv
PY := $(VENV)/bin/python
RULESPEC := $(VENV)/bin/rulespec
STAMP := $(VENV)/.installed
SPECS := $(patsubst %/,%,$(wildcard spec/*/))

GAME ?= twilight_struggle
SEED ?= 7
AGENTS ?= random,random
DEMO_GAMES ?= 3
SIM_GAMES ?= 2000
SIM_PRECISION ?= 3
SIM_VARIANT ?= chinese_civil_war
OTHER_GAMES := $(filter-out $(GAME),$(notdir $(SPECS)))
BENCH_GAMES ?= 20

.PHONY: install demo test browser compile check bench bench-game native clean

install: $(STAMP)

$(PY):
	@test -n "$(PYTHON)" || { echo "make: need python3.11 (or python3 >= 3.11) on PATH" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)

# Reinstalled when the project's files change.
$(STAMP): pyproject.toml setup.py | $(PY)
	$(PY) -m pip install -q -e '.[test,native,fit]'
	@touch $@

# The demo in five numbered steps, each with its time; the simulation prints a line as its
# games go (RULESPEC_PROGRESS=lines) and says when the answer settled. Step 2 builds the native
# engine (state in C, docs/NATIVE.md) of $(GAME) and of the variant set it simulates, both at once,
# where Cython and a C compiler exist (rulespec compile --native --engine-only): step 4 plays its
# games on it, and says so. DEMO_NATIVE=build also makes the generated package's native build
# first (minutes of C compiling, once: what `play` and the search bots run on); DEMO_NATIVE=off
# builds nothing, and every step runs on the Python engine.
DEMO_NATIVE ?= engine
# Step 5 measures the native engine on a small game too: its build takes seconds.
MACHINE_GAME ?= the_fox_in_the_forest
MACHINE_GAMES ?= 500
demo: export RULESPEC_PROGRESS = lines
demo: $(STAMP)
	@echo "== [1/5] rulespec compile: every game in spec/ into generated/ =="
	@start=$$SECONDS; for spec in $(SPECS); do $(RULESPEC) compile $$spec || exit 1; done; \
		echo "   ($$((SECONDS - start)) s)"
	@echo "== [2/5] the native engine (state in C) of $(GAME) and of its $(SIM_VARIANT) variant set =="
	@start=$$SECONDS; if [ "$(DEMO_NATIVE)" = off ]; then echo "   DEMO_NATIVE=off: the games below run on the Python engine"; \
	elif why=$$($(PY) -c "from rulespec.compiler.backends.native import available; print(available() or '')") && [ -z "$$why" ]; then \
		if [ "$(DEMO_NATIVE)" = build ]; then $(MAKE) --no-print-directory native; fi; \
		$(RULESPEC) compile --native --engine-only spec/$(GAME) > .demo-engine-base.log 2>&1 & \
		$(RULESPEC) compile --native --engine-only spec/$(GAME) --variant $(SIM_VARIANT) \
			-o .rulespec-cache/native-demo/$(GAME)__$(SIM_VARIANT) > .demo-engine-variant.log 2>&1 & \
		wait; for log in .demo-engine-base.log .demo-engine-variant.log; do tail -n 1 $$log | sed 's/^/   /'; rm -f $$log; done; \
	else echo "   no native engine here ($$why): the games below run on the Python engine"; fi; \
		echo "   ($$((SECONDS - start)) s)"
	@echo "== [3/5] rulespec play: one game of each spec between bots =="
	@start=$$SECONDS; $(RULESPEC) play $(GAME) --seed $(SEED) --agents $(AGENTS) || exit 1; \
		for game in $(OTHER_GAMES); do echo "-- $$game"; $(RULESPEC) play $$game --seed $(SEED) || exit 1; done; \
		echo "   ($$((SECONDS - start)) s)"
	@echo "== [4/5] rulespec simulate $(GAME): $(SIM_VARIANT) against the base game, the balance bot, paired seeds until +-$(SIM_PRECISION) points (at most $(SIM_GAMES) pairs) =="
	@start=$$SECONDS; $(RULESPEC) simulate $(GAME) --variant $(SIM_VARIANT) --against base --games $(SIM_GAMES) \
		--precision $(SIM_PRECISION) --workers 2 --report reports/$(SIM_VARIANT) || exit 1; \
		echo "   ($$((SECONDS - start)) s)"
	@echo "== [5/5] rulespec bench $(GAME): the generated engine against the interpreter; then the native engine (state as C data) on $(MACHINE_GAME) =="
	@start=$$SECONDS; $(RULESPEC) bench $(GAME) --games $(DEMO_GAMES) || exit 1; \
	if why=$$($(PY) -c "from rulespec.compiler.backends.native import available; print(available() or '')") && [ -z "$$why" ]; then \
		for backend in generated machine; do RULESPEC_PROGRESS=off $(RULESPEC) bench $(MACHINE_GAME) --games $(MACHINE_GAMES) \
			--backend $$backend | tail -n 1 | sed 's/^/   $(MACHINE_GAME): /' || exit 1; done; \
	else echo "   no native engine here ($$why)"; fi; echo "   ($$((SECONDS - start)) s)"

# The suite as a fresh machine has it: the browser tests need Debian's chromium, installed here
# where this user may (root with apt-get), else skipped with one line saying why; only a
# failing test makes `make test` fail. CI sets CI=1 itself, and then a missing browser fails.
test: $(STAMP) browser
	$(PY) -m pytest -q

browser:
	@if [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "make test: installing Debian's chromium for the browser tests (apt-get, once)"; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }; \
		[ -x /usr/bin/chromium ] || echo "make test: could not install chromium (/usr/bin/chromium is still" \
			"missing); the browser tests (tests/test_browser.py and others) will be skipped"; \
	else echo "make test: no /usr/bin/chromium and no root to install it (apt-get install chromium):" \
		"the browser tests (tests/test_browser.py and others) will be skipped"; fi

# The native build (rulespec compile --native: Cython, a C compiler) of $(GAME) and of the
# variant set the demo simulates, into the cache; without Cython or a compiler, one note and
# the games run as pure Python. `simulate` says which build each variant set ran.
native: $(STAMP)
	@if why=$$($(PY) -c "from rulespec.compiler.backends.native import available; print(available() or '')") && [ -z "$$why" ]; then \
		echo "rulespec compile --native spec/$(GAME) (and --variant $(SIM_VARIANT)): a few minutes of C compiling, once"; \
		$(RULESPEC) compile --native spec/$(GAME) && \
		$(RULESPEC) compile --native spec/$(GAME) --variant $(SIM_VARIANT) -o .rulespec-cache/native-demo/$(GAME)__$(SIM_VARIANT) \
		|| echo "note: the native build failed; the games run as pure Python"; \
	else echo "note: no native build here ($$why); the games run as pure Python"; fi

# One committed package per game; variant sets are built on demand into .rulespec-cache/.
compile: $(STAMP)
	@for spec in $(SPECS); do echo "rulespec compile $$spec"; $(RULESPEC) compile $$spec || exit 1; done

check: $(STAMP)
	@for spec in $(SPECS); do echo "rulespec check $$spec"; $(RULESPEC) check $$spec || exit 1; done

# docs/BENCHMARKS.md's tables re-measured (docs/bench_all.py; BENCH_ARGS=--long adds the hours-long
# runs); `make bench-game` is one game's back ends side by side, as `make bench` was.
bench: $(STAMP)
	$(PY) docs/bench_all.py $(BENCH_ARGS)

bench-game: $(STAMP)
	$(RULESPEC) bench $(GAME) --games $(BENCH_GAMES)

clean:
	rm -rf $(VENV) build *.egg-info rulespec.egg-info .pytest_cache .hypothesis .rulespec-cache reports
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +
