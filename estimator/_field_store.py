"""Stored pydantic model fields, so a start does not collect them again.

Pydantic makes every model's ``FieldInfo`` table when the class is made (``collect_model_fields``: each
string annotation evaluated, each ``Field()`` merged with its annotation's metadata, defaults and
constraints checked): for ``sizing-bot ask``'s 52 models and ~570 fields ~107M instructions of
~1,040M (callgrind, measured 2026-12-04, bench/RESULTS.md). The build (``hatch_build.py``) runs
``ask`` once with :func:`start_recording` and stores each of our models' collected fields in
``estimator/_fields.pickle``; :func:`install` makes pydantic take a model's fields from the store when
the class is declared as it was when they were stored.

**The same fields, or none.** An entry is keyed by the interpreter's, pydantic's and pydantic-core's
versions (the file is ignored for any other) and holds a *declaration text* of the class as written,
made before anything is collected: its bases (and each base's own text), its config, its own raw
annotations (the strings ``from __future__ import annotations`` leaves), each assigned value (a
``Field()``'s arguments, functions by name) and what every name in those annotations is in the
module (a class or module by name, anything else by its repr). A class whose text differs — a field,
a default, a bound, an alias such as ``Mode = Literal[...]`` changed, a base rebuilt — is collected by
pydantic as before; so is any class the text cannot describe (a repr showing an address, a class made
in a function, generic models, private attributes, class variables, attributes without annotation).

A hit returns the stored table with the running class's own objects put back where identity can
matter: each field's default and default factory are the class body's, an inherited field is the
parent's ``FieldInfo`` copied (as pydantic does), and assigned values leave the class as pydantic's
collection removes them. The file is never written by a running bot.
"""

from __future__ import annotations

import builtins
import hashlib
import inspect
import os
import pickle
import re
import sys
from types import CodeType
from typing import Any

FIELDS_FILE = os.path.join(os.path.dirname(__file__), "_fields.pickle")
"""Stored field tables (written by the build, gitignored; may be absent)."""

_PACKAGES = ("bot.", "estimator.")
"""Only our own models are stored (and only theirs are looked up)."""

_TARGET = "pydantic._internal._model_construction"
"""The module whose ``collect_model_fields`` is wrapped."""

_TESTED = ("2.14.",)
"""Pydantic releases whose ``collect_model_fields`` this was written against (its signature and result)."""

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""A name in an annotation string (attribute names and Literal words too: looked up, harmless)."""

_MISSING = object()
_entries: dict[str, tuple[str, bytes]] | None = None
"""``module:qualname`` → (declaration text when stored, pickled (field names, own fields)); None till read."""
_sources: dict[str, tuple[str, dict[str, Any]] | None] = {}
"""Module name → the SHA-1 of its source and its class bodies' code (:func:`_module_source`)."""
_CODE = CodeType
_texts: dict[type, str | None] = {}
"""Declaration texts made in this process (a base's text is part of its subclasses')."""
_recording: dict[str, tuple[str, bytes]] | None = None
_original: Any = None


def store_key() -> tuple[str, str, str]:
    """What stored fields are valid for: the interpreter and pydantic's and pydantic-core's versions."""
    from estimator._schema_store import store_key as key

    return key()


def _name(obj: Any) -> str:
    return f"{obj.__module__}:{obj.__qualname__}"


def _value_text(value: Any) -> str:
    """A value as written in a class body: a ``Field()`` by what it was given (its ``_attributes_set``,
    constraints in its ``metadata``), functions and classes by name."""
    from pydantic.fields import FieldInfo

    if isinstance(value, FieldInfo):
        given = value._attributes_set
        factory = given.get("default_factory")
        if factory is not None:
            given = {**given, "default_factory": _value_text(factory)}
        return f"Field({given!r}, {value.metadata!r})"
    if callable(value) and hasattr(value, "__qualname__"):
        return f"{type(value).__name__} {_name(value)}"
    return repr(value)


