"""Neo4j Browser assets: a graph style (generated from the designs' declared styles,
graphmem/browser/style.py) and a guide (``guide.html`` with a generated legend), served on
the loopback interface with the CORS headers the Browser needs to fetch them."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from pydantic import BaseModel

from graphmem.browser.style import grass, label_counts_query, legend_html
from graphmem.config import Settings

if TYPE_CHECKING:
    from graphmem.graph.store import GraphStore

GUIDE_PATHS = ("/graphmem", "/graphmem.html")
STYLE_PATH = "/graphmem.grass"
_PRE = re.compile(r"<pre([^>]*)>(.*?)</pre>", re.S)
_REQUIRES = re.compile(r'data-requires="([^"]*)"')
_PARAM = re.compile(r"^:param (\w+) => (.+)$")
_SLIDE = re.compile(r"<slide[^>]*>(.*?)</slide>", re.S)


class GuideQuery(BaseModel):
    """One runnable block of the guide: a Cypher query or a Browser command (``:...``)."""

    text: str
    requires: list[str]

    @property
    def is_command(self) -> bool:
        return self.text.startswith(":")


def asset(name: str) -> Path:
    return Path(str(resources.files("graphmem.browser") / name))


def guide_port(settings: Settings) -> int:
    """The guide server listens next to the Browser: its HTTP port + 2 (7476 by default)."""
    return settings.http_port + 2


def guide_base(settings: Settings, port: int | None = None) -> str:
    # `localhost`, not 127.0.0.1: the Browser's default allow-list names localhost.
    return f"http://localhost:{port or guide_port(settings)}"


def allowed_guide_hosts(settings: Settings) -> str:
    """``browser.remote_content_hostname_whitelist`` of the local server: the defaults, the
    loopback address, and the guide server's origin so that ``:play graphmem`` finds it."""
    return f"guides.neo4j.com,localhost,127.0.0.1,{guide_base(settings)}"


def browser_url(settings: Settings, base: str) -> str:
    """The Browser, opening the guide on start (the Browser's ``cmd``/``arg`` parameters)."""
    return (
        f"http://127.0.0.1:{settings.http_port}/browser/"
        f"?cmd=play&arg={quote(base + GUIDE_PATHS[0], safe='')}"
    )


# The guide's "why" slide: a question and the turns `graphmem query QUESTION --budget
# QUESTION_BUDGET` cites for it (a small budget keeps the answer's turns, not the whole
# sample).
QUESTION_BUDGET = 60
Cite = Callable[[str], list[str]]


class GuideExamples(BaseModel):
    """The values the guide's slides start with: the sample's unless the space has others.
    ``cited`` is what ``graphmem query "Where is Maya moving?" --space demo --budget 60
    --json`` cites on the sample (tests/integration/browser/test_browser.py runs it)."""

    character: str = "Maya"
    entity: str = "Biscuit"
    question: str = "Where is Maya moving?"
    cited: list[str] = ["s3:1", "s3:3"]


def space_examples(store: GraphStore, space: str, cite: Cite | None = None) -> GuideExamples:
    """The space's own examples: its busiest character, its most mentioned entity (one with
    facts that is not a character first), and the turns ``cite`` (a query of the space)
    gives for the question; the sample's question when the space has its character, else
    one about its own character and entity."""
    found = GuideExamples()
    characters = [row["character"] for row in store.read("analyst.busiest_characters", space=space)]
    entities = store.read("analyst.top_entities", space=space)
    if characters:
        found.character = characters[0]
    # The entity slide follows facts about a thing or a third person rather than a speaker,
    # and needs facts to follow.
    ranked = sorted(entities, key=lambda r: (r["facts"] == 0, r["entity"] in characters))
    if ranked:
        found.entity = ranked[0]["entity"]
    if GuideExamples().character not in characters:  # the question names the sample's
        found.question = f"What did {found.character} say about {found.entity}?"
    if cite is not None:
        found.cited = cite(found.question) or found.cited
    return found


def _literal(value: str) -> str:
    """A Cypher string literal inside the guide's HTML."""
    quoted = "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return html.escape(quoted, quote=True)


def render_guide(space: str, base: str, examples: GuideExamples | None = None) -> str:
    found = examples or GuideExamples()
    text = asset("guide.html").read_text(encoding="utf-8")
    cited = "[" + ", ".join(_literal(turn) for turn in found.cited) + "]"
    for key, value in (
        ("'{{SPACE}}'", _literal(space)),
        ("{{SPACE}}", html.escape(space, quote=True)),
        ("'{{CHARACTER}}'", _literal(found.character)),
        ("'{{ENTITY}}'", _literal(found.entity)),
        ("{{QUESTION}}", html.escape(found.question, quote=True)),
        ("{{CITED_TEXT}}", html.escape(", ".join(found.cited), quote=True)),
        ("{{CITED}}", cited),
        ("{{LEGEND}}", legend_html()),
        ("{{LABEL_COUNTS}}", html.escape(label_counts_query(), quote=False)),
        ("{{BASE}}", base),
    ):
        text = text.replace(key, value)
    return text


def guide_slides(guide: str) -> list[list[GuideQuery]]:
    """The runnable blocks of each slide, in order."""
    return [guide_queries(slide) for slide in _SLIDE.findall(guide)]


def guide_queries(guide: str) -> list[GuideQuery]:
    out = []
    for attrs, body in _PRE.findall(guide):
        if "runnable" not in attrs:
            continue
        found = _REQUIRES.search(attrs)
        requires = [r for r in (found.group(1).split(",") if found else []) if r]
        out.append(GuideQuery(text=html.unescape(body).strip(), requires=requires))
    return out


def guide_params(guide: str) -> dict[str, Any]:
    """The ``:param name => value`` blocks of the guide as Python values."""
    params: dict[str, Any] = {}
    for query in guide_queries(guide):
        found = _PARAM.match(query.text)
        if found:
            params[found.group(1)] = json.loads(found.group(2).replace("'", '"'))
    return params


def make_server(
    host: str, port: int, space: str, examples: GuideExamples | None = None
) -> ThreadingHTTPServer:
    """A small HTTP server for the guide and the style; answers the Browser's CORS preflight
    (it sends extra headers, so every fetch is preflighted)."""
    base = f"http://localhost:{port}"
    guide = render_guide(space, base, examples)
    bodies = {path: (guide, "text/html") for path in GUIDE_PATHS}
    bodies[STYLE_PATH] = (grass(), "text/plain")

    class Handler(BaseHTTPRequestHandler):
        def _cors(self) -> None:
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Access-Control-Allow-Methods", "GET, OPTIONS")
            # The Browser adds no-cache and tracing headers; allow whichever it asks for.
            asked = self.headers.get("Access-Control-Request-Headers")
            self.send_header("Access-Control-Allow-Headers", asked or "*")

        def do_OPTIONS(self) -> None:
            self.send_response(204)
            self._cors()
            self.end_headers()

        def do_GET(self) -> None:
            found = bodies.get(self.path.split("?", 1)[0].split("#", 1)[0])
            if found is None:
                self.send_error(404)
                return
            data = found[0].encode("utf-8")
            self.send_response(200)
            self._cors()
            self.send_header("Content-Type", f"{found[1]}; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the command prints what matters; request lines would drown it

    return ThreadingHTTPServer((host, port), Handler)
