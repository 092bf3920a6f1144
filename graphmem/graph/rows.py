"""Typed rows: a statement's result read into a pydantic model, its columns checked against
the statement's ``// returns:`` header. A statement whose columns drift from its header, or
a model that reads a column the statement does not declare, fails loudly here instead of
as a ``KeyError`` (or a silent ``None``) further down."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from graphmem.errors import CatalogError
from graphmem.graph.catalog import statement
from graphmem.graph.store import GraphStore

M = TypeVar("M", bound=BaseModel)


def check_model(name: str, model: type[BaseModel]) -> tuple[str, ...]:
    """The statement's declared columns; every field of ``model`` must be one of them."""
    declared = statement(name).returns
    unknown = sorted(set(model.model_fields) - set(declared))
    if unknown:
        raise CatalogError(
            f"{model.__name__} reads {unknown}, which statement {name} does not return",
            hint=f"its header declares: {', '.join(declared)}",
        )
    return declared


def typed_rows(name: str, rows: Sequence[Mapping[str, Any]], model: type[M]) -> list[M]:
    """``rows`` of statement ``name`` as ``model`` instances (columns checked, values
    validated)."""
    declared = check_model(name, model)
    out: list[M] = []
    for row in rows:
        if tuple(row) != declared and set(row) != set(declared):
            raise CatalogError(
                f"statement {name} returned columns {list(row)}, its header declares "
                f"{list(declared)}"
            )
        try:
            out.append(model.model_validate(row))
        except ValidationError as exc:
            raise CatalogError(
                f"statement {name}: a row does not fit {model.__name__}: {exc}"
            ) from None
    return out


def read_typed(store: GraphStore, name: str, model: type[M], **params: Any) -> list[M]:
    """``store.read(name, **params)`` as typed rows."""
    return typed_rows(name, store.read(name, **params), model)


T = TypeVar("T")
# Rows per write statement: keeps each transaction bounded on long conversations.
WRITE_CHUNK = 500


def chunks(items: Sequence[T], size: int = WRITE_CHUNK) -> list[list[T]]:
    """``items`` in consecutive slices of at most ``size`` (for ``UNWIND $rows`` writes)."""
    return [list(items[start : start + size]) for start in range(0, len(items), size)]


def native(value: Any) -> Any:
    """A Neo4j temporal value as its Python type (other values unchanged): rows read back
    are compared with the datetimes builders hold."""
    return value.to_native() if hasattr(value, "to_native") else value
