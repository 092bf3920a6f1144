"""Moved to ``graphmem.plugin.retriever`` (the plug-in kit, issue 58): the retriever base and
its context. Plug-ins written against ``graphmem.retrieval.base`` keep working, with a
DeprecationWarning, for one release (a module ``__getattr__``: nothing is imported until a
name is read)."""

from graphmem.process.moved import forward

__getattr__ = forward(__name__, "graphmem.plugin.retriever")
