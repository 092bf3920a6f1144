"""``code_identity``: the imported package and its checkout's commit, whatever the working
directory (a worktree comparison is read from here)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

import graphmem
from graphmem.eval.code_identity import code_identity


def test_it_names_the_imported_package_and_its_commit(tmp_path: Path) -> None:
    package = Path(graphmem.__file__).resolve().parent
    before = Path.cwd()
    os.chdir(tmp_path)  # not a checkout: the answer must not come from here
    try:
        found = code_identity()
    finally:
        os.chdir(before)
    assert found["path"] == str(package) and found["version"] == graphmem.__version__
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=package, capture_output=True, text=True
    )
    if head.returncode != 0:
        pytest.skip("the package is not in a git checkout here")
    assert found["commit"] == head.stdout.strip()
    assert re.fullmatch(r"[0-9a-f]{7,40}", found["commit"])
    assert isinstance(found["dirty"], bool)
