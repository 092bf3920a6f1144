"""Amory's LLM templates (paper, Appendix A.1), completed and versioned.

The paper gives "a high-level template" of each prompt. The sentences below marked
``# ours`` are our completions: message numbers so answers map back to turns without
copying text exactly, the triple keys semanticization needs (the paper stores triplets but
its template asks only for "fact" and "timestamp"), JSON instead of Python literals (the
client validates JSON), and the Cypher generation prompt, which the paper does not print.
Bump ``PROMPT_VERSION`` in ``config.py`` whenever one of them changes.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

# --- schemas ----------------------------------------------------------------------------


class InitStory(BaseModel):
    owner: str
    topic: str
    content: list[int] = Field(default_factory=list, description="message numbers")  # ours


class InitOut(BaseModel):
    stories: list[InitStory] = Field(default_factory=list)


class Decision(BaseModel):
    message: int = 0  # ours: which new message the excerpt comes from
    message_excerpt: str = ""
    action: str = "create_new_story"  # "extend_story" | "create_new_story"
    topic: str = ""
    owner: str = ""


class BindingOut(BaseModel):
    decisions: list[Decision] = Field(default_factory=list)


class SubstoryOut(BaseModel):
    sub_topic: str
    indice: tuple[int, int]


class ConsolidationOut(BaseModel):
    substories: list[SubstoryOut] = Field(default_factory=list)
    new_topic: str | None = None


class FactOut(BaseModel):
    fact: str
    timestamp: str | None = None
    item: int = 0  # ours
    subject: str = ""  # ours: the triplet the paper stores
    predicate: str = ""
    object: str = ""


class SemanticizationOut(BaseModel):
    facts: list[FactOut] = Field(default_factory=list)


class Choice(BaseModel):
    owner: str = ""
    topic: str


class CoherenceOut(BaseModel):
    choices: list[Choice] = Field(default_factory=list)


class CypherOut(BaseModel):
    cypher: str


# --- templates --------------------------------------------------------------------------

INIT = """You are given a multi-turn, multi-date conversation between two people. The \
conversation may include topic switches, story developments, or new ideas being introduced \
over time.

Your task is to extract and organize the conversation into a list of story threads, where \
each story:
- Belongs to one main owner (the story owner).
- Has a distinct topic or subject.
- Evolves chronologically with unfolding related messages.

For each story, return a dictionary with:
- "owner": the speaker of the story.
- "topic": a title for the story.
- "content": the numbers of its messages, in order.

Very Important:
If a new message connects logically and chronologically to an existing story, expand that \
story in the content. Treat them as separate stories only if they belong to different domains.
Leave out messages that are dialogue filler without factual content.

The conversation:
{conv}

Output format: return JSON {{"stories": [...]}}."""
# ours: "the numbers of its messages" (the paper: "a copy of the message"), the filler line
# (the paper states it for binding), and the JSON wrapper.

BINDING = """You are given:
1. A list of existing stories, each with:
 - "owner": the speaker of the story.
 - "topic": a title for the story
2. A short context window of recent dialogue turns
3. A new turn

Your task:
Use the recent dialogue context only to better understand the new turn. Then, for this new \
message(s) (only when it contains factual information; skip greetings and filler), decide:
 Whether it logically and thematically extends an existing story, OR
 Whether it introduces a new story in which, propose a new owner and a topic for it.
If the new message belongs to a new domain, create a new story instead.
If a message expresses several intents, route each part separately.

Input:

Existing stories:
{headlines}

Recent dialogue context:
{recent_context}

New conversation turn:
{new_conv}

Output format: a list of routing decisions. Each decision is a dictionary with:
- "message": the number of the new message it comes from
- "message_excerpt": a copy of the message, including the timestamp, speaker, and utterance.
- "action": one of "extend_story", "create_new_story"
- If "extend_story": include "topic" and "owner" of the existing story, exactly as listed
- If "create_new_story": include a proposed "topic" and "owner"

Return only JSON {{"decisions": [...]}}. No explanation."""
# ours: "message" numbers, "exactly as listed", the intents line (from the paper's text,
# section 3.2) and the JSON wrapper.

CONSOLIDATION = """You are analyzing the structure of a story composed of memory items.

The current main topic of the story is:
"{main_topic}"

Here are the existing substories:
{substories_text}

Here are the new memory items to analyze:
{new_items_text}

Your tasks:
1. Determine a substory topic that summarizes the new memory items. The topic should be \
specific, informative, and include all the main events.
2. You can include multiple substories if there are various memory items that can't be \
summarized into one substory.
3. It is safe to assume that each substory consists of a continuous block of items.
4. Determine whether the current main topic still conceptually covers all substory topics. \
If not, propose a new, broader or more accurate topic.
5. Return a dictionary with a list of these new substories (with the first and last item \
number of each, inclusive) and the new topic (or null if unchanged).

The return format must be strictly JSON:
{{"substories": [{{"sub_topic": "...", "indice": [start, end]}}], "new_topic": "..." or null}}"""
# ours: "first and last item number ... inclusive", JSON instead of a Python dict.

SEMANTICIZATION = """You are analyzing memory items within the context of a story.

Main story topic:
{main_topic}

Existing substories:
{substories_text}

New memory items:
{new_items_text}

Your task:
Identify memory items that contain facts, but not logically inferable from the main and \
substory topics. These items contain specific facts that are important, but would be \
difficult to retrieve later if only the story headline is used.

Output format: JSON {{"facts": [...]}}, each fact a dictionary with:
- "fact": the summary of important detail
- "timestamp": the timestamp or reference from the memory item
- "item": the number of the memory item
- "subject", "predicate", "object": the fact as a graph triplet

If there are no such items, return {{"facts": []}}. No explanation."""
# ours: "item" and the triplet keys, JSON.

COHERENCE = """You are given a question and a list of story titles. Some of the stories \
may contain sub-stories as additional information. Your task is to select the top {k} \
stories that are most likely to contain information useful for answering the question.

Question:
{question}

Stories:
{headlines}

Output format: JSON {{"choices": [...]}}, a list of choice(s) based on the relevance. Each \
choice is a dictionary with:
* "owner": the owner
* "topic": the topic, exactly as listed

Return only the JSON. No explanation."""
# ours: "exactly as listed", JSON.

CYPHER = """Translate the question into one read-only Cypher query over a Neo4j graph of \
facts from a conversation.

Graph (only these labels, relationship types and properties exist):
(:Fact {{space, id, subject, relation, object, time, text}})
(:Entity {{space, id, name}})
(:Fact)-[:SUBJECT]->(:Entity)
(:Fact)-[:OBJECT]->(:Entity)
(:Entity)-[:SYNONYM]-(:Entity)

Rules:
- Every node pattern must carry its label and the property map {{space: $space}}.
- Use parameters for values: $space, and $names (the lower-cased names in the question);
  no quoted strings, no CALL, no writes.
- Return at most {limit} rows with the column id = the Fact's id: RETURN DISTINCT f.id AS id.

Question: {question}
Names: {names}

Return JSON {{"cypher": "..."}}."""
# ours entirely: the paper says only that the LLM "translates the natural language query
# into graph queries executed over the semantic memory database" (section 3.2).
