"""The notebooks run top to bottom (nbclient, a real kernel) on the sample data, each in its
own space, with the parameters cell overridden the way papermill would."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from graphmem.config import Settings
from graphmem.store import GraphStore

pytestmark = [pytest.mark.integration, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"


def _run(name: str, overrides: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> None:
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    at = next(
        i for i, cell in enumerate(notebook.cells) if "parameters" in cell.metadata.get("tags", [])
    )
    lines = "\n".join(f"{key} = {value!r}" for key, value in overrides.items())
    notebook.cells.insert(at + 1, nbformat.v4.new_code_cell(lines))
    # The kernel imports this checkout and reaches the same server as the fixtures.
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    )
    monkeypatch.setenv("MPLBACKEND", "Agg")
    client = NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    client.execute()


def _gone(store: GraphStore, space: str) -> bool:
    return store.read("core.space_counts", space=space) == []


def test_quickstart_runs(
    settings: Settings, store: GraphStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    space = f"test-nb-{uuid.uuid4().hex[:8]}"
    _run("01_quickstart", {"SPACE": space}, monkeypatch)
    assert _gone(store, space)


def test_compare_designs_runs_on_the_sample(
    settings: Settings, store: GraphStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    prefix = f"test-nb-{uuid.uuid4().hex[:8]}"
    _run("02_compare_designs", {"SPACE_PREFIX": prefix, "BUDGETS": [250]}, monkeypatch)
    assert _gone(store, f"{prefix}-maya-and-tom")


def test_explore_memory_runs(
    settings: Settings, store: GraphStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    space = f"test-nb-{uuid.uuid4().hex[:8]}"
    _run("03_explore_memory", {"SPACE": space}, monkeypatch)
    assert _gone(store, space)
