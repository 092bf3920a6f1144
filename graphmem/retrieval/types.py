"""Moved to ``graphmem.plugin.hits`` (the plug-in kit, issue 58): ``Hit``, ``PassageRef``,
``RetrievalResult``. Plug-ins written against ``graphmem.retrieval.types`` keep working, with
a DeprecationWarning, for one release (a module ``__getattr__``: nothing is imported until a
name is read)."""

from graphmem.process.moved import forward

__getattr__ = forward(__name__, "graphmem.plugin.hits")
