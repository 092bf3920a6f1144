"""What ``graphmem serve`` (HTTP) and ``graphmem mcp`` share: one service over a Memory,
with one confinement, one set of checks and errors, and one order of work."""

from graphmem.serving.service import MemoryService
from graphmem.serving.turns import Turns

__all__ = ["MemoryService", "Turns"]
