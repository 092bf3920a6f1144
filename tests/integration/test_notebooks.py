"""The notebooks run top to bottom (nbclient, a real kernel) on the sample data, each in its
own space, with the parameters cell overridden the way papermill would. No cell writes to
stderr (a warning, a log line, a progress bar), and every figure a notebook draws passes
tests/figure_check.py (no overlapping or cut texts, a legend for several colours, percent
axes in percent), checked in the kernel on the drawn figures, which are saved as PNGs."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from graphmem.config import Settings
from graphmem.graph.store import GraphStore

pytestmark = [pytest.mark.integration, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"


# Appended to each notebook: the figures it left open (the Agg backend closes none), checked
# and saved, as one JSON line on stdout.
_CHECK = """
import json as _json
import matplotlib.pyplot as _plt
from tests.figure_check import problems as _problems
_report = []
for _number in _plt.get_fignums():
    _figure = _plt.figure(_number)
    _png = f"{folder}/{name}-{{_number}}.png"
    _figure.savefig(_png)
    _report.append({{"png": _png, "problems": _problems(_figure)}})
print(_json.dumps(_report))
"""


def _run(
    name: str, overrides: dict[str, object], monkeypatch: pytest.MonkeyPatch, folder: Path
) -> list[dict[str, object]]:
    """Run the notebook; its figures' reports (each ``png`` and its ``problems``)."""
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    at = next(
        i for i, cell in enumerate(notebook.cells) if "parameters" in cell.metadata.get("tags", [])
    )
    lines = "\n".join(f"{key} = {value!r}" for key, value in overrides.items())
    notebook.cells.insert(at + 1, nbformat.v4.new_code_cell(lines))
    notebook.cells.append(nbformat.v4.new_code_cell(_CHECK.format(folder=folder, name=name)))
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
    said = [
        f"cell {i}: {out.get('text', '')[:300]}"
        for i, cell in enumerate(notebook.cells)
        for out in cell.get("outputs", [])
        if out.get("output_type") == "stream" and out.get("name") == "stderr"
    ]
    assert not said, f"{name} wrote to stderr:\n" + "\n".join(said)
    # The kernel may send one print as several stream messages ("[...]", then "\n").
    printed = "".join(
        out.get("text", "")
        for out in notebook.cells[-1].outputs
        if out.get("output_type") == "stream" and out.get("name") == "stdout"
    )
    report: list[dict[str, object]] = json.loads(printed)
    return report


def _readable(report: list[dict[str, object]], figures: int) -> None:
    assert len(report) == figures, [r["png"] for r in report]
    bad = {str(r["png"]): r["problems"] for r in report if r["problems"]}
    assert not bad, f"unreadable figures: {json.dumps(bad, indent=1)}"


def _gone(store: GraphStore, space: str) -> bool:
    return store.read("core.space_counts", space=space) == []


def test_quickstart_runs(
    settings: Settings, store: GraphStore, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    space = f"test-nb-{uuid.uuid4().hex[:8]}"
    report = _run("01_quickstart", {"SPACE": space}, monkeypatch, tmp_path)
    assert _gone(store, space)
    _readable(report, figures=1)


def test_compare_designs_runs_on_the_sample(
    settings: Settings, store: GraphStore, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    prefix = f"test-nb-{uuid.uuid4().hex[:8]}"
    # Two budgets: the recall chart then has two colours, so it needs its legend.
    overrides = {"SPACE_PREFIX": prefix, "BUDGETS": [250, 1000]}
    report = _run("02_compare_designs", overrides, monkeypatch, tmp_path)
    assert _gone(store, f"{prefix}-maya-and-tom")
    _readable(report, figures=2)


def test_explore_memory_runs(
    settings: Settings, store: GraphStore, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    space = f"test-nb-{uuid.uuid4().hex[:8]}"
    report = _run("03_explore_memory", {"SPACE": space}, monkeypatch, tmp_path)
    assert _gone(store, space)
    _readable(report, figures=1)
