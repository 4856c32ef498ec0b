"""Stored code of the methods ``dataclasses`` writes, so a start does not compile them again.

For every ``@dataclass`` the standard library writes ``__init__``, ``__repr__``, ``__eq__``,
``__setattr__``… as source text and compiles it with ``exec``: ~370 small functions in
``sizing-bot ask`` (ours, pydantic's, annotated_types'), ~31 ms CPU of ~300 — most of it
``compile`` (measured 2026-12-02, bench/RESULTS.md). The build (``hatch_build.py``) runs ``ask`` once
with :func:`start_recording` and stores every text with the code compiled from it in
``estimator/_dataclass_code.marshal``, keyed by the interpreter as ``.pyc`` files are
(``cpython-311`` and the bytecode magic number); :func:`install` makes ``dataclasses`` take the
stored code of a text it holds (marshal, as a ``.pyc``) and compile any other text as before.

The same text compiled by the same interpreter gives the same code (the build checks ``==``), and
it is compiled with the flags ``dataclasses``' own ``exec`` uses (none inherited), so every class,
method and answer is the same; only the compiling is skipped. A file for another interpreter, or no
file, changes nothing. The file is never written by a running bot.

The same goes for the string annotations ``typing.ForwardRef`` compiles for pydantic (``'float | None'``:
~1,340 compiles of ~330 texts in ``ask``): each text's code is taken from the store (its ``annotations``
table) or compiled once a process (:func:`_compile`), and for the ``__new__`` of every ``namedtuple``
(``collections``' ``eval`` of ``'lambda _cls, a, b: …'``: :func:`_eval`), whose texts share that table;
and for the functions ``typing_inspection`` makes from text at import (:class:`_ExecFinder`), whose texts
are stored with the dataclasses'.
"""

from __future__ import annotations

import builtins
import marshal
import os
import sys
from importlib.util import MAGIC_NUMBER
from typing import Any, ClassVar

CODES_FILE = os.path.join(os.path.dirname(__file__), "_dataclass_code.marshal")
"""Stored code of dataclass methods (written by the build, gitignored; may be absent)."""

_stored: dict[str, bytes] = {}
_recorded: dict[str, Any] | None = None
_stored_annotations: dict[str, bytes] = {}
_annotations: dict[str, Any] = {}
"""string annotation → its code, compiled once a process (:func:`_compile`)"""
_recorded_annotations: dict[str, Any] | None = None


def codes_key() -> tuple[str, bytes]:
    """What stored code is valid for: the interpreter (``cpython-311``) and its bytecode's magic number."""
    return (sys.implementation.cache_tag or "", MAGIC_NUMBER)


def compile_text(text: str) -> Any:
    """``text`` compiled as ``exec(text, …)`` inside ``dataclasses`` compiles it (no ``__future__``
    flags inherited from this module)."""
    return compile(text, "<string>", "exec", dont_inherit=True)


def _exec(source: Any, namespace: Any = None, local_ns: Any = None) -> None:
    """``exec`` for ``dataclasses``: a text the build stored runs from its stored code."""
    if isinstance(source, str):  # compiled here: builtins.exec would inherit this module's flags
        stored = _stored.get(source)
        try:
            code = compile_text(source) if stored is None else marshal.loads(stored)
        except (EOFError, ValueError, TypeError):  # a damaged entry: compile as dataclasses would
            code = compile_text(source)
        if _recorded is not None:
            _recorded[source] = code
        source = code
    builtins.exec(source, namespace, local_ns)


def compile_annotation(text: str) -> Any:
    """``text`` compiled as :class:`typing.ForwardRef` compiles a string annotation (``'float | None'``):
    an expression, no ``__future__`` flags inherited (``typing`` has none)."""
    return compile(text, "<string>", "eval", dont_inherit=True)


def _compile(source: Any, filename: Any, mode: Any, *args: Any, **kwargs: Any) -> Any:
    """``compile`` for ``typing``, whose only call is ``ForwardRef``'s ``compile(text, '<string>',
    'eval')`` of a string annotation: pydantic makes a ForwardRef of every field's annotation (our
    modules use ``from __future__ import annotations``), ~1,340 in ``ask`` of only ~330 texts (``'bool'``
    163 times), ~15 ms CPU. Each text is compiled once a process (or taken from the stored code); the
    same text gives the same code, and any other call is ``compile``'s own."""
    if args or kwargs or mode != "eval" or filename != "<string>" or type(source) is not str:
        if len(args) < 2:  # typing's flags (none), not this module's: as typing's own call inherits
            kwargs.setdefault("dont_inherit", True)
        return builtins.compile(source, filename, mode, *args, **kwargs)
    code = _annotations.get(source)
    if code is None:
        stored = _stored_annotations.get(source)
        try:
            code = compile_annotation(source) if stored is None else marshal.loads(stored)
        except (EOFError, ValueError, TypeError):  # a damaged entry: compile as typing would
            code = compile_annotation(source)
        _annotations[source] = code
        if _recorded_annotations is not None:
            _recorded_annotations[source] = code
    return code


