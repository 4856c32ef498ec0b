"""Standard-library modules pydantic imports but a start never uses, loaded on first use instead.

``pydantic.types`` (imported by every ``from pydantic import Field``) begins with ``import secrets``
and ``import base64``; it reads them only inside ``Secret*.__eq__`` (``secrets.compare_digest``) and the
``Base64*`` encoders, none of which our models use. ``secrets`` imports ``hmac`` (which loads OpenSSL
through ``_hashlib``), ``hashlib``, ``random`` and ``base64``: ~15M instructions of a ~1,100M
``sizing-bot ask`` (callgrind, per-module charge; bench/RESULTS.md, session 27 part s27-spstart).

:func:`install` registers each module of :data:`LAZY` that is not imported yet as a :class:`LazyModule`:
an empty module whose first read of a name it lacks imports the real module (which then takes its
place in ``sys.modules``) and copies the real module's names into itself, so ``secrets.compare_digest(...)``
works exactly as before, from the first call on. The import system's own reads (``__spec__``, ``__name__``)
are answered without loading it. This is PEP 690's idea, and the standard library's
``importlib.util.LazyLoader`` cannot be used for it on Python 3.11: its module loads on *any* attribute
read, and ``import secrets`` of a module already in ``sys.modules`` reads ``__spec__`` (``importlib.
_bootstrap._find_and_load``). A ``from secrets import x`` reads a name at once and so loads it at once.
Nothing of ours imports these modules for a plain ``ask`` (the adapters that use ``secrets``, ``hashlib``
or ``hmac`` load them when they are imported).
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

LAZY = ("secrets", "base64")
"""Modules imported by name (``import secrets``) on the start-up path and read by none of its code."""


class LazyModule(types.ModuleType):
    """A module of :data:`LAZY` not loaded yet (see the module): the first name it lacks loads it."""

    def __getattr__(self, attr: str) -> Any:
        name = self.__name__
        if sys.modules.get(name) is self:
            del sys.modules[name]
        real = importlib.import_module(name)
        self.__dict__.update(vars(real))
        return getattr(real, attr)


def install() -> list[str]:
    """Register the modules of :data:`LAZY` not yet imported as :class:`LazyModule` objects; returns
    their names. Call before pydantic is imported (``estimator/__init__``)."""
    done = []
    for name in LAZY:
        if name not in sys.modules:
            sys.modules[name] = LazyModule(name)
            done.append(name)
    return done
