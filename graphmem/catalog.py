"""The one place Cypher comes from: ``.cypher`` files, one statement each, loaded by name.

A file ``cypher/core/upsert_passages.cypher`` is the statement ``core.upsert_passages``.
Its header comment declares ``// params: $a, $b`` and ``// returns: x, y``; the loader checks
that the declared parameters are exactly the ones the statement uses, so a header can't rot.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from graphmem.errors import CatalogError

_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


@dataclass(frozen=True)
class Statement:
    name: str
    text: str
    params: frozenset[str]
    returns: tuple[str, ...]
    path: str


def _root(folder: str) -> Path:
    """Installed wheels carry ``cypher/`` and ``schema/`` as ``graphmem/_cypher`` and
    ``graphmem/_schema``; a checkout reads the top-level folders."""
    packaged = Path(str(resources.files("graphmem"))) / f"_{folder}"
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parent.parent / folder
    if checkout.is_dir():
        return checkout
    raise CatalogError(f"no {folder}/ directory found next to the graphmem package")


def cypher_root() -> Path:
    return _root("cypher")


def schema_root() -> Path:
    return _root("schema")


def _header_list(lines: list[str], key: str) -> list[str] | None:
    for line in lines:
        body = line.lstrip("/").strip()
        if body.lower().startswith(key + ":"):
            items = body.split(":", 1)[1].strip()
            if items in ("", "-", "none"):
                return []
            return [item.strip().lstrip("$") for item in items.split(",") if item.strip()]
    return None


def parse_statement(name: str, source: str, path: str = "<string>") -> Statement:
    lines = source.splitlines()
    header = [ln for ln in lines if ln.strip().startswith("//")]
    body = "\n".join(ln for ln in lines if not ln.strip().startswith("//")).strip()
    if not body:
        raise CatalogError(f"{path}: no statement after the header")
    if body.rstrip(";").count(";"):
        raise CatalogError(f"{path}: one statement per file (found ';' inside)")
    declared = _header_list(header, "params")
    returns = _header_list(header, "returns")
    if declared is None or returns is None:
        raise CatalogError(f"{path}: header must list '// params:' and '// returns:'")
    used = set(_PARAM.findall(_STRING.sub("''", body)))
    if used != set(declared):
        raise CatalogError(
            f"{path}: header params {sorted(declared)} differ from used params {sorted(used)}"
        )
    return Statement(name, body.rstrip(";"), frozenset(used), tuple(returns), path)


def _load_tree(base: Path, prefix: tuple[str, ...]) -> dict[str, Statement]:
    statements: dict[str, Statement] = {}
    for file in sorted(base.rglob("*.cypher")):
        name = ".".join(prefix + file.relative_to(base).with_suffix("").parts)
        statements[name] = parse_statement(name, file.read_text(encoding="utf-8"), str(file))
    return statements


# Statement folders of plug-in designs that ship outside this repository (prefix -> folder).
_EXTRA_TREES: dict[str, Path] = {}


def register_tree(prefix: str, folder: Path) -> None:
    """Add a design's own ``.cypher`` folder: ``folder/x.cypher`` becomes ``prefix.x``."""
    if not folder.is_dir():
        raise CatalogError(f"design Cypher folder {folder} does not exist")
    if _EXTRA_TREES.get(prefix) != folder:
        _EXTRA_TREES[prefix] = folder
        load_catalog.cache_clear()


@cache
def load_catalog() -> dict[str, Statement]:
    """Every statement: ``cypher/a/b.cypher`` is ``a.b``; ``schema/x/y.cypher`` is
    ``schema.x.y`` (the DDL that ``graphmem init`` applies); a registered design folder's
    files are ``<prefix>.<file>``."""
    out = {**_load_tree(cypher_root(), ()), **_load_tree(schema_root(), ("schema",))}
    for prefix, folder in _EXTRA_TREES.items():
        clash = [name for name in _load_tree(folder, (prefix,)) if name in out]
        if clash:
            raise CatalogError(f"{folder}: statements {clash} already exist in the catalog")
        out.update(_load_tree(folder, (prefix,)))
    return out


def schema_statements() -> list[str]:
    """DDL names in the order ``init`` applies them: constraints, then indexes."""
    return sorted(name for name in load_catalog() if name.startswith("schema."))


def statement(name: str) -> Statement:
    try:
        return load_catalog()[name]
    except KeyError:
        raise CatalogError(f"no Cypher statement named {name!r} in the catalog") from None
