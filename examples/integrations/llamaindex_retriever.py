"""graphmem as a LlamaIndex retriever and memory block (pip install 'graphmem[llamaindex]').

Needs the space `demo` (README "Set-up": the sample conversation, all builders)."""

import asyncio

from llama_index.core.base.llms.types import ChatMessage

from graphmem import Memory
from graphmem.integrations.llamaindex import GraphmemMemoryBlock, GraphmemRetriever

with Memory() as memory:
    retriever = GraphmemRetriever(memory, "demo", budget=300)
    for hit in retriever.retrieve("Where is Maya moving?")[:4]:
        meta = hit.node.metadata
        print(f"{meta['kind']:<10} cites {','.join(meta['turns']):<10} {hit.node.text[:60]}")

    # The block a llama_index.core.memory.Memory reads as long-term memory: the cited
    # context for the latest message (aput would append flushed messages to the session).
    block = GraphmemMemoryBlock(memory=memory, space="demo", conversation="c", session="s")
    asked = [ChatMessage(role="user", content="What breed is Biscuit?")]
    print(asyncio.run(block.aget(asked))[:300])
