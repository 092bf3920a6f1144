"""Moved to ``graphmem.plugin.configure`` (the plug-in kit, issue 58): ``DesignConfigs``.
Plug-ins written against ``graphmem.designs.configure`` keep working, with a
DeprecationWarning, for one release (a module ``__getattr__``: nothing is imported until a
name is read)."""

from graphmem.process.moved import forward

__getattr__ = forward(__name__, "graphmem.plugin.configure")
