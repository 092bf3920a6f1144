"""The paper's two prompts (Appendix A: Figure 3, Step 1; Figure 4, Step 2) and the pydantic
models their JSON answers validate into.

Changes from the paper, each for a reason: LoCoMo has two speakers, so Step 1 asks for the
information of each speaker and each message shows who said it (the paper's messages come
from one user); values start with the speaker's name, as the paper's own Step 2 example
does ("Jordan buy new drawing tablet"); the example answer's typos ("Subjective_Intermation",
"Be Felt") are corrected, since structured output must match the schema exactly.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

STEP1_PROMPT = """\
# GOAL
Analyze the entire provided <Conversation> to identify all statements revealing personal \
information about the user. The conversation is between two people: treat each speaker as a \
user. Categorize each piece of information as Factual, Experiential, or Subjective, and \
output the results as a single structured JSON object according to the <Final Output JSON \
Format>.

# INFORMATION CATEGORY DEFINITIONS
1. Factual Information: Objective, verifiable facts about the user's state, attributes, \
possessions, knowledge, skills, and relationships with others (family, friends, pets, etc.). \
('What I am / What I have / Who I know')
* Keywords: is, am, have, own, live in, work as, know (skill/fact/person), my \
name/age/job/sister/friend is, etc.
* Examples: "My name is Alex.", "I live in New York.", "I have a Bachelor's degree in CS.", \
"I own two bikes.", "Emily is my sister.", "Luna is my cat.", "I know Python."
2. Experiential Information: Specific events, actions, activities, or interactions \
experienced by the user over time, often situated in a context. ('What I did / What \
happened to me')
* Keywords: went, did, saw, met, visited, learned (an experience), attended, bought (as an \
event), have been, have visited, have tried, have experienced, last year, yesterday, when I \
was..., etc.
* Examples: "I travelled to LA last weekend.", "I've assembled the IKEA bookshelf.", "I've \
been to Japan twice.", "I have met with the CEO.", "I attended the Imagine Dragons concert."
3. Subjective Information: The user's internal states, including preferences, habits, \
opinions, beliefs, goals, plans, feelings, etc. ('What I like / think / want / feel / \
usually do')
* Keywords: like, love, hate, prefer, think, believe, feel, want, plan to, hope to, usually, \
often, my goal is, etc.
* Examples: "I love spicy food.", "I usually wake up at 7 AM.", "I thought that movie was \
great.", "My goal is to learn Spanish.", "I want to visit Europe next year."

# INSTRUCTIONS
1. Carefully read and analyze the entire <Conversation>. <Conversation> consists of \
messages, each containing a [message_id] followed by its content.
2. Identify all specific pieces of information about the user that fall into the Factual, \
Experiential, or Subjective categories based on the definitions above.
3. Format each value as a phrase that starts with a verb in present tense, regardless of \
the original tense in the conversation. Start the value with the name of the speaker it is \
about.
4. For the "date" field:
* For ongoing facts or current states, use the date of the message
* For past events with a specific timeframe mentioned (e.g., "yesterday", "three days \
ago"), calculate and use the actual date based on the message date
* For past events mentioned in the conversation, mark as "Before [message-date]"
* For future plans or intentions, mark as "After [message-date]"
5. Format the output as a single JSON object with three categories: \
"Factual_Information", "Experiential_Information", and "Subjective_Information". Use empty \
lists ([]) for categories with no information.
6. Use the exact same [message_id] as in the original message. Do not include pronouns in \
the value.

# Example
<Conversation>
[msg-301] (2024-05-17 Friday) Alex: I'm living in Rome now with my girlfriend, Hana. We \
moved here last summer because she started grad school at Stanford.
[msg-302] (2024-05-17 Friday) Alex: I quit my job at Coupang in March. I just didn't see \
myself growing there anymore.
[msg-303] (2024-05-17 Friday) Alex: I'm thinking about switching into UX design. I've \
always liked the idea of making tech more human-friendly.
[msg-304] (2024-05-17 Friday) Alex: My brother Junho lives in Seattle. He's an engineer and \
always sends me photos of the mountains.
[msg-305] (2024-05-17 Friday) Alex: I ate chicken with my friends yesterday.
Answer:
{"Factual_Information": [{"key": "current residence", "value": "Alex lives in Rome with \
girlfriend Hana", "message_id": "msg-301", "date": "2024-05-17"}], \
"Experiential_Information": [{"key": "job resignation", "value": "Alex quits job at Coupang \
in March", "message_id": "msg-302", "date": "Before 2024-05-17"}, {"key": "meal with \
friends", "value": "Alex eats chicken with friends", "message_id": "msg-305", "date": \
"2024-05-16"}], "Subjective_Information": [{"key": "career dissatisfaction", "value": "Alex \
feels no growth potential at Coupang", "message_id": "msg-302", "date": "Before \
2024-05-17"}]}

