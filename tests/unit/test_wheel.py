"""The wheel: built from this checkout as pip builds it (hatchling, no network), it carries
every statement the catalog loads and every design's schema, and nothing of the benchmarks
or the tests. An installed graphmem has no checkout to fall back on (``catalog._root``)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_STATEMENTS = (".cypher", ".fragment")
# The unpacked wheel's catalog: every statement by name, and where it read them from.
_PROBE = """
import json
from graphmem.graph.catalog import cypher_root, load_catalog, schema_root
from graphmem.plugin.registry import registry

designs = registry()  # registers the designs' own folders and the generated statements
print(json.dumps({
    "statements": sorted(load_catalog()),
    "roots": [str(cypher_root()), str(schema_root())],
    "folders": [str(f) for d in designs.values() for f in (d.cypher_dir, d.schema_dir) if f],
}))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if importlib.util.find_spec("hatchling") is None:
        pytest.fail("the build backend is missing: pip install -e '.[dev]' (it lists hatchling)")
    out = tmp_path_factory.mktemp("wheel")
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    command += ["--no-index", "--disable-pip-version-check", "-q", "-w", str(out), str(ROOT)]
    subprocess.run(command, check=True, capture_output=True, text=True, timeout=300)
    (built,) = out.glob("graphmem-*.whl")
    return built


def _files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def test_the_wheel_holds_every_statement_and_schema_file(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("cypher", "schema"):
        wanted = {f for f in _files(ROOT / folder) if f.endswith(_STATEMENTS)}
        assert wanted, folder
        packed = {n.removeprefix(f"graphmem/_{folder}/") for n in names}
        assert wanted <= packed, sorted(wanted - packed)


def test_the_wheel_holds_no_benchmark_and_no_test(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.split("/")[0] in ("benchmarks", "tests")]
    bench = {p.name for p in (ROOT / "benchmarks" / "cypher").glob("*.cypher")}
    assert bench  # the benchmarks' own statements (bench.*), which stay in the repository
    packed = [n for n in names if n.startswith("graphmem/_cypher/")]
    assert not [n for n in packed if "bench" in n.split("/") or n.rsplit("/", 1)[-1] in bench]


def test_the_unpacked_wheel_loads_the_checkouts_catalog(wheel: Path, tmp_path: Path) -> None:
    """Imported from the unpacked wheel (outside this checkout: ``python -c`` puts the
    working directory first on the path), the catalog reads the packaged folders and holds
    every statement the checkout's does, every design's own folders included."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(site), "HF_HUB_OFFLINE": "1"}
    run = [sys.executable, "-c", _PROBE]
    found = json.loads(
        subprocess.run(run, cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
        .stdout.strip()
        .splitlines()[-1]
    )
    assert all(Path(p).is_relative_to(site) for p in found["roots"] + found["folders"])
    here = subprocess.run(
        [sys.executable, "-c", _PROBE],
        cwd=ROOT,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert found["statements"] == json.loads(here.stdout.strip().splitlines()[-1])["statements"]
