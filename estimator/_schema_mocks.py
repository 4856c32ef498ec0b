"""A deferred model's core-schema stand-in that ends in the full schema (for :mod:`estimator._schema_store`).

pydantic gives a model declared with ``defer_build=True`` three stand-ins (``set_model_mocks`` in
pydantic 2.14's ``_internal/_mock_val_ser.py``): asked for, each completes the model and returns the
completed attribute. A stored model is completed from its stored schema, whose
``__pydantic_core_schema__`` is itself a stand-in (generated in full on first use), so pydantic's
core-schema stand-in returned a stand-in and ``model_json_schema()`` in a fresh process failed its own
assertion (``'this is a bug! please report it'``). This one completes the model the same way and then
asks the stored model's stand-in for the full schema.
"""

from __future__ import annotations

from typing import Any

_original: Any = None


def _core_stand_in(cls: Any, mock_type: type) -> Any:
    """``cls``'s core-schema stand-in: complete the model (as pydantic's does), then the full schema."""

    def rebuild(*, parent_namespace_depth: int = 5) -> Any:
        if cls.model_rebuild(raise_errors=False, _parent_namespace_depth=parent_namespace_depth) is False:
            return None
        schema = cls.__pydantic_core_schema__
        return schema.rebuild() if isinstance(schema, mock_type) else schema

    return mock_type(
        f"`{cls.__name__}` is not fully defined; define all referenced types, then call "
        f"`{cls.__name__}.model_rebuild()`.",
        code="class-not-fully-defined",
        attempt_rebuild=rebuild,
    )


def set_model_mocks(cls: Any, undefined_name: str | None = None) -> None:
    """pydantic's ``set_model_mocks``, with :func:`_core_stand_in` for our own models (``packages``)."""
    _original(cls, undefined_name)
    if cls.__module__.startswith(("bot.", "estimator.")):
        from pydantic._internal._mock_val_ser import MockCoreSchema

        cls.__pydantic_core_schema__ = _core_stand_in(cls, MockCoreSchema)


def wrap(module: Any) -> None:
    """Wrap ``module.set_model_mocks`` (pydantic's ``_internal._model_construction``) once."""
    global _original
    if _original is None and hasattr(module, "set_model_mocks"):
        _original = module.set_model_mocks
        module.set_model_mocks = set_model_mocks
