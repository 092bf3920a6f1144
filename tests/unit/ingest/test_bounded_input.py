"""Issue 36 item 5: every read of an input file is bounded. A device, an endless stream, a
file beyond GRAPHMEM_MAX_FILE_BYTES or a JSONL line beyond GRAPHMEM_MAX_RECORD_BYTES is an
InputError (exit 3) naming the limit and the file; a FIFO nobody writes to never blocks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from graphmem.config import Settings
from graphmem.errors import InputError
from graphmem.ingest.formats import ReadLimits, detect_format, load
from graphmem.memory import Memory
from tests.paths import ROOT

EXAMPLES = ROOT / "examples"
MESSAGE = {"conversation": "c1", "session": 1, "speaker": "Ana", "text": "We land on Friday."}
# A server nothing listens on: a command that got past validation would fail with exit 4.
NOWHERE = "bolt://127.0.0.1:1"


def _line(**over: object) -> str:
    return json.dumps({**MESSAGE, **over})


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The real command line in a fresh process (a hang fails after 60 s, not never)."""
    full_env = {**os.environ, "NEO4J_URI": NOWHERE, **(env or {})}
    script = "from graphmem.cli.main import main; main()"
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=60,
    )


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
@pytest.mark.parametrize("fmt", ["auto", "locomo", "jsonl"])
def test_a_device_is_refused_before_a_byte_is_read(device: str, fmt: str) -> None:
    with pytest.raises(InputError) as caught:
        load(Path(device), fmt)  # type: ignore[arg-type]
    assert "character device" in str(caught.value) and caught.value.path == device


def test_a_file_beyond_the_limit_is_refused_by_its_size(tmp_path: Path) -> None:
    sparse = tmp_path / "huge.json"
    with sparse.open("wb") as handle:
        handle.truncate(3 << 30)  # 3 GiB of holes: reading it would take seconds and memory
    with pytest.raises(InputError) as caught:
        load(sparse, "locomo")
    message = str(caught.value)
    assert "3,221,225,472 bytes" in message and "GRAPHMEM_MAX_FILE_BYTES" in message
    assert caught.value.path == str(sparse)


def test_the_file_limit_is_a_setting(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(_line(id=f"m{i}") for i in range(50)), encoding="utf-8")
    assert load(path).turn_count() == 50
    size = path.stat().st_size
    assert load(path, limits=ReadLimits(max_file_bytes=size)).turn_count() == 50
    with pytest.raises(InputError, match="GRAPHMEM_MAX_FILE_BYTES"):
        load(path, limits=ReadLimits(max_file_bytes=size - 1))
    limits = ReadLimits.of(Settings(max_file_bytes=123, max_record_bytes=45))
    assert (limits.max_file_bytes, limits.max_record_bytes) == (123, 45)


