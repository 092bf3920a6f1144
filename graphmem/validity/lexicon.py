"""The words the claim reader (``graphmem.validity.claim_reader``) looks for: each list once,
with why it holds what it holds. Those the ``graphmem.nlp`` rules read too (the second
person, the entity labels of amounts and dates, the weekdays) it reads from
``graphmem.nlp.lexicon`` and ``graphmem.nlp.grounding_rules``, not from here: this module
imports nothing, since the change detector (``validity.detect``) reads it in processes that
never load spaCy."""

from __future__ import annotations

import re

# "user asked: ...", "Maya: ...": the designs' way of saying who said it.
PREFIX = re.compile(
    r"^(?P<who>[^:\n]{1,60}?)(?:\s+(?P<verb>asked|requested|said|added|replied))?:\s+"
)
REPORTED = frozenset({"asked", "requested"})
# The designs' resolutions of relative dates ("lately [before 9 May 2023]", "(May 2023)"):
# the date is ``valid_from``'s business, and its words are no topic or value.
ANNOTATION = re.compile(r"\s*\[[^\]]{1,60}\]|\s*\((?:[^()]*\d{4}[^()]*)\)")
CHANGE = re.compile(
    # "used to" as a past habit, not "getting used to" / "is used to" (accustomed)
    r"(?<!get )(?<!gets )(?<!getting )(?<!got )(?<!be )(?<!is )(?<!am )(?<!are )(?<!was )"
    r"(?<!were )(?<!been )\bused to\b|"
    r"\b(?:no longer|any ?more|switched|switching|changed|quit|quitting|stopped"
    r"|instead|replaced|upgraded|downgraded|moved back|back to|not .{0,20}\bafter all)\b",
    re.IGNORECASE,
)
# A plan (it may be carried out: "plans to open a shop") and a wish (it replaces nothing
# even once it comes true: "would love to take the dogs").
PLAN_VERBS = frozenset(
    {"plan", "intend", "consider", "aim", "try", "think", "expect", "need", "mean"}
)
WISH_VERBS = frozenset(
    {"hope", "want", "wish", "dream", "look", "would", "like", "love", "prefer", "wonder"}
)
MODALS = frozenset({"will", "would", "could", "might", "may", "should", "shall", "'ll", "wo"})
WISH_MODALS = frozenset({"would", "could", "might", "may"})
# spaCy's small model lemmatises "hoping" as "hop": the surface forms of these verbs too.
FORMS = {
    "hoping": "hope",
    "hopes": "hope",
    "hoped": "hope",
    "planning": "plan",
    "plans": "plan",
    "planned": "plan",
    "wants": "want",
    "wanted": "want",
    "wanting": "want",
    "intends": "intend",
    "intending": "intend",
    "considering": "consider",
    "wishing": "wish",
    "aiming": "aim",
    "trying": "try",
    "thinking": "think",
    "meaning": "mean",
}
# Where something under way began and where it came to an end ("just started the trip",
# later "just got back from the trip"): the earlier state ("on the trip") ended.
BEGIN_VERBS = frozenset({"start", "begin"})
END_VERBS = frozenset({"finish", "complete"})
# "got back from", "came back from", "returned from": back from somewhere, it is over.
RETURN_VERBS = frozenset({"get", "come", "return"})
# "currently reading X", later "currently reading Y": things one does one at a time, so
# that another one now ends the earlier ("currently learning Spanish" and "currently
# learning the guitar" both hold). A verb, or a verb and the preposition of its place.
NOW_WORDS = frozenset({"currently", "now"})
NOW_ACTIVITIES = frozenset(
    {"read", "watch", "attend", "date", "drive", "live in", "work at", "work for", "study at"}
)
# "has 37 coins", "has got 20 titles", "owns 3 guitars": one state, whichever verb says it.
POSSESSING = {"get": "have", "own": "have", "keep": "have"}
# A number of these is a duration ("spent 5 hours"), not a count of things one has.
_TIME_UNITS = """second minute hour day night week weekend month year decade time"""
TIME_UNITS = frozenset(_TIME_UNITS.split())
# Words that open a sentence and say nothing of it ("By the way, user has ...", "Oh and
# user ..."), which the small parser reads as part of the clause. "Speaking of the garden,"
# says where, so it stays; a bare "And" or "Plus" before a capital may open a title ("And
# Then There Were None").
OPENERS = re.compile(
    r"^(?:(?i:by the way|btw|oh|ah|well|anyway|so|speaking of (?:which|that|this))\s*[,!]\s+"
    r"|(?i:and|but|also|plus|actually|btw|oh)\s*,?\s+(?=[a-z]))+"
)
# Not done yet, whatever the tense: "can finish", "must finish", "will finish".
HEDGING_MODALS = MODALS | {"can", "ca", "must"}
# The modals of what is to come, not of what may be.
FUTURE_MODALS = frozenset({"will", "'ll"})
# A condition or a time still to come: "once user finishes", "when user gets back".
HEDGING_MARKS = frozenset({"if", "unless", "once", "when", "until", "before", "after"})
# What one asks of the listener ("needs your help"): a request, no lasting state.
_REQUESTS = """help advice thoughts thought feedback opinion input suggestion suggestions
    recommendation recommendations assistance guidance support"""
