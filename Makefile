# Every target creates the local virtual environment on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-reference mutants sanitize lint bench simulate clean lock

# The exact versions, with their hashes, come from requirements-dev.txt (made by `make lock`).
$(STAMP): pyproject.toml setup.py requirements-dev.txt $(wildcard engine/compiled/*.h engine/games/*/*.c engine/games/*/*.h)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --require-hashes -r requirements-dev.txt
	$(BIN)/pip install --quiet --no-deps -e .
	touch $(STAMP)

run: $(STAMP)  ## set up and run the bot (reads BOT_TOKEN from the environment or .env)
	$(BIN)/python -m bot

test: $(STAMP)  ## set up and run the whole test suite
	$(BIN)/python -m pytest -q -n auto --dist worksteal

test-reference: $(STAMP)  ## the thorough comparison with the reference models (tests/test_reference.py)
	$(BIN)/python -m pytest -q -n auto --dist worksteal -m reference

mutants: $(STAMP)  ## plant one-rule bugs in a copy of the engine, one at a time: the rule tests must catch each
	$(BIN)/python -m bench.mutants

sanitize: $(STAMP)  ## the compiled cores' tests again, built with AddressSanitizer and UBSan (skips without them)
	$(BIN)/python -m bench.sanitize

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy --strict engine storage bot tests bench playground

bench: $(STAMP)
	$(BIN)/python -m bench.speed

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build engine/games/*/*.so

lock: $(STAMP)  ## pin the exact versions of pyproject.toml's dependencies, with hashes, for every platform
	$(BIN)/pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes --quiet \
		-o requirements.txt
	$(BIN)/uv pip compile pyproject.toml --extra dev --universal --python-version 3.11 --generate-hashes \
		--quiet -o requirements-dev.txt
