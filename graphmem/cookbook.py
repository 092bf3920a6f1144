"""Moved to ``graphmem.graph.cookbook`` (issue 58: the package root shows its layers):
the analyst's recipes. Code written against ``graphmem.cookbook`` keeps working, with a
DeprecationWarning, for one release (a module ``__getattr__``: nothing is imported until a
name is read)."""

from graphmem.process.moved import forward

__getattr__ = forward(__name__, "graphmem.graph.cookbook")
