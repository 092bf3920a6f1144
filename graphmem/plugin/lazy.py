"""Hooks named by import strings: a design record says ``builder="pkg.builder:MyBuilder"``
instead of importing the class, so that reading the record (the registry reads every one,
``graphmem --help`` too) imports none of the code it names: no builder, retriever, numpy,
spaCy or driver. The named object is imported on first use and kept.

A record's hook fields are descriptors (``Hook``, ``HookMap``): they take a callable or an
import string and always read back a callable (a ``Lazy`` for a string), so the code that
calls a record's hooks is the same for both.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar, overload

from graphmem.errors import ConfigError

# ``package.module:attribute`` (the attribute may be dotted: ``module:Class.method``)
_TARGET = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")

F = TypeVar("F", bound=Callable[..., Any])


def check_target(target: str) -> str:
    if not _TARGET.fullmatch(target):
        raise ValueError(f"import string {target!r}: 'package.module:attribute' expected")
    return target


def import_target(target: str) -> Any:
    """The object ``package.module:attribute`` names, imported."""
    module_name, _, path = check_target(target).partition(":")
    found: Any = importlib.import_module(module_name)
    try:
        for part in path.split("."):
            found = getattr(found, part)
    except AttributeError:
        raise ConfigError(f"{target}: module {module_name} has no {path}") from None
    return found


class Lazy:
    """A callable named by an import string: the first call imports its target, every call
    calls it. ``__module__`` and ``__name__`` are the target's, as ``functools.wraps`` gives
    a wrapper, so code asking where a hook comes from gets the same answer as before."""

    def __init__(self, target: str) -> None:
        self.target = check_target(target)
        module_name, _, path = target.partition(":")
        self.__module__ = module_name
        self.__qualname__ = path
        self.__name__ = path.rpartition(".")[2]
        self._found: Callable[..., Any] | None = None

    def resolve(self) -> Callable[..., Any]:
        if self._found is None:
            found = import_target(self.target)
            if not callable(found):
                raise ConfigError(f"{self.target} is not callable")
            self._found = found
        return self._found

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Lazy) and other.target == self.target

    def __hash__(self) -> int:
        return hash(self.target)

    def __repr__(self) -> str:
        return f"Lazy({self.target!r})"


def lazy(value: F | str) -> F:
    """``value`` as a callable: an import string becomes a ``Lazy``, a callable stays."""
    if isinstance(value, str):
        return Lazy(value)  # type: ignore[return-value]  # a Lazy calls through to an F
    if not callable(value):
        raise TypeError(f"{value!r}: a callable or a 'package.module:attribute' string expected")
    return value


class Hook(Generic[F]):
    """A frozen dataclass field holding a callable given as itself or as an import string
    (read back as a callable); None by default."""

    def __init__(self) -> None:
        self._name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @overload
    def __get__(self, obj: None, owner: type) -> None: ...
    @overload
    def __get__(self, obj: object, owner: type) -> F | None: ...
    def __get__(self, obj: object | None, owner: type) -> F | None:
        if obj is None:  # dataclasses read the class attribute as the field's default
            return None
        found: F | None = obj.__dict__[self._name]
        return found

    def __set__(self, obj: object, value: F | str | None) -> None:
        # Frozen dataclasses set fields with object.__setattr__, which comes here.
        obj.__dict__[self._name] = None if value is None else lazy(value)


class RequiredHook(Generic[F]):
    """``Hook`` for a field without a default."""

    def __init__(self) -> None:
        self._name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @overload
    def __get__(self, obj: None, owner: type) -> RequiredHook[F]: ...
    @overload
    def __get__(self, obj: object, owner: type) -> F: ...
    def __get__(self, obj: object | None, owner: type) -> RequiredHook[F] | F:
        if obj is None:  # no default: dataclasses take an AttributeError as "none"
            raise AttributeError(self._name)
        found: F = obj.__dict__[self._name]
        return found

    def __set__(self, obj: object, value: F | str) -> None:
        obj.__dict__[self._name] = lazy(value)


class HookMap(Generic[F]):
    """A frozen dataclass field mapping names to callables, each given as itself or as an
    import string (read back as callables); empty by default."""

    def __init__(self) -> None:
        self._name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @overload
    def __get__(self, obj: None, owner: type) -> HookMap[F]: ...
    @overload
    def __get__(self, obj: object, owner: type) -> Mapping[str, F]: ...
    def __get__(self, obj: object | None, owner: type) -> HookMap[F] | Mapping[str, F]:
        if obj is None:  # the default: this descriptor (hashable, unlike an empty dict)
            return self
        found: Mapping[str, F] = obj.__dict__[self._name]
        return found

    def __set__(self, obj: object, value: Mapping[str, F | str] | HookMap[F]) -> None:
        given = {} if isinstance(value, HookMap) else value
        obj.__dict__[self._name] = {name: lazy(hook) for name, hook in given.items()}
