"""Fetch a Neo4j Community 5.26 server and the open GDS plugin from Maven Central with mvn.

The result is a folder per version pair, ``<cache>/neo4j-<v>-gds-<v>/`` holding ``lib/`` (the
server's jars, as a real install has them) and ``plugins/`` (GDS and what it needs beyond
``lib/``). Jars keep their manifests unshaded because GDS reads Neo4j's version from them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from graphmem.config import Settings
from graphmem.errors import ServerError

_MARKER = "runtime.json"


@dataclass(frozen=True)
class Runtime:
    root: Path

    @property
    def lib(self) -> Path:
        return self.root / "lib"

    @property
    def plugins(self) -> Path:
        return self.root / "plugins"

    @property
    def classpath(self) -> str:
        return f"{self.lib}/*:{self.plugins}/*"

    def is_complete(self) -> bool:
        return (self.root / _MARKER).is_file()

    def info(self) -> dict[str, object]:
        data: dict[str, object] = json.loads((self.root / _MARKER).read_text())
        return data


def _pom(name: str) -> Path:
    return Path(str(resources.files("graphmem.server") / "poms" / name))


def run_mvn(settings: Settings, args: list[str], what: str) -> None:
    """Run mvn in batch mode with ``args``; a missing mvn or a failed fetch is a
    ``ServerError`` naming ``what`` with mvn's last lines. Every Maven fetch goes through
    here (the server's jars, the embedding models' jars)."""
    cmd = [settings.mvn, "-q", "-B", *args]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, check=False)
    except FileNotFoundError:
        raise ServerError(
            f"mvn not found ({settings.mvn!r})",
            hint="install Maven (apt-get install -y maven) or set GRAPHMEM_MVN",
        ) from None
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-20:])
        raise ServerError(f"mvn could not fetch {what}:\n{tail}")


def _copy_dependencies(settings: Settings, pom: Path, out: Path) -> None:
    args = [
        "-f",
        str(pom),
        f"-Dneo4j.version={settings.neo4j_version}",
        f"-Dbrowser.version={settings.browser_version}",
        f"-Dgds.version={settings.gds_version}",
        "dependency:copy-dependencies",
        "-DincludeScope=runtime",
        # group-prefixed, version-less names: two artifacts may share an artifactId
        # (org.neo4j:annotations vs org.neo4j.gds:annotations) and the plugin folder is
        # de-duplicated against lib/ by file name.
        "-Dmdep.prependGroupId=true",
        "-Dmdep.stripVersion=true",
        f"-DoutputDirectory={out}",
    ]
    run_mvn(settings, args, pom.name)


def fetch_runtime(settings: Settings, *, force: bool = False) -> tuple[Runtime, float]:
    """Return the runtime folder, fetching it first when absent. Also returns the seconds
    spent fetching (0.0 when the cached copy was reused)."""
    runtime = Runtime(settings.runtime_dir)
    if runtime.is_complete() and not force:
        return runtime, 0.0
    started = time.monotonic()
    staging = runtime.root.with_name(runtime.root.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    (staging / "lib").mkdir(parents=True)
    _copy_dependencies(settings, _pom("neo4j.xml"), staging / "lib")
    _copy_dependencies(settings, _pom("gds.xml"), staging / "plugins")
    server_jars = {p.name for p in (staging / "lib").glob("*.jar")}
    for jar in (staging / "plugins").glob("*.jar"):
        if jar.name in server_jars:
            jar.unlink()
    elapsed = time.monotonic() - started
    marker = {
        "neo4j": settings.neo4j_version,
        "gds": settings.gds_version,
        "browser": settings.browser_version,
        "fetch_seconds": round(elapsed, 1),
    }
    (staging / _MARKER).write_text(json.dumps(marker, indent=2))
    # Swap in whole: a crash mid-fetch leaves only the .partial folder, never a half runtime.
    shutil.rmtree(runtime.root, ignore_errors=True)
    staging.rename(runtime.root)
    return runtime, elapsed
