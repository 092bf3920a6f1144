"""Moved to ``graphmem.graph.store``: ``graphmem.store.GraphStore`` (the README's cookbook
line of earlier releases) keeps working, with a DeprecationWarning, for one release (a
module ``__getattr__``: nothing is imported until a name is read)."""

from graphmem.process.moved import forward

__getattr__ = forward(__name__, "graphmem.graph.store")
