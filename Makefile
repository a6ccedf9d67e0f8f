PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test lint bench clean

# Re-installs only when pyproject.toml changes.
install: $(STAMP)
$(STAMP): pyproject.toml
	@command -v $(PY) >/dev/null 2>&1 || { echo "need $(PY)"; exit 1; }
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev,milvus]"
	touch $(STAMP)

demo: install
	$(BIN)/python -m geunkeo.demo

test: install
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/python -m pytest

lint: install
	$(BIN)/ruff check src tests benchmarks

bench: install
	$(BIN)/python benchmarks/retrieval.py --dataset ../shared/datasets/autorag-ko --split dev

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