def _meaning(name: str, namespace: dict[str, Any]) -> str:
    """What ``name`` means in a module: a class or module by name, anything else by its repr."""
    obj = namespace.get(name, _MISSING)
    if obj is _MISSING:
        obj = getattr(builtins, name, _MISSING)
    if obj is _MISSING:
        return "-"
    if isinstance(obj, type) or (callable(obj) and hasattr(obj, "__qualname__")):
        return _name(obj)
    if type(obj).__name__ == "module":
        return "module " + obj.__name__
    return repr(obj)


def declaration_text(cls: Any) -> str | None:
    """The declaration of model ``cls`` as written (before pydantic collects its fields), as the SHA-1
    of its text (hex); None when the store does not describe such a class (see the module)."""
    if cls in _texts:
        return _texts[cls]
    text = _class_text(cls)
    _texts[cls] = text
    return text


def _class_text(cls: Any) -> str | None:
    own = inspect.get_annotations(cls)
    module = sys.modules.get(cls.__module__)
    source = _module_source(module) if module is not None else None
    body = source[1].get(cls.__qualname__) if source is not None else None
    if (
        body is None
        or cls.model_config.get("use_attribute_docstrings")  # read from the source: not in the text
        or not all(isinstance(a, str) for a in own.values())
    ):
        return None
    bases = []
    for base in cls.__mro__[1:]:
        if base.__module__.startswith(_PACKAGES) and hasattr(base, "__pydantic_fields__"):
            text = _texts.get(base)
            if text is None:  # not described, or never made through the store: pydantic's own fields
                return None
            bases.append(text)
        else:
            bases.append(_name(base))
    namespace = vars(module)
    names = sorted({*body.co_names, *(n for a in own.values() for n in _NAME.findall(a))})
    text = repr(
        (
            _name(cls),
            source[0],
            bases,
            sorted((k, _value_text(v)) for k, v in cls.model_config.items()),
            [(n, _meaning(n, namespace)) for n in names],
        )
    )
    return None if " at 0x" in text else hashlib.sha1(text.encode()).hexdigest()


def _module_source(module: Any) -> tuple[str, dict[str, Any]] | None:
    """The SHA-1 of ``module``'s source file and the code of each class body in it by qualified name (from
    the module's code, running now); None when either cannot be read. Once a module."""
    name = module.__name__
    if name not in _sources:
        _sources[name] = _read_source(module)
    return _sources[name]


def _read_source(module: Any) -> tuple[str, dict[str, Any]] | None:
    path = getattr(module, "__file__", None) or ""
    frame = sys._getframe()
    while frame is not None and not (frame.f_code.co_name == "<module>" and frame.f_globals is vars(module)):
        frame = frame.f_back
    if frame is None or not path.endswith(".py"):
        return None
    try:
        with open(path, "rb") as fh:
            digest = hashlib.sha1(fh.read()).hexdigest()
    except OSError:
        return None
    bodies: dict[str, Any] = {}
    todo = [frame.f_code]
    while todo:
        for const in todo.pop().co_consts:
            if type(const) is _CODE:
                bodies[const.co_qualname] = const
                todo.append(const)
    return digest, bodies


def _load() -> dict[str, tuple[str, bytes]]:
    global _entries
    if _entries is None:
        _entries = {}
        try:
            with open(FIELDS_FILE, "rb") as fh:
                key, entries = pickle.load(fh)
            if key == store_key():
                _entries = entries
        except (OSError, ValueError, pickle.UnpicklingError, EOFError, TypeError):
            pass
    return _entries


def _plain(cls: Any, kwargs: dict[str, Any]) -> bool:
    """Whether pydantic's collection of ``cls`` is one the store describes: one of ours, not generic, its
    namespace with no attribute pydantic would turn into a private attribute or reject (every assigned
    value annotated)."""
    info = kwargs.get("namespace_info")
    own = inspect.get_annotations(cls)
    return (
        cls.__module__.startswith(_PACKAGES)
        and not kwargs.get("typevars_map")
        and info is not None
        and not info.private_candidates
        and not info.private_attributes
        and all(name in own for name in info.field_candidates)
    )