<Conversation>
{conversation}
"""

STEP2_PROMPT = """\
You are an AI assistant analyzing memory fragments to generate insights. Your task is to \
identify patterns and connections from the data provided.
Analyze these fragments and generate insights based on five inference types:
- Extension/Generalization: The process of expanding information from specific cases or \
situations to broader categories, domains, or patterns. This type of inference derives more \
general characteristics or tendencies from concrete information.
- Accumulation: The process of identifying behaviors, experiences, or patterns that repeat \
or persist over time. This type of inference focuses on frequency, consistency, and \
persistence to infer habitual patterns or significant trends.
- Specification/Refinement: The process of breaking down general information into more \
detailed and specific aspects. This type of inference decomposes broad concepts or \
experiences into concrete elements or details.
- Transformation: The process of identifying changes in states, perspectives, emotions, \
behaviors, etc. over time. This type of inference discerns transitions or developments \
between previous and current/new states.
- Connection/Implication: The process of identifying relationships, causality, or meaning \
between seemingly disparate pieces of information. This type of inference discerns \
connections or conclusions not explicitly mentioned.
Your output should be formatted as a JSON object with an "extended_insight" key containing \
an array of inference objects. Each inference object should have the following structure:
{"inference_type": "one of the five inference types", "key": "brief description of the \
insight", "date": "relevant date or date range", "value": "detailed description of the \
insight (12 words or less)"}
Important instructions:
- You do NOT need to use all five inference types. Select only the inference types that \
clearly apply to the data.
- Include multiple different inference types when appropriate, but don't force all five types.
- You may use the same inference type multiple times for different insights if appropriate.
- Focus on quality over quantity - provide meaningful insights based on the data.
- Avoid trivial or insignificant insights - focus only on substantive patterns and \
connections.
<example>
Below are the memory fragments to analyze:
[tech purchase, 2023-03-05]: Jordan buy new drawing tablet
[software usage, 2023-03-07]: Jordan spend three hours learning Procreate app
[online activity, 2023-03-15]: Jordan create account on digital art community DeviantArt
[social media, 2023-03-22]: Jordan share first digital artwork on Instagram
Output:
{"extended_insight": [
{"inference_type": "extension/generalization", "key": "skill development approach", \
"date": "2023-03-05 to 2023-03-22", "value": "Jordan follows a methodical learning approach \
with appropriate tools"},
{"inference_type": "accumulation", "key": "digital art activities", "date": "2023-03-05 to \
2023-03-22", "value": "Jordan engaged in 4 digital art activities within 17 days"},
{"inference_type": "specification/refinement", "key": "artistic medium", "date": \
"2023-03-22", "value": "Jordan uses tablet-based digital illustration with Procreate"},
{"inference_type": "transformation", "key": "identity shift", "date": "Before 2023-03-05 to \
2023-03-22", "value": "Jordan evolved from art appreciator to digital artist"},
{"inference_type": "connection/implication", "key": "artistic background", "date": "Before \
2023-03-05", "value": "Jordan likely has previous art experience"}
]}
</example>
Below are the memory fragments to analyze:
{fragments}
"""


class MemoryItem(BaseModel):
    key: str
    value: str
    message_id: str
    date: str = ""


class ExtractedMemories(BaseModel):
    """Figure 3's answer: three lists, named as the paper names them."""

    model_config = ConfigDict(populate_by_name=True)

    factual: list[MemoryItem] = Field(default_factory=list, alias="Factual_Information")
    experiential: list[MemoryItem] = Field(default_factory=list, alias="Experiential_Information")
    subjective: list[MemoryItem] = Field(default_factory=list, alias="Subjective_Information")


class InsightItem(BaseModel):
    inference_type: str
    key: str
    date: str = ""
    value: str


class ExtendedInsights(BaseModel):
    """Figure 4's answer."""

    extended_insight: list[InsightItem] = Field(default_factory=list)


_TWO_PEOPLE = "The conversation is between two people: treat each speaker as a user."
# A person talking to an AI assistant (graphmem/nlp/roles.py): the paper's own setting, one
# user; the assistant's messages are what the user's are said in answer to.
_WITH_ASSISTANT = (
    "The conversation is between the user ({user}) and an AI assistant ({assistant}): "
    "extract information about the user only; the assistant's messages are context."
)


def step1_prompt(conversation: str, assistant: tuple[str, str] | None = None) -> str:
    """Step 1 for ``conversation``; ``assistant`` = (user, assistant) names of a
    user-assistant conversation."""
    prompt = STEP1_PROMPT.replace("{conversation}", conversation)
    if assistant is None:
        return prompt
    user, bot = assistant
    return prompt.replace(_TWO_PEOPLE, _WITH_ASSISTANT.format(user=user, assistant=bot), 1)


def step2_prompt(fragments: str) -> str:
    return STEP2_PROMPT.replace("{fragments}", fragments)
