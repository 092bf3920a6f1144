"""Importing graphmem (the package, the Python API, the integrations package) loads no
agent framework: each adapter module imports its framework only when imported itself."""

from __future__ import annotations

import subprocess
import sys

from tests.paths import ROOT

FRAMEWORKS = ("langchain_core", "langchain", "langgraph", "llama_index")

PROBE = f"""
import sys
import graphmem, graphmem.memory, graphmem.integrations, graphmem.integrations.items
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {FRAMEWORKS!r})
print(",".join(loaded))
"""


def test_importing_graphmem_loads_no_framework() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1"},
    )
    assert done.stdout.strip() == ""


def test_the_adapters_import_against_the_installed_frameworks() -> None:
    probe = (
        "import sys, graphmem.integrations.langchain as a, graphmem.integrations.llamaindex as b;"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'langchain_core','llama_index'}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1"},
    )
    assert done.stdout.strip() == "['langchain_core', 'llama_index']"
