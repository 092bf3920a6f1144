"""Importing graphmem changes nothing process-wide: a fresh interpreter imports it (and
builds a ``Memory``, which does no I/O) and compares the import system, the garbage
collector, the environment, numpy's BLAS threads and spaCy before and after. Tunings are
the CLI's choice (``Memory(..., tune_process=True)``), asked for explicitly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

_PROBE = """
import gc, json, os, sys
import numpy
from threadpoolctl import threadpool_info

def state():
    return {
        "meta_path": [repr(f) for f in sys.meta_path],
        "gc": [gc.isenabled(), list(gc.get_threshold()), gc.get_freeze_count()],
        "environ": dict(os.environ),
        "blas": [[p["filepath"], p["num_threads"]] for p in threadpool_info()],
        "spacy": sorted(m for m in sys.modules if m.split(".")[0] in ("spacy", "thinc")),
    }

before = state()
import graphmem
from graphmem import Memory, QueryResult
from graphmem.config import Settings
Memory(Settings(), tune_process=TUNE)
after = state()
print(json.dumps({"before": before, "after": after, "memory": Memory.__module__}))
"""


def _probe(tune: bool) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE.replace("TUNE", str(tune))],
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


@pytest.mark.slow
def test_import_graphmem_and_a_memory_leave_the_process_as_it_was() -> None:
    found = _probe(tune=False)
    assert found["memory"] == "graphmem.memory"  # `from graphmem import Memory` works
    assert found["after"] == found["before"]
    assert found["after"]["spacy"] == []  # spaCy not even imported, so its globals untouched


@pytest.mark.slow
def test_a_tuned_memory_installs_the_import_hook_it_documents() -> None:
    found = _probe(tune=True)
    hooks = set(found["after"]["meta_path"]) - set(found["before"]["meta_path"])
    assert len(hooks) == 1 and "lean_imports" in hooks.pop()
