"""A LangChain chat history stored as graphmem turns (pip install 'graphmem[langchain]'):
each write goes through Memory.add_messages and runs the builders; the retriever then cites
the new turns. Writes to the space `integrations-demo` (`graphmem forget --space
integrations-demo --yes` removes it)."""

from langchain_core.messages import AIMessage, HumanMessage

from graphmem import Memory
from graphmem.integrations.langchain import GraphmemChatHistory, GraphmemRetriever

with Memory() as memory:
    history = GraphmemChatHistory(memory, "integrations-demo", "chat-42", "2024-06-01")
    if not history.messages:  # a second run finds the session stored
        history.add_messages(
            [
                HumanMessage("My sister Lena just moved to Toronto for a robotics job."),
                AIMessage("That's exciting! Is she enjoying it?"),
                HumanMessage("Yes, she loves the lab, but misses our dog Biscuit."),
            ]
        )
    print([(m.type, m.id) for m in history.messages])
    retriever = GraphmemRetriever(memory=memory, space="integrations-demo", budget=200)
    for doc in retriever.invoke("Where does Lena live now?")[:3]:
        print(doc.metadata["kind"], doc.metadata["turns"], doc.page_content[:60])
