"""Moved to ``graphmem.ingest.render`` (issue 58: the package root shows its layers):
``render_turn``. Code written against ``graphmem.turns`` keeps working, with a
DeprecationWarning, for one release (a module ``__getattr__``: nothing is imported until a
name is read)."""

from graphmem.process.moved import forward

__getattr__ = forward(__name__, "graphmem.ingest.render")
