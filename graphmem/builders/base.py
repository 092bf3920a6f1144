"""Moved to ``graphmem.plugin.builder`` (the plug-in kit, issue 58): the builder base and its
context. Plug-ins written against ``graphmem.builders.base`` keep working, with a
DeprecationWarning, for one release (a module ``__getattr__``: nothing is imported until a
name is read)."""

from graphmem.process.moved import forward

__getattr__ = forward(__name__, "graphmem.plugin.builder")
