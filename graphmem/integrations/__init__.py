"""graphmem inside agent frameworks: one module per framework, each an optional extra.

- ``graphmem.integrations.langchain`` (``pip install 'graphmem[langchain]'``): a
  ``BaseRetriever`` and a ``BaseChatMessageHistory``.
- ``graphmem.integrations.llamaindex`` (``pip install 'graphmem[llamaindex]'``): a
  ``BaseRetriever`` and a ``BaseMemoryBlock``.

Nothing is imported here: ``import graphmem`` never loads a framework, and each module
imports its own only when it is imported itself. See docs/integrations.md.
"""