def _stored_fields(cls: Any) -> dict[str, Any] | None:
    """The stored field table of ``cls`` with the running class's objects put back; None on a miss."""
    entry = _load().get(_name(cls))
    if entry is None or declaration_text(cls) != entry[0]:
        return None
    order, own = pickle.loads(entry[1])
    parents: dict[str, Any] = {}
    for base in reversed(cls.__bases__):
        parents.update(getattr(base, "__pydantic_fields__", None) or {})
    fields = {}
    for name in order:
        info = own.get(name)
        if info is None:
            fields[name] = parents[name]._copy()
            continue
        assigned = cls.__dict__.get(name, _MISSING)
        if assigned is not _MISSING:
            _put_back(info, assigned)
            delattr(cls, name)
        fields[name] = info
    return fields


def _put_back(info: Any, assigned: Any) -> None:
    """The class body's own default (and default factory) in a stored ``FieldInfo``: the same objects."""
    from pydantic.fields import FieldInfo

    if isinstance(assigned, FieldInfo):
        info.default, info.default_factory = assigned.default, assigned.default_factory
    else:
        info.default = assigned
    if "default" in info._attributes_set:
        info._attributes_set["default"] = info.default
    if "default_factory" in info._attributes_set:
        info._attributes_set["default_factory"] = info.default_factory
    info._original_assignment = assigned


def _collect(cls: Any, *args: Any, **kwargs: Any) -> Any:
    """``collect_model_fields`` with the store: stored fields for a class declared as stored."""
    if not _plain(cls, kwargs):
        return _original(cls, *args, **kwargs)
    if _recording is not None:
        text = declaration_text(cls)
        result = _original(cls, *args, **kwargs)
        _record(cls, text, result)
        return result
    fields = _stored_fields(cls) if _entries != {} else None
    if fields is None:
        _texts[cls] = None  # its subclasses are collected by pydantic too
        return _original(cls, *args, **kwargs)
    return fields, None, set(), {}


def _record(cls: Any, text: str | None, result: Any) -> None:
    fields, extra, class_vars, private = result
    own = inspect.get_annotations(cls)
    if text is None or extra is not None or class_vars or private:
        _texts[cls] = None
        return
    if not all(info._complete for info in fields.values()):
        _texts[cls] = None
        return
    blob = pickle.dumps((list(fields), {n: i for n, i in fields.items() if n in own}), protocol=5)
    _recording[_name(cls)] = (text, blob)


def _patch(module: Any) -> None:
    global _original
    import pydantic  # imported by now: the module is pydantic's

    if _original is None and pydantic.VERSION.startswith(_TESTED) and hasattr(module, "collect_model_fields"):
        _original = module.collect_model_fields
        module.collect_model_fields = _collect


class _Finder:
    """A ``sys.meta_path`` finder that, on the first import of :data:`_TARGET`, wraps its function once the
    module has run; then leaves (as :class:`estimator._schema_store._Finder`)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != _TARGET:
            return None
        while self in sys.meta_path:
            sys.meta_path.remove(self)
        from importlib.util import find_spec

        spec = find_spec(name)
        loader = getattr(spec, "loader", None)
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module

        def exec_module(module: Any) -> None:
            run(module)
            _patch(module)

        loader.exec_module = exec_module
        return spec


def install(force: bool = False) -> bool:
    """Make pydantic take our models' fields from the store, when pydantic is a tested release (returns
    whether the file exists, or ``force``). Call before the first model is made."""
    if not (force or os.path.exists(FIELDS_FILE)):
        return False
    module = sys.modules.get(_TARGET)
    if module is not None:
        _patch(module)
        return _original is not None
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
    return True


def start_recording() -> None:
    """Collect every model as pydantic does and record it, from now on (the build, before any model)."""
    global _recording
    _recording = {}
    install(force=True)


def write_fields(path: str) -> int:
    """Write the recorded field tables to ``path``; returns how many."""
    assert _recording is not None, "start_recording() first"
    with open(path, "wb") as fh:
        pickle.dump((store_key(), _recording), fh, protocol=5)
    return len(_recording)
