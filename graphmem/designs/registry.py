"""Moved to ``graphmem.plugin.registry`` (the plug-in kit, issue 58): ``register`` and the
registry's look-ups. Plug-ins written against ``graphmem.designs.registry`` keep working,
with a DeprecationWarning, for one release (a module ``__getattr__``: nothing is imported
until a name is read)."""

from graphmem.process.moved import forward

__getattr__ = forward(__name__, "graphmem.plugin.registry")
