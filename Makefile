# Attention Lab: one command to set up and run (`make run`), one to check while you work
# (`make check`: no browser, no slow tests) and one to check everything (`make test`, CI's).

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8501
# launcher.py: app.py (the script that reruns) with the live class's routes beside it (st.App).
APP    ?= launcher.py

# Install stamps are named after a checksum of the requirements files, so a changed pin
# reinstalls and an unchanged one costs nothing.
RUN_SUM   := $(shell cat requirements.txt 2>/dev/null | cksum | cut -d' ' -f1)
DEV_SUM   := $(shell cat requirements.txt requirements-dev.txt 2>/dev/null | cksum | cut -d' ' -f1)
RUN_STAMP := $(VENV)/.installed-run-$(RUN_SUM)
DEV_STAMP := $(VENV)/.installed-dev-$(DEV_SUM)

# The browser code's build (`make js`; tools/js/build.mjs): esbuild and acorn, pinned in
# tools/js/package-lock.json, installed with `npm ci` for the build and its tests only. The
# bundles it writes are committed: `make run` needs no node.
JS_DIR   := tools/js
JS_SUM   := $(shell cat $(JS_DIR)/package-lock.json 2>/dev/null | cksum | cut -d' ' -f1)
JS_STAMP := $(JS_DIR)/node_modules/.installed-$(JS_SUM)

# Browser tests need Debian's Chromium and a CJK font (missing glyphs render as boxes);
# `make serve` and its tests need Debian's nginx, and redis-server (the live class's store);
# the bundles' tests need node and npm. `make sysdeps` installs only what is missing (a node from
# elsewhere, NodeSource's say, carries its own npm, which Debian's npm package conflicts with).
CHROMIUM    := /usr/bin/chromium
NGINX       := /usr/sbin/nginx
REDIS       := /usr/bin/redis-server

# `make serve`: app processes behind one nginx (default: one per core); TARGET=proxy makes
# `make load` drive them through nginx instead of one bare `streamlit run`.
WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
TARGET  ?= direct
, := ,

# pytest-xdist processes for the tests (BROWSER_WORKERS: `make test-busy`'s). Each browser process
# starts its own app server and Chromium; a browser test spends much of its time waiting on the
# page, so two of them keep two cores busy (300 tests in 24 min at load 20, where one process took
# 21 min at load 3: TESTING.md). A file's tests stay together, in order, on one process (some
# share module state, as a browser session does); the files that take longest start first
# (tests/conftest.py's order, kept by --no-loadscope-reorder), so the processes end together.
TEST_WORKERS    ?= 2
BROWSER_WORKERS ?= $(TEST_WORKERS)
PYTEST          := $(VENV)/bin/pytest
PARALLEL        := -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder
BROWSERS        := -n $(BROWSER_WORKERS) --dist loadfile --no-loadscope-reorder

.PHONY: help run serve check test test-busy lint format js jsdeps bench load mutate sysdeps venv venv-dev clean \
  distclean

help:
	@echo "make run      start the app on http://$(HOST):$(PORT) (HOST=0.0.0.0 serves the LAN)"
	@echo "make serve    WORKERS=N app processes behind nginx on one port, sharing one redis-server"
	@echo "make check    ruff + every test but the browser and slow ones, in 2 processes (quick)"
	@echo "make test     ruff + the whole pytest suite, real-browser tests included (CI runs it)"
	@echo "make test-busy  the browser tests beside SPINNERS=2 CPU spinners, as on a busy machine"
	@echo "              (TESTS=\"tests/browser/test_main.py …\": those files only; TESTING.md)"
	@echo "make bench    the benchmark table (latency, reruns, cold start, payload, core)"
	@echo "make load     opt-in load test: 40 sessions for 60 s on loopback (TARGET=proxy: via nginx,"
	@echo "              TARGET=both: one process, then via nginx; WORKERS=2)"
	@echo "              SCENARIO=class: 1 teacher + 200 phones in one class on make serve WORKERS=2"
	@echo "              SCENARIO=class ATTACK=1: the class under a script's attack (guesses, made-up tokens)"
	@echo "make mutate   opt-in mutation testing of the core, the model's training parts, links and export (MUTATE=\"attention …\")"
	@echo "make js       rebuild the browser code's committed bundles (ui/*/dist/) after a JS or CSS change"
	@echo "make lint     ruff check + ruff format --check"
	@echo "make format   ruff check --fix + ruff format"
	@echo "make clean    remove caches and test artifacts (distclean also .venv, tools/js/node_modules)"

$(PY):
	$(PYTHON) -m venv $(VENV) || { echo "error: '$(PYTHON) -m venv' failed (on Debian: apt-get install python3-venv)" >&2; exit 1; }