REQUEST_NOUNS = frozenset(_REQUESTS.split())
# Groups a person belongs to: "user's band plays three times a week" is the band's state.
GROUP_WORDS = frozenset({"band", "team", "family", "group", "class", "club", "crew", "choir"})
# Kin the person words of graphmem.nlp.people leave out: "user's grandparents live in
# Orlando" is theirs, not the user's home.
KIN_WORDS = frozenset(
    {
        "parent", "grandparent", "grandchild", "grandson", "granddaughter", "sibling",
        "spouse", "relative", "twin", "stepmother", "stepfather", "stepson", "stepdaughter",
        "in-law",
    }
)  # fmt: skip
# Verbs that report what someone thinks or says: the claim is the reported clause.
REPORTING = frozenset(
    {"think", "say", "tell", "suggest", "believe", "mention", "recommend", "realize", "notice"}
)
# The subject of a remark on what went before ("... - it's crazy how time flies!").
REMARK_SUBJECTS = frozenset({"it", "that", "this"})
SHOWING = frozenset({"share", "show", "send", "post", "take"})
PICTURES = frozenset({"photo", "picture", "pic", "image", "selfie", "snapshot", "photograph"})
_DETERMINERS = "a an the this that these those some any my our your his her their its"
ARTICLES = frozenset(_DETERMINERS.split())
_NUMBERS = """one two three four five six seven eight nine ten eleven twelve thirteen fourteen
    fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy
    eighty ninety hundred thousand few several many"""
AMOUNTS = frozenset(_NUMBERS.split())
# What the number words are worth: one to nineteen, then the tens.
NUMBER_VALUES = {w: n for n, w in enumerate(_NUMBERS.split()[:19], start=1)} | {
    w: 20 + 10 * n for n, w in enumerate(_NUMBERS.split()[19:27])
}
# Words an amount in front of a thing's key may start with ("six bowls", "a bowl", "the
# first bowl"): ``detect.bare`` drops them to compare the thing itself.
_LEADING = """a an one two three four five six seven eight nine ten eleven twelve fifteen twenty
    thirty forty fifty hundred few several many some first second third"""
LEADING_AMOUNTS = frozenset(_LEADING.split())
FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our"})
_PRONOUNS = """he she they it him her them this that these those you one someone everyone who
    which what"""
UNRESOLVED = frozenset(_PRONOUNS.split())
# The subject of a relative clause, which tells of the noun it follows ("yoga classes,
# which is three times a week").
RELATIVE_PRONOUNS = frozenset({"which", "that", "who", "whom"})
NUMERIC = frozenset({"CARDINAL", "QUANTITY", "MONEY", "PERCENT", "TIME", "ORDINAL"})
PLACES = frozenset({"GPE", "LOC", "FAC"})
NAMES = frozenset({"ORG", "PRODUCT", "WORK_OF_ART", "NORP"})
FREQ = re.compile(
    r"\b(?:once|twice|thrice|(?:\w+|\d+)\s+times?)\s+(?:a|an|per|every|each)\s+"
    r"(?:day|week|month|year|fortnight)\b",
    re.IGNORECASE,
)
CLOCK = re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\b")
HEDGES = re.compile(r"^(?:about|around|approximately|roughly|nearly|almost|over|under)\s+")
# Calling a plan off or moving it ("cancelled the trip", "postponed the party", "pushed
# back the launch"): what was planned no longer holds as it was said.
DROP_VERBS = frozenset(
    {"cancel", "postpone", "reschedule", "delay", "scrap", "call", "put", "push"}
)
# The particle that makes the phrasal ones a drop: "called off", "put off", "pushed back".
DROP_PARTICLES = {"call": "off", "put": "off", "push": "back"}
# Where one lives and where one works: one value at a time, so another one said later
# replaces the earlier ("lives in Boston", later "moved to Denver").
HOME_VERBS = {"live": "in", "move": "to", "relocate": "to", "settle": "in"}
# Verbs that put a thing somewhere, and the prepositions of where ("moved the painting
# above the bed", "keeps the bike in the garage").
PLACING_VERBS = frozenset({"move", "put", "hang", "place", "keep", "store", "leave", "set"})
PLACE_PREPOSITIONS = frozenset({"above", "under", "in", "into", "on", "onto", "behind", "beside"})
JOB_VERBS = {"work": ("at", "for"), "hire": ("by", "at"), "employ": ("by", "at")}
JOB_NOUNS = frozenset({"job", "position", "role", "internship"})
# Spans of time a state has lasted ("for 6 months now") in days, to tell which is longer.
SPAN_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365, "decade": 3650}
# The periods a rate is per ("an hour each day", "twice a week").
PERIODS = frozenset({"day", "week", "month", "year", "weekend", "morning", "evening", "night"})
# What makes a weekday a habit, not one date: "on Fridays", "every Friday", "usually".
HABIT_WORDS = frozenset(
    {"every", "each", "usually", "always", "normally", "typically", "regularly"}
)
# Where a question starts inside a turn that first tells something ("By the way, I've
# been using my Fitbit for 6 months now - speaking of which, do you have any tips?"):
# what comes before it is told, not asked.
QUESTION_OPENER = re.compile(
    r"(?:[,;:]|\s[-–—]|\.)\s+(?:(?:and|but|so|speaking of (?:which|that)|by the way),?\s+)?"
    r"(?=(?:do|does|did|can|could|would|will|should|is|are|any|what|how|which|where|who|why)"
    r"\s+(?:assistant|you|there|user|it|i|anyone|some|the|a)\b)",
    re.IGNORECASE,
)
# A rank one holds one at a time ("Premier Silver status", later "Premier Gold status";
# "a blue belt", later "a purple belt"): the words in front say which.
RANK_NOUNS = frozenset({"status", "belt", "rank", "tier", "level", "league", "division"})
# "get back to X", "work on X": a plan or a start about X, said through a preposition.
THING_PREPOSITIONS = frozenset({"to", "on"})
