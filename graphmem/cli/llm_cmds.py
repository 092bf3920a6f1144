"""``graphmem llm serve | ping``: a local model server, and one real call to the LLM."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from graphmem.cli.common import app, emit, handle_errors, json_option
from graphmem.errors import ConfigError
from graphmem.llm import ping
from graphmem.llm.serve import (
    DEFAULT_CONTEXT,
    DEFAULT_HOST,
    DEFAULT_PORT,
    run_foreground,
    serve_command,
)


@click.group("llm")
def llm_group() -> None:
    """The LLM backend: serve a local model, check the configured one (docs/llm.md)."""


@llm_group.command("serve")
@click.option(
    "--model",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A GGUF file (default: SmolLM2-135M-Instruct from the local-llm extra).",
)
@click.option("--host", default=DEFAULT_HOST, show_default=True, help="Address to bind.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=int)
@click.option("--n-ctx", default=DEFAULT_CONTEXT, show_default=True, help="Context tokens.")
@click.option("--threads", type=int, help="CPU threads (default: llama.cpp decides).")
@click.option("--alias", help="Model name clients send (GRAPHMEM_LLM_MODEL).")
@click.option(
    "--embeddings",
    is_flag=True,
    help="Also serve /v1/embeddings (GRAPHMEM_EMBEDDER=openai with the model's dimension).",
)
@click.option("--dry-run", is_flag=True, help="Print the command and the settings, start nothing.")
@handle_errors
def serve_cmd(
    model: Path | None,
    host: str,
    port: int,
    n_ctx: int,
    threads: int | None,
    alias: str | None,
    embeddings: bool,
    dry_run: bool,
) -> None:
    """Serve a GGUF model on an OpenAI-compatible endpoint (llama-cpp-python) in the
    foreground; stop it with Ctrl-C."""
    command = serve_command(
        model,
        host=host,
        port=port,
        n_ctx=n_ctx,
        threads=threads,
        alias=alias,
        embeddings=embeddings,
    )
    exports = " ".join(f"{k}={v}" for k, v in command.env().items())
    click.echo(f"point graphmem at it with: export {exports}", err=True)
    click.echo(shlex.join(command.argv), err=dry_run is False)
    if dry_run:
        return
    code = run_foreground(command.argv)
    if code not in (0, -2, -15, 130, 143):  # stopped by Ctrl-C or SIGTERM: a normal end
        raise ConfigError(f"the model server exited with status {code}")


@llm_group.command("ping")
@json_option
@click.pass_context
@handle_errors
def ping_cmd(ctx: click.Context, as_json: bool) -> None:
    """One real, cheap request to the configured LLM (no cache, no retries)."""
    result = ping(app(ctx).settings)
    if result is None:
        emit({"llm": None}, as_json, lambda _: "offline backend (no GRAPHMEM_LLM_MODEL set)")
        return
    data = result.model_dump(mode="json")
    emit(
        data,
        as_json,
        lambda d: (
            f"{d['model']} at {d['base_url'] or 'the OpenAI default URL'} answered in "
            f"{d['ms']:.0f} ms (structured output: {d['response_format']}, "
            f"{d['usage']['calls']} request(s))"
        ),
    )