$(RUN_STAMP): | $(PY)
	@echo "Installing requirements.txt into $(VENV) (once per change of the pins)"
	$(PY) -m pip install --quiet -r requirements.txt
	rm -f $(VENV)/.installed-run-*
	touch $@

# --no-compile: pip would byte-compile every file of every package, torch's thousands too (a fresh
# install: 62 s of CPU with it, 35 s without, measured); the tests compile what they import, once.
$(DEV_STAMP): | $(PY)
	@echo "Installing requirements-dev.txt into $(VENV) (once per change of the pins)"
	$(PY) -m pip install --quiet --no-compile -r requirements-dev.txt
	rm -f $(VENV)/.installed-dev-* $(VENV)/.installed-run-*
	touch $@ $(RUN_STAMP)

venv: $(RUN_STAMP)
venv-dev: $(DEV_STAMP)

run: $(RUN_STAMP)
	@case "$(HOST)" in 127.*|localhost|::1) ;; \
	  *) echo "WARNING: HOST=$(HOST) exposes the app to every machine that can reach this one on port $(PORT)." ;; esac
	$(PY) -m streamlit run $(APP) --server.address $(HOST) --server.port $(PORT) \
	  --server.headless true --browser.gatherUsageStats false

# Several app processes behind nginx with sticky sessions, sharing one redis-server (the class's
# store; REDIS_URL names a shared one instead) (deploy/serve.py, deploy/README.md).
# Ctrl+C stops nginx, every app process and Redis.
serve: $(RUN_STAMP)
	@[ -x $(NGINX) ] || { $(call apt_install,nginx,needed by make serve,nginx is missing \
	  and this is not root with apt-get (run 'make serve' as root to install it)); }
	@[ -n "$$REDIS_URL" ] || [ -x $(REDIS) ] || { $(call apt_install,redis-server,needed by make \
	  serve,redis-server is missing and this is not root with apt-get (run 'make serve' as root \
	  to install it$(,) or set REDIS_URL)); }
	$(PY) deploy/serve.py --workers $(WORKERS) --host $(HOST) --port $(PORT) --app $(APP) \
	  --nginx $(NGINX)

# $(call apt_install,PACKAGES,WHY,NOTE): install them as root with apt-get, else print NOTE.
# The package scripts must not start a system nginx on port 80 as a side effect: where no
# policy-rc.d exists, one that refuses service starts is there for the install only.
define apt_install
if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
  echo "Installing $(1) with apt-get ($(2))"; \
  export DEBIAN_FRONTEND=noninteractive; policy=/usr/sbin/policy-rc.d; \
  if [ ! -e $$policy ]; then trap 'rm -f '$$policy EXIT; \
    printf '#!/bin/sh\nexit 101\n' > $$policy; chmod +x $$policy; fi; \
  apt-get update && apt-get install -y --no-install-recommends $(1); \
else \
  echo "NOTE: $(3)"; \
fi
endef

sysdeps:
	@missing=""; [ -x $(CHROMIUM) ] || missing+=" chromium"; \
	[ -n "$$(fc-list :lang=zh 2>/dev/null)" ] || missing+=" fonts-noto-cjk"; \
	[ -n "$$(fc-list 'DejaVu Sans Mono' 2>/dev/null)" ] || missing+=" fonts-dejavu-core fontconfig"; \
	[ -x $(NGINX) ] || missing+=" nginx"; [ -x $(REDIS) ] || missing+=" redis-server"; \
	command -v node >/dev/null || missing+=" nodejs"; command -v npm >/dev/null || missing+=" npm"; \
	[ -n "$$missing" ] || exit 0; \
	$(call apt_install,$$missing,needed by the browser$(,) serve$(,) class and bundle tests,\
	  Chromium$(,) a CJK font$(,) nginx$(,) redis-server or node/npm is missing and this is not \
	  root with apt-get; the tests that need them will skip (run 'make test' as root to install \
	  $$missing).)

# esbuild and acorn for the bundles' build and tests, exactly as the lock file pins them.
$(JS_STAMP): $(JS_DIR)/package-lock.json
	npm ci --prefix $(JS_DIR) --no-audit --no-fund
	touch $@

jsdeps:
	@if command -v npm >/dev/null; then $(MAKE) --no-print-directory $(JS_STAMP); else \
	  echo "NOTE: npm is missing: the bundles' tests will skip (a failure under CI=true)."; fi

