"""Keeps PyTorch out of spaCy's import.

spaCy imports thinc, and ``thinc.compat`` imports torch whenever it is installed, to offer
its PyTorch wrappers. The English pipelines the project uses (``en_core_web_sm`` and its
PyPI copy) are thinc networks on NumPy and never call torch, yet the import alone costs a
query process about 2.5 s and a few hundred MB: most of a one-shot ``graphmem query``
once the question's embedding runs on ONNX Runtime (``graphmem/embed/minilm_onnx.py``).

``install()`` puts a finder in front of the import
system that, only for ``thinc.compat`` and only while torch is not imported yet, runs that
module with torch marked as absent, then takes the mark away: a later ``import torch``
(sentence-transformers at ingest) loads it as usual, and thinc keeps saying it has no
PyTorch, which pipelines on NumPy never ask. A pipeline that runs on PyTorch (a
transformer pipeline) needs thinc to see it: ``GRAPHMEM_SPACY_TORCH=true`` in the
environment before the process starts (read here, at import, since the decision is made
before any settings exist) leaves the import alone.

A finder in ``sys.meta_path`` is a process-wide change, so ``import graphmem`` does not
install it: the ``graphmem`` CLI does, first thing (``graphmem/cli/main.py``), and so does
``Memory(..., tune_process=True)`` (effective when spaCy is not imported yet).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Sequence
from types import ModuleType

_TARGET = "thinc.compat"
ENV = "GRAPHMEM_SPACY_TORCH"
_YES = {"1", "true", "yes", "on"}


class _WithoutTorch(importlib.abc.Loader):
    """Runs the wrapped loader's module with ``sys.modules["torch"] = None`` (what makes
    ``import torch`` raise ImportError), then removes that entry again."""

    def __init__(self, inner: importlib.abc.Loader) -> None:
        self._inner = inner

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._inner.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        hidden = "torch" not in sys.modules
        if hidden:
            sys.modules["torch"] = None  # type: ignore[assignment]
        try:
            self._inner.exec_module(module)
        finally:
            if hidden and "torch" in sys.modules and sys.modules["torch"] is None:
                del sys.modules["torch"]


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != _TARGET:
            return None
        uninstall()  # one module, once
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None or "torch" in sys.modules:
            return spec
        spec.loader = _WithoutTorch(spec.loader)
        return spec


_FINDER = _Finder()


def wanted(environ: dict[str, str] | None = None) -> bool:
    """Whether torch is kept out: unless ``GRAPHMEM_SPACY_TORCH`` says yes."""
    value = (environ if environ is not None else os.environ).get(ENV, "")
    return value.strip().lower() not in _YES


def install() -> None:
    """In front of the import system, unless thinc was imported already (nothing to do) or
    the environment asks for torch."""
    if _TARGET in sys.modules or _FINDER in sys.meta_path or not wanted():
        return
    sys.meta_path.insert(0, _FINDER)


def uninstall() -> None:
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
