"""What ``--jobs`` carries back from a worker process: an error that ends the run arrives as
the same class with the same message, hint and exit code, even one whose constructor does
not take back its own args (which plain pickling would need)."""

from __future__ import annotations

import pickle

import pytest

from graphmem.errors import ConfigError, GraphmemError, ServerLostError
from graphmem.eval.parallel import _Fatal


def test_an_error_pickle_cannot_rebuild_still_arrives_whole() -> None:
    lost = ServerLostError("the server went away", rerun="run it again")
    with pytest.raises(TypeError):
        pickle.loads(pickle.dumps(lost))  # why _Fatal carries class, args and fields
    arrived = pickle.loads(pickle.dumps(_Fatal.of(lost))).error()
    assert type(arrived) is ServerLostError
    assert isinstance(arrived, GraphmemError)
    assert arrived.message == lost.message and arrived.hint == lost.hint
    assert str(arrived) == str(lost)
    assert arrived.exit_code == 4


def test_a_settings_error_keeps_its_exit_code() -> None:
    arrived = pickle.loads(pickle.dumps(_Fatal.of(ConfigError("bad", hint="fix it")))).error()
    assert type(arrived) is ConfigError and arrived.exit_code == 2
    assert (arrived.message, arrived.hint) == ("bad", "fix it")


def test_an_error_with_an_unpicklable_field_arrives_as_its_description() -> None:
    error = ConfigError("bad")
    error.handle = lambda: None  # type: ignore[attr-defined]
    arrived = pickle.loads(pickle.dumps(_Fatal.of(error))).error()
    assert type(arrived) is GraphmemError and str(arrived) == "ConfigError: bad"