# The browser code's bundles, rebuilt from ui/explorer and ui/lesson (commit them with the change).
js: $(JS_STAMP)
	node $(JS_DIR)/build.mjs

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(DEV_STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# Lint and tests all run, so one log shows every problem; any failure fails the target.
define lint_steps
echo "== ruff check"; $(VENV)/bin/ruff check . || status=1; \
echo "== ruff format --check"; $(VENV)/bin/ruff format --check . || status=1;
endef

# The tests keep Python's bytecode and pytest's rewritten test modules in __pycache__ (git-ignored;
# `make clean` removes them) even where PYTHONDONTWRITEBYTECODE is set: without them each
# process (test workers, app servers, the command's subprocesses) compiles the repo, the packages
# it imports and every test module's asserts again (measured for check: 79 s of CPU for the three
# processes without them, 70 s with). OpenBLAS runs one thread a process in the tests: two test
# processes on two cores each starting a second BLAS thread only oversubscribed them (make check's
# tests: 48.9 and 55.5 s of CPU with one thread against 52.0 and 56.3 s with two, alternated).
TEST_ENV := PYTHONDONTWRITEBYTECODE= OPENBLAS_NUM_THREADS=1

# The inner loop: no Chromium, no servers, no training (tests marked browser or slow).
check: $(DEV_STAMP) jsdeps
	@status=0; $(lint_steps) \
	echo "== pytest: not browser, not slow ($(TEST_WORKERS) processes)"; \
	$(TEST_ENV) $(PYTEST) $(PARALLEL) -m "not browser and not slow" || status=1; \
	exit $$status

# Every test in one run of TEST_WORKERS processes: the browser files and the model's training
# first (the longest), the thousands of quick tests filling in at the end, so neither process
# waits for the other between a part without a browser and one with it (two runs, one after the
# other, left one process idle behind the training file and started every process twice). The
# log ends with the slowest tests (where a slower run went).
SLOWEST := --durations=25
test: $(DEV_STAMP) sysdeps jsdeps
	@status=0; $(lint_steps) \
	echo "== pytest: every test ($(TEST_WORKERS) processes)"; \
	$(TEST_ENV) $(PYTEST) $(PARALLEL) $(SLOWEST) || status=1; \
	exit $$status

# The browser tests as a busy 2-core machine runs them (issue 40): SPINNERS CPU spinners beside
# them, started and stopped by tools/busy.py (also when the tests fail or on Ctrl+C). TESTS names
# test files (one at a time on a shared machine); by default every browser test.
SPINNERS ?= 2
TESTS    ?=
test-busy: $(DEV_STAMP) sysdeps jsdeps
	$(TEST_ENV) $(PY) tools/busy.py --spinners $(SPINNERS) -- $(PYTEST) $(BROWSERS) -m browser $(TESTS)

# One combined table (core, interaction latency, reruns, cold start, payload), each figure a
# ratio against a baseline measured in the same run. The benchmarks drive Chromium, hence dev.
bench: $(DEV_STAMP) sysdeps
	PYTHONPATH=. $(PY) bench/run_all.py

# Opt-in load test: 40 websocket sessions plus a few Chromium tabs on loopback for 60 s;
# TARGET=proxy runs them through nginx in front of WORKERS app processes (deploy/serve.py);
# TARGET=both runs one process first, then the proxy: two tables.
# SCENARIO=class: 1 teacher + PHONES phones in one live class on `make serve` (WORKERS app
# processes, nginx, Redis); GROUPS=2: two serve groups sharing one Redis (bench/load_class.py);
# ATTACK=1: 30 phones in a class while a script guesses codes and floods made-up tokens, then
# 10,000 made-up tokens, then the streams' ends after E E and expiry (bench/class_attack.py).
SCENARIO ?=
PHONES   ?= 200
GROUPS   ?= 1
ATTACK   ?=
load: $(DEV_STAMP) sysdeps
	PYTHONPATH=. $(PY) $(if $(filter class,$(SCENARIO)),bench/load_class.py --workers $(WORKERS) \
	  --phones $(PHONES) --groups $(GROUPS) $(if $(ATTACK),--attack),bench/load.py \
	  $(if $(filter proxy,$(TARGET)),--proxy --workers $(WORKERS))$(if $(filter both,$(TARGET)),--both \
	  --workers $(WORKERS)))

# Opt-in mutation testing (mutmut, TESTING.md): one target at a time in tmp/mutate/, each mutant
# against that target's fast tests; JOBS mutants at once (the machine's cores are shared);
# AGAIN=1 reruns only the last run's survivors after tests were added.
MUTATE ?=
JOBS   ?= 1
mutate: $(DEV_STAMP)
	$(PY) tools/mutate.py --jobs $(JOBS) $(if $(AGAIN),--again) $(MUTATE)

clean:
	rm -rf .pytest_cache .ruff_cache .hypothesis test-artifacts test-results
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) $(JS_DIR)/node_modules
