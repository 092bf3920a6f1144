"""A scripted, in-process stand-in for an OpenAI-compatible HTTP server.

Tests push ``Reply`` objects onto a queue; each chat request pops the next one. The
server records every request body, counts requests in flight, and answers with
``usage`` numbers derived from the text, so token accounting can be checked.

    with FakeOpenAIServer() as server:
        server.enqueue(Reply.error(429, retry_after=0.1), Reply.json({"name": "Ada"}))
        ...  # point a client at server.base_url
        assert server.request_count() == 2
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import random
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

CHAT_PATH = "/v1/chat/completions"
EMBEDDINGS_PATH = "/v1/embeddings"


@dataclass(frozen=True)
class Reply:
    """One scripted answer. ``status`` 200 sends ``content`` as the assistant message
    (chat) or deterministic vectors (embeddings); anything else sends an error body."""

    status: int = 200
    content: str | None = None
    error: str = "scripted error"
    headers: Mapping[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    finish_reason: str = "stop"

    @classmethod
    def json(cls, obj: Any, *, delay_s: float = 0.0) -> Reply:
        return cls(content=json.dumps(obj), delay_s=delay_s)

    @classmethod
    def text(cls, content: str, *, delay_s: float = 0.0) -> Reply:
        """Any raw assistant text, e.g. malformed JSON."""
        return cls(content=content, delay_s=delay_s)

    @classmethod
    def err(
        cls,
        status: int,
        message: str = "scripted error",
        *,
        retry_after: float | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Reply:
        all_headers = dict(headers or {})
        if retry_after is not None:
            all_headers["Retry-After"] = f"{retry_after:g}"
        return cls(status=status, error=message, headers=all_headers)

    @classmethod
    def slow(cls, delay_s: float, obj: Any = None) -> Reply:
        """Answers only after ``delay_s``: longer than the client timeout makes it time out."""
        return cls(content=json.dumps(obj if obj is not None else {}), delay_s=delay_s)


@dataclass(frozen=True)
class RecordedRequest:
    """One request as received; header names are lower-cased."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: dict[str, Any]


Responder = Callable[[dict[str, Any]], Reply]


class FakeOpenAIServer:
    """Binds 127.0.0.1 on a free port; use as a context manager (or ``start``/``stop``)."""

    def __init__(
        self,
        *,
        embedding_dim: int = 8,
        reject_json_schema: bool = False,
        reject_formats: Collection[str] = (),
        reject_reply: Reply | None = None,
        default: Reply | Responder | None = None,
    ) -> None:
        self.embedding_dim = embedding_dim
        # Like servers without structured outputs: requests whose response_format type is
        # listed (json_schema for ``reject_json_schema``; "json_object_schema" means
        # json_object with a schema) get ``reject_reply``, a 400 unless told otherwise.
        self.reject_formats = set(reject_formats)
        if reject_json_schema:
            self.reject_formats.add("json_schema")
        self.reject_reply = reject_reply or Reply.err(
            400, "response_format type 'json_schema' is not supported"
        )
        # Used once the chat script is exhausted; None means answer 418 (a test bug).
        self.default = default
        self._chat_script: deque[Reply] = deque()
        self._embedding_script: deque[Reply] = deque()
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._in_flight = 0
        self.max_in_flight = 0
        self.served_prompt_tokens = 0
        self.served_completion_tokens = 0
        self._stopping = threading.Event()
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle ------------------------------------------------------------------------

    def start(self) -> FakeOpenAIServer:
        httpd = _HTTPServer(("127.0.0.1", 0), _Handler)
        httpd.fake = self
        self._httpd = httpd
        # A short poll interval keeps stop() (run after every test) fast.
        self._thread = threading.Thread(
            target=httpd.serve_forever, args=(0.02,), name="fake-openai", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes handlers sleeping on a scripted delay
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("FakeOpenAIServer is not running")
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    # --- scripting and inspection -----------------------------------------------------------

    def enqueue(self, *replies: Reply) -> None:
        with self._lock:
            self._chat_script.extend(replies)

    def enqueue_embeddings(self, *replies: Reply) -> None:
        with self._lock:
            self._embedding_script.extend(replies)

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    def bodies(self, path: str = CHAT_PATH) -> list[dict[str, Any]]:
        return [r.body for r in self.requests if r.path == path]

    def request_count(self, path: str = CHAT_PATH) -> int:
        return len(self.bodies(path))

    def remaining(self) -> int:
        """Scripted chat replies not consumed yet (a test usually expects 0)."""
        with self._lock:
            return len(self._chat_script)

    # --- called by the handler threads ------------------------------------------------------

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)

    def _done(self) -> None:
        with self._lock:
            self._in_flight -= 1

    def _next_chat(self, body: dict[str, Any]) -> Reply:
        if format_mode(body) in self.reject_formats:
            return self.reject_reply
        with self._lock:
            if self._chat_script:
                return self._chat_script.popleft()
        if self.default is None:
            return Reply.err(418, "fake server: no scripted reply left")
        return self.default if isinstance(self.default, Reply) else self.default(body)

    def _next_embedding(self) -> Reply:
        with self._lock:
            return self._embedding_script.popleft() if self._embedding_script else Reply()

    def _wait(self, seconds: float) -> bool:
        """Sleeps; False when the server is shutting down meanwhile."""
        return seconds <= 0 or not self._stopping.wait(seconds)

    def _chat_payload(self, body: dict[str, Any], reply: Reply) -> dict[str, Any]:
        content = reply.content if reply.content is not None else "{}"
        prompt_tokens = sum(4 + _tokens(str(m.get("content", ""))) for m in body["messages"])
        completion_tokens = _tokens(content)
        with self._lock:
            self.served_prompt_tokens += prompt_tokens
            self.served_completion_tokens += completion_tokens
            serial = len(self._requests)
        return {
            "id": f"chatcmpl-fake-{serial}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": reply.finish_reason,
                    "logprobs": None,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }

    def _embedding_payload(self, body: dict[str, Any]) -> dict[str, Any]:
        raw = body.get("input", [])
        texts = [raw] if isinstance(raw, str) else [str(item) for item in raw]
        as_base64 = body.get("encoding_format") == "base64"
        data = []
        for index, text in enumerate(texts):
            vector = fake_embedding(text, self.embedding_dim)
            encoded: Any = vector
            if as_base64:  # what the openai SDK asks for by default
                encoded = base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode()
            data.append({"object": "embedding", "index": index, "embedding": encoded})
        tokens = sum(_tokens(t) for t in texts)
        return {
            "object": "list",
            "data": data,
            "model": body.get("model", "fake"),
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }


LLAMA_CPP_REJECTION = Reply.err(
    500,
    "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', "
    "'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema', "
    "'ctx': {'expected': \"'text' or 'json_object'\"}}",
)
"""What llama-cpp-python 0.3.x's server answers to ``response_format: json_schema``."""


def format_mode(body: dict[str, Any]) -> str:
    """The structured-output mode of a chat request, named as graphmem names them."""
    fmt = body.get("response_format") or {}
    kind = str(fmt.get("type") or "prompt")
    return "json_object_schema" if kind == "json_object" and "schema" in fmt else kind


def fake_embedding(text: str, dim: int) -> list[float]:
    """A unit vector that depends only on ``text``: same text, same vector, any process."""
    rng = random.Random(hashlib.sha256(text.encode("utf-8")).digest())
    vector = [rng.gauss(0.0, 1.0) for _ in range(dim)]
    norm = math.sqrt(sum(v * v for v in vector)) or 1.0
    return [v / norm for v in vector]


def _tokens(text: str) -> int:
    # Roughly what a BPE tokenizer gives for English: about 4 characters a token.
    return max(1, math.ceil(len(text) / 4))


def _error_body(reply: Reply) -> dict[str, Any]:
    kind = {400: "invalid_request_error", 401: "authentication_error", 429: "rate_limit_error"}
    return {
        "error": {
            "message": reply.error,
            "type": kind.get(reply.status, "server_error"),
            "param": None,
            "code": None,
        }
    }


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    # Handlers may sit in a scripted delay; closing must not wait for them.
    block_on_close = False
    fake: FakeOpenAIServer


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as real servers and httpx expect
    server: _HTTPServer

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep pytest output clean

    def do_GET(self) -> None:
        if self.path.rstrip("/") == "/v1/models":
            self._send(200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})
        else:
            self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            self._send(400, {"error": {"message": "body is not JSON", "type": "invalid_json"}})
            return
        fake = self.server.fake
        headers = {name.lower(): value for name, value in self.headers.items()}
        fake._record(RecordedRequest("POST", self.path, headers, body))
        try:
            self._answer(fake, body)
        finally:
            fake._done()

    def _answer(self, fake: FakeOpenAIServer, body: dict[str, Any]) -> None:
        if self.path == CHAT_PATH:
            reply = fake._next_chat(body)
        elif self.path == EMBEDDINGS_PATH:
            reply = fake._next_embedding()
        else:
            self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            return
        if not fake._wait(reply.delay_s):
            return
        if reply.status != 200:
            self._send(reply.status, _error_body(reply), reply.headers)
        elif self.path == CHAT_PATH:
            self._send(200, fake._chat_payload(body, reply), reply.headers)
        else:
            self._send(200, fake._embedding_payload(body), reply.headers)

    def _send(
        self, status: int, payload: dict[str, Any], headers: Mapping[str, str] | None = None
    ) -> None:
        data = json.dumps(payload).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timed out) before the scripted delay ended
