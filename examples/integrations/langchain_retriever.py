"""graphmem as a LangChain retriever (pip install 'graphmem[langchain]').

Needs the space `demo` (README "Set-up": the sample conversation, all builders)."""

from graphmem import Memory
from graphmem.integrations.langchain import GraphmemRetriever

with Memory() as memory:
    retriever = GraphmemRetriever(memory=memory, space="demo", budget=300)
    for doc in retriever.invoke("What is the dog's name?")[:4]:
        meta = doc.metadata
        print(f"{meta['kind']:<10} cites {','.join(meta['turns']):<10} {doc.page_content[:60]}")
