"""spaCy's import leaves torch out (graphmem/process/lean_imports.py): a fresh interpreter each,
since what a process imported cannot be undone."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from graphmem.process.lean_imports import ENV, wanted

_PROBE = """
import sys
from graphmem.process import lean_imports as _lean_imports
_lean_imports.install()  # what the CLI does first (import graphmem alone installs nothing)
from graphmem.nlp import get_nlp
doc = get_nlp()("Caroline went to a support group on 7 May 2023.")
assert [t.pos_ for t in doc][:2] == ["PROPN", "VERB"], [t.pos_ for t in doc]
print("torch" in sys.modules)
import torch  # still importable afterwards (ingest loads sentence-transformers)
print(torch.tensor([1.0]).sum().item())
"""


def _run(extra: dict[str, str]) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != ENV} | extra
    done = subprocess.run(
        [sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.slow
def test_spacy_is_imported_without_torch_and_torch_still_loads_later() -> None:
    assert _run({}) == ["False", "1.0"]


@pytest.mark.slow
def test_the_environment_can_ask_for_torch() -> None:
    assert _run({ENV: "true"}) == ["True", "1.0"]


def test_only_a_yes_asks_for_torch() -> None:
    assert wanted({}) and wanted({ENV: ""}) and wanted({ENV: "false"}) and wanted({ENV: "0"})
    assert not wanted({ENV: "1"}) and not wanted({ENV: " TRUE "}) and not wanted({ENV: "yes"})
