"""Moved to ``graphmem.plugin.design`` (the plug-in kit, issue 58): the design record, its
settings base and presets. Plug-ins written against ``graphmem.designs.base`` keep working,
with a DeprecationWarning, for one release (a module ``__getattr__``: nothing is imported
until a name is read)."""

from graphmem.process.moved import forward

__getattr__ = forward(__name__, "graphmem.plugin.design")
