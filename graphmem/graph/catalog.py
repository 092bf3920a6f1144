"""The one place Cypher comes from: ``.cypher`` files, one statement each, loaded by name.

A file ``cypher/core/upsert_passages.cypher`` is the statement ``core.upsert_passages``.
Its header comment declares ``// params: $a, $b`` and ``// returns: x, y``; the loader checks
that the declared parameters are exactly the ones the statement uses, so a header can't rot.

A piece of Cypher that many statements share lives once, as a fragment
``cypher/fragments/<name>.fragment`` (comment lines, then the text), and a statement writes
``@<name>`` where it goes: ``p {@passage}`` is the map of a Passage every reader of turns
gets. Fragments take no parameters and do not nest.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from graphmem.errors import CatalogError

_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_FRAGMENT = re.compile(r"@([A-Za-z_][A-Za-z0-9_]*)")
FRAGMENT_FOLDER = "fragments"


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
    checkout = Path(__file__).resolve().parents[2] / folder  # graphmem/graph/catalog.py
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


def _body(source: str) -> str:
    return "\n".join(ln for ln in source.splitlines() if not ln.strip().startswith("//")).strip()


def expand_fragments(body: str, fragments: Mapping[str, str], path: str = "<string>") -> str:
    """``@name`` -> the text of fragment ``name`` (outside string literals)."""

    def one(match: re.Match[str]) -> str:
        if match.group(1) not in fragments:
            raise CatalogError(f"{path}: no Cypher fragment named {match.group(1)!r}")
        return fragments[match.group(1)]

    out, last = [], 0
    for literal in _STRING.finditer(body):
        out.append(_FRAGMENT.sub(one, body[last : literal.start()]))
        out.append(literal.group(0))
        last = literal.end()
    out.append(_FRAGMENT.sub(one, body[last:]))
    return "".join(out)


def load_fragments(base: Path) -> dict[str, str]:
    """Every ``<base>/fragments/<name>.fragment`` by name, without its comment lines."""
    folder = base / FRAGMENT_FOLDER
    found: dict[str, str] = {}
    for file in sorted(folder.glob("*.fragment")) if folder.is_dir() else []:
        text = " ".join(_body(file.read_text(encoding="utf-8")).split())
        if _PARAM.search(text) or _FRAGMENT.search(text):
            raise CatalogError(f"{file}: a fragment takes no parameters and no fragments")
        found[file.stem] = text
    return found


def parse_statement(
    name: str, source: str, path: str = "<string>", fragments: Mapping[str, str] | None = None
) -> Statement:
    lines = source.splitlines()
    header = [ln for ln in lines if ln.strip().startswith("//")]
    body = expand_fragments(_body(source), fragments or {}, path)
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
    fragments = load_fragments(cypher_root())
    for file in sorted(base.rglob("*.cypher")):
        name = ".".join(prefix + file.relative_to(base).with_suffix("").parts)
        source = file.read_text(encoding="utf-8")
        statements[name] = parse_statement(name, source, str(file), fragments)
    return statements


# Statement folders of plug-in designs that ship outside this repository (prefix -> folder),
# their schema folders (design -> folder, laid out as schema/), and statements generated from
# what the designs declare (name -> source; ``core.label_totals``).
_EXTRA_TREES: dict[str, Path] = {}
_SCHEMA_TREES: dict[str, Path] = {}
_GENERATED: dict[str, str] = {}


def register_tree(prefix: str, folder: Path) -> None:
    """Add a design's own ``.cypher`` folder: ``folder/x.cypher`` becomes ``prefix.x``."""
    if not folder.is_dir():
        raise CatalogError(f"design Cypher folder {folder} does not exist")
    if _EXTRA_TREES.get(prefix) != folder:
        _EXTRA_TREES[prefix] = folder
        load_catalog.cache_clear()


def register_schema(owner: str, folder: Path) -> None:
    """Add a design's schema folder: ``folder/vector/x.cypher`` becomes ``schema.vector.x``."""
    if not folder.is_dir():
        raise CatalogError(f"design {owner}: schema folder {folder} does not exist")
    if _SCHEMA_TREES.get(owner) != folder:
        _SCHEMA_TREES[owner] = folder
        load_catalog.cache_clear()


def register_statement(name: str, source: str) -> None:
    """Add (or replace) a statement generated in code, checked as a file's would be."""
    if _GENERATED.get(name) != source:
        _GENERATED[name] = source
        load_catalog.cache_clear()


@cache
def load_catalog() -> dict[str, Statement]:
    """Every statement: ``cypher/a/b.cypher`` is ``a.b``; ``schema/x/y.cypher`` is
    ``schema.x.y`` (the DDL that ``graphmem init`` applies); a registered design folder's
    files are ``<prefix>.<file>``, its schema folder's ``schema.x.y``; generated statements
    keep their names."""
    out = {**_load_tree(cypher_root(), ()), **_load_tree(schema_root(), ("schema",))}
    extra = [(folder, (prefix,)) for prefix, folder in _EXTRA_TREES.items()]
    extra += [(folder, ("schema",)) for folder in _SCHEMA_TREES.values()]
    fragments = load_fragments(cypher_root())
    for folder, prefix in extra:
        found = _load_tree(folder, prefix)
        clash = [name for name in found if name in out]
        if clash:
            raise CatalogError(f"{folder}: statements {clash} already exist in the catalog")
        out.update(found)
    for name, source in _GENERATED.items():
        if name in out:
            raise CatalogError(f"generated statement {name} also exists as a file")
        out[name] = parse_statement(name, source, f"<generated {name}>", fragments)
    return out


def schema_statements() -> list[str]:
    """DDL names in the order ``init`` applies them: constraints, then indexes."""
    return sorted(name for name in load_catalog() if name.startswith("schema."))


def statement(name: str) -> Statement:
    try:
        return load_catalog()[name]
    except KeyError:
        raise CatalogError(f"no Cypher statement named {name!r} in the catalog") from None