def test_memory_ingest_reads_within_its_settings(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text(_line(), encoding="utf-8")
    memory = Memory(Settings(neo4j_uri=NOWHERE, max_file_bytes=10))
    with pytest.raises(InputError, match="more than the 10 bytes"):
        memory.ingest(path, space="never-written")


def test_a_jsonl_line_beyond_the_record_limit_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    long_line = _line(text="x" * 5_000)
    path.write_text(f"{_line()}\n\n{long_line}\n{_line()}\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load(path, limits=ReadLimits(max_record_bytes=1_000))
    assert caught.value.record == "line 3"
    assert "1,000 bytes GRAPHMEM_MAX_RECORD_BYTES" in str(caught.value)
    assert load(path, limits=ReadLimits(max_record_bytes=len(long_line) + 1)).turn_count() == 3


@pytest.mark.parametrize("end", ["\n", "\r\n"])
@pytest.mark.parametrize("last_end", [True, False])
def test_a_line_of_exactly_the_limit_is_read(tmp_path: Path, end: str, last_end: bool) -> None:
    """The limit counts the line without its end; line numbers stay right at the edge."""
    lines = [_line(id="m1"), _line(id="m2")]
    limit = len(lines[0])
    path = tmp_path / "chat.jsonl"
    path.write_bytes(
        (end.join([*lines, '{"conversation": 5}']) + (end if last_end else "")).encode()
    )
    with pytest.raises(InputError) as caught:
        load(path, limits=ReadLimits(max_record_bytes=limit))
    assert (caught.value.record, caught.value.field) == ("line 3", "conversation")
    with pytest.raises(InputError, match="GRAPHMEM_MAX_RECORD_BYTES") as caught:
        load(path, limits=ReadLimits(max_record_bytes=limit - 1))
    assert caught.value.record == "line 1"


def test_the_record_limit_is_per_line_not_per_document(tmp_path: Path) -> None:
    """A LoCoMo file is one JSON document, often on one line: only the file limit holds."""
    one_line = tmp_path / "locomo.json"
    data = json.loads((EXAMPLES / "sample_locomo.json").read_text(encoding="utf-8"))
    one_line.write_text(json.dumps(data), encoding="utf-8")
    assert load(one_line, limits=ReadLimits(max_record_bytes=100)).turn_count() == 19


def _endless(
    head: bytes, fill: bytes, fmt: str, limits: ReadLimits | None = None
) -> tuple[InputError, int]:
    """Load from a pipe whose writer sends ``head`` then ``fill`` until the reader stops
    (or 256 MiB): the error and how many bytes the writer got out."""
    read_end, write_end = os.pipe()
    written = 0

    def writer() -> None:
        nonlocal written
        chunk = fill * (65_536 // len(fill))
        with os.fdopen(write_end, "wb", buffering=0) as out:
            try:
                out.write(head)
                while written < 256 << 20:
                    written += out.write(chunk) or 0
            except BrokenPipeError:
                pass

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        with pytest.raises(InputError) as caught:
            load(Path(f"/dev/fd/{read_end}"), fmt, limits)  # type: ignore[arg-type]
    finally:
        os.close(read_end)
        thread.join(timeout=30)
    return caught.value, written


def test_a_stream_stops_at_the_first_line_over_the_limit() -> None:
    """Line by line: an endless first line ends the read after about one record, however
    much the writer would still send."""
    error, written = _endless(b'{"conversation": "c1", "text": "', b"x", "jsonl")
    assert "GRAPHMEM_MAX_RECORD_BYTES" in str(error)
    limit = ReadLimits().max_record_bytes
    assert written < limit + (3 << 20)  # the limit plus what the pipe had buffered


@pytest.mark.parametrize("fmt", ["locomo", "longmemeval", "auto"])
def test_a_stream_that_cannot_be_json_fails_at_its_first_character(fmt: str) -> None:
    error, written = _endless(b"\n  ", b"\x00", fmt)
    assert "broken JSON" in str(error) or "unknown input format" in str(error)
    assert written < 4 << 20


@pytest.mark.parametrize("fmt", ["locomo", "jsonl", "auto"])
def test_endless_blanks_are_read_to_the_limit_without_being_kept(fmt: str) -> None:
    """Leading blanks are skipped chunk by chunk: kept, each chunk would copy all before
    it (minutes for these 200 MiB, and their size in memory)."""
    began = time.monotonic()
    limits = ReadLimits(max_file_bytes=200 << 20)
    error, _ = _endless(b"", b" \n", fmt, limits)
    assert "GRAPHMEM_MAX_FILE_BYTES" in str(error)
    assert time.monotonic() - began < 30


def test_line_numbers_count_the_skipped_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text("\n" * 100_000 + _line() + "\n" + '{"conversation": 5}\n', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load(path)
    assert caught.value.record == "line 100002" and caught.value.field == "conversation"


def test_a_stream_beyond_the_file_limit_is_refused() -> None:
    read_end, write_end = os.pipe()
    with os.fdopen(write_end, "wb") as out:
        out.write(b" " * 5_000)  # fits the pipe's buffer: no writer thread needed
    try:
        with pytest.raises(InputError, match="holds more than the 4,096 bytes"):
            load(Path(f"/dev/fd/{read_end}"), "locomo", ReadLimits(max_file_bytes=4_096))
    finally:
        os.close(read_end)


def test_an_empty_pipe_says_so() -> None:
    read_end, write_end = os.pipe()
    os.close(write_end)
    try:
        with pytest.raises(InputError, match="the file is empty"):
            load(Path(f"/dev/fd/{read_end}"))
    finally:
        os.close(read_end)


def test_a_pipe_is_read_like_a_file(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    with os.fdopen(write_end, "wb") as out:
        out.write(f"{_line(id='a')}\n{_line(id='b', session=2)}\n".encode())
    try:
        dataset = load(Path(f"/dev/fd/{read_end}"))
    finally:
        os.close(read_end)
    assert [s.source_id for s in dataset.conversations[0].sessions] == ["1", "2"]


def test_a_fifo_without_a_writer_ends_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="the file is empty"):
        load(fifo)
    with pytest.raises(InputError, match="holds no messages"):
        load(fifo, "jsonl")


def test_utf8_errors_name_the_line_and_the_file_offset(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    first = ("\ufeff" + _line() + "\n").encode("utf-8")  # BOM: skipped, still counted
    head = b'{"conversation": "c1", "text": "'
    path.write_bytes(first + head + b'\xff"}\n')
    with pytest.raises(InputError) as caught:
        load(path)
    assert caught.value.record == "line 2"
    assert f"byte offset {len(first) + len(head)}" in str(caught.value)


def test_leading_blank_lines_and_a_bom_still_tell_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "chat.txt"  # no telling suffix: the first record decides
    path.write_bytes(b"\xef\xbb\xbf\n  \r\n" + _line().encode() + b"\n")
    assert detect_format(path) == "jsonl"
    assert load(path).conversations[0].sessions[0].turns[0].text == MESSAGE["text"]


# --- the command line: exit code 3, one line naming the limit and the file -----------------


def test_cli_ingest_of_a_device_exits_3() -> None:
    for args in (["/dev/zero"], ["/dev/urandom", "--format", "locomo"]):
        run = _cli("ingest", *args, "--space", "inputs-never")
        assert run.returncode == 3, run.stderr
        assert "character device" in run.stderr and "Traceback" not in run.stderr


def test_cli_ingest_of_a_fifo_without_a_writer_exits_3_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    run = _cli("ingest", str(fifo), "--space", "inputs-never")
    assert run.returncode == 3, run.stderr
    assert f"file {fifo}: the file is empty" in run.stderr


def test_cli_ingest_beyond_the_file_limit_exits_3(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text(_line() + "\n", encoding="utf-8")
    run = _cli("ingest", str(path), "--space", "inputs-never", env={"GRAPHMEM_MAX_FILE_BYTES": "9"})
    assert run.returncode == 3, run.stderr
    assert str(path) in run.stderr and "GRAPHMEM_MAX_FILE_BYTES" in run.stderr


def test_running_out_of_memory_on_a_document_is_an_input_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen for real under `ulimit -v 3000000` with a 500 MB JSON list (exit 3, 33 s);
    here the parse is made to fail the same way."""
    import graphmem.ingest.formats as formats

    def exhausted(*_: object, **__: object) -> None:
        raise MemoryError

    path = tmp_path / "big.json"
    path.write_text("[1, 2, 3]", encoding="utf-8")
    monkeypatch.setattr(formats, "parse_json", exhausted)
    with pytest.raises(InputError, match="does not fit in the memory available") as caught:
        load(path, "locomo")
    assert caught.value.path == str(path)