def _eval(source: Any, namespace: Any = None, local_ns: Any = None) -> Any:
    """``eval`` for ``collections``, whose only call is ``namedtuple``'s ``eval(text, namespace)`` of its
    ``__new__`` (``'lambda _cls, a, b: _tuple_new(_cls, (a, b))'``): ~46 in ``ask`` (28 ``NamedTuple``
    classes of ours, the rest the standard library's), ~250k instructions each to parse and compile
    (callgrind, session 29), ~11.5M a start. The text's code comes from :func:`_compile` (stored, or
    compiled once a process) as ``eval`` of a text compiles it: leading blanks and tabs dropped, no
    ``__future__`` flags (``collections`` has none), mode ``eval``; a call without a namespace is
    ``eval``'s own in the caller's frame."""
    if namespace is None:  # not namedtuple's call: evaluate where the caller would have
        caller = sys._getframe(1)
        return builtins.eval(source, caller.f_globals, caller.f_locals if local_ns is None else local_ns)
    if type(source) is str:
        source = _compile(source.lstrip(" \t"), "<string>", "eval")
    return builtins.eval(source, namespace, local_ns)


GENERATED_BY_EXEC = ("typing_inspection.typing_objects",)
"""Modules whose body makes functions from text with ``exec`` (typing_inspection 0.4: 33 ``is_*`` checks,
``exec(dedent(f"def is_annotated(obj: Any, /) -> bool: ..."), globals_, locals_)``, ~7.5M instructions of
``ask``, callgrind session 29): :class:`_ExecFinder` gives each, while its body runs, a global ``exec``
that is :func:`_exec` (the module has no ``__future__`` import, so its texts compile with no flags, as
:func:`compile_text` compiles them)."""


class _ExecFinder:
    """A ``sys.meta_path`` finder for the modules of :data:`GENERATED_BY_EXEC`: it finds each as the path
    finder does and runs its body with ``exec`` bound to :func:`_exec` (a module global that shadows the
    builtin, as ``dataclasses.exec``), removed when the body is done; every other import is the path
    finder's. It leaves ``sys.meta_path`` once all of them are imported."""

    pending: ClassVar[set[str]] = set(GENERATED_BY_EXEC)

    @classmethod
    def find_spec(cls, name: str, path: Any = None, target: Any = None) -> Any:
        if name not in cls.pending:
            return None
        from importlib.machinery import PathFinder

        cls.pending.discard(name)
        if not cls.pending and cls in sys.meta_path:
            sys.meta_path.remove(cls)  # type: ignore[arg-type]
        spec = PathFinder.find_spec(name, path, target)
        loader = getattr(spec, "loader", None)
        if loader is not None and hasattr(loader, "exec_module"):
            run_body = loader.exec_module

            def exec_module(module: Any) -> None:
                module.exec = _exec
                try:
                    run_body(module)
                finally:
                    module.__dict__.pop("exec", None)

            loader.exec_module = exec_module
        return spec


def _install_exec_finder() -> None:
    if any(name not in sys.modules for name in _ExecFinder.pending) and _ExecFinder not in sys.meta_path:
        sys.meta_path.insert(0, _ExecFinder)  # type: ignore[arg-type]


def _install_annotations() -> None:
    import collections
    import typing

    typing.compile = _compile  # type: ignore[attr-defined]  # a module global shadows the builtin
    collections.eval = _eval  # type: ignore[attr-defined]  # namedtuple's __new__: see _eval


def install() -> bool:
    """Load the stored code and hand it to ``dataclasses``, ``typing`` and ``collections`` (whose string
    annotations and ``namedtuple`` texts are compiled once a process even with no stored code); returns
    whether any was loaded."""
    global _stored, _stored_annotations
    _install_annotations()
    try:
        with open(CODES_FILE, "rb") as fh:
            data = marshal.loads(fh.read())  # one read: load(fh) reads a few bytes per call
        if not (isinstance(data, dict) and data.get("key") == codes_key()):
            return False
        _stored = data["codes"]
        _stored_annotations = data.get("annotations", {})
    except (OSError, EOFError, ValueError, TypeError, KeyError):
        return False
    import dataclasses

    dataclasses.exec = _exec  # type: ignore[attr-defined]  # a module global shadows the builtin
    _install_exec_finder()
    return True


def release() -> None:
    """Drop the stored code (a long-running bot after its warm-up: ~1.4 MiB of marshalled texts kept for
    classes already made). A dataclass made later is compiled from its text as without a store: the same
    code, so the same class (the module's docstring)."""
    global _stored, _stored_annotations
    _stored, _stored_annotations = {}, {}


def start_recording() -> None:
    """Record the code of every dataclass method made from now on (the build, before any import)."""
    global _recorded, _recorded_annotations
    import dataclasses

    _recorded, _recorded_annotations = {}, dict(_annotations)  # those compiled before: pydantic's
    dataclasses.exec = _exec  # type: ignore[attr-defined]
    _install_annotations()
    _install_exec_finder()


def write_codes(path: str) -> int:
    """Store the recorded code in ``path`` (each kept as marshal bytes, loaded when its class is
    made); returns how many texts. Only code ``==`` a fresh compile of its text is stored."""
    table = {
        text: marshal.dumps(code)
        for text, code in sorted((_recorded or {}).items())
        if compile_text(text) == code
    }
    annotations = {
        text: marshal.dumps(code)
        for text, code in sorted((_recorded_annotations or {}).items())
        if compile_annotation(text) == code
    }
    with open(path, "wb") as fh:
        marshal.dump({"key": codes_key(), "codes": table, "annotations": annotations}, fh)
    return len(table)
