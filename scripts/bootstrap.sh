#!/usr/bin/env bash
# Idempotent set-up shared by scripts/main.sh, scripts/test.sh and .ci/run:
# Java 17+ and Maven (Debian packages, when missing), a Python 3.11 venv in .venv with graphmem
# and its dev tools. Fast when everything is already in place.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

need_apt=()
if ! command -v java >/dev/null 2>&1; then need_apt+=(openjdk-17-jdk-headless); fi
if ! command -v mvn >/dev/null 2>&1; then need_apt+=(maven); fi
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "graphmem needs: ${need_apt[*]} (install them, e.g. with apt-get)" >&2
    exit 1
  fi
  echo "installing ${need_apt[*]} ..." >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

PY=${GRAPHMEM_PYTHON:-}
if [ -z "$PY" ]; then
  for cand in python3.11 python3; do
    if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
      PY=$cand; break
    fi
  done
fi
[ -n "$PY" ] || { echo "graphmem needs Python 3.11 (set GRAPHMEM_PYTHON)" >&2; exit 1; }

if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.graphmem-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "installing Python dependencies into .venv (first run: a few minutes) ..." >&2
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e ".[dev]"
  touch "$stamp"
fi
