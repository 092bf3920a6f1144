"""Notebooks are committed without outputs (so diffs stay readable and no data leaks in)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


def test_the_three_notebooks_exist() -> None:
    names = {path.stem for path in NOTEBOOKS}
    assert {"01_quickstart", "02_compare_designs", "03_explore_memory"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_has_no_outputs_and_a_parameters_cell(path: Path) -> None:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    dirty = [i for i, cell in enumerate(code) if cell.get("outputs") or cell.get("execution_count")]
    assert not dirty, f"{path.name}: code cells {dirty} carry outputs; clear them before committing"
    assert any("parameters" in cell["metadata"].get("tags", []) for cell in code)
