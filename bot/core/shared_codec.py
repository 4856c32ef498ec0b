"""JSON forms of the conversation's memory (:mod:`bot.core.conversation`) for the shared store
(:mod:`bot.core.shared`). Models are dumped with ``exclude_unset`` so that loading them back gives the
same ``model_fields_set`` (what the user said, as opposed to defaults: follow-ups depend on it)."""

from __future__ import annotations

from typing import Any

from bot.core.compact import Packed, pack, unpack
from bot.parse import ParseResult
from estimator.models import SizingRequest


def _dump(model: Any) -> dict[str, Any]:
    live = unpack(model) if isinstance(model, Packed) else model
    return live.model_dump(mode="json", exclude_unset=True, warnings=False)


def _values(values: dict[str, Any]) -> dict[str, Any]:
    """A stage switch's kept/reset request values (a dict of SizingRequest fields) as JSON."""
    if not values:
        return {}
    partial = SizingRequest.model_construct(**values)
    return partial.model_dump(mode="json", include=set(values), warnings=False)


def _typed(values: dict[str, Any]) -> dict[str, Any]:
    if not values:
        return {}
    try:
        checked = SizingRequest.model_validate(values)
    except ValueError:
        return values
    return {k: getattr(checked, k) for k in values}


def encode_memory(mem: Any) -> dict[str, Any]:
    return {"request": _dump(mem.request), "lang": mem.lang, "turn_id": mem.turn_id, "script": mem.script}


def decode_memory(data: dict[str, Any]) -> Any:
    from bot.core.conversation import _Memory

    request = pack(SizingRequest.model_validate(data["request"]))
    return _Memory(request, data["lang"], str(data["turn_id"]), data.get("script") or "Hans")


def encode_turn(rec: Any) -> dict[str, Any]:
    return {
        "id": rec.id,
        "chat_id": rec.chat_id,
        "user_id": rec.user_id,
        "parsed": _dump(rec.parsed),
        "request": None if rec.request is None else _dump(rec.request),
        "lang": rec.lang,
        "fixed_lang": rec.fixed_lang,
        "followup": rec.followup,
        "changed": list(rec.changed),
        "kept": _values(rec.kept),
        "reset": _values(rec.reset),
        "text": rec.text,
        "script": rec.script,
    }


def decode_turn(data: dict[str, Any]) -> Any:
    from bot.core.conversation import _TurnRecord

    request = data.get("request")
    return _TurnRecord(
        id=str(data["id"]),
        chat_id=str(data["chat_id"]),
        user_id=str(data["user_id"]),
        parsed=pack(ParseResult.model_validate(data["parsed"])),
        request=None if request is None else pack(SizingRequest.model_validate(request)),
        lang=data["lang"],
        fixed_lang=data.get("fixed_lang"),
        followup=bool(data["followup"]),
        changed=list(data.get("changed") or []),
        kept=_typed(data.get("kept") or {}),
        reset=_typed(data.get("reset") or {}),
        text=str(data.get("text") or ""),
        script=data.get("script") or "Hans",  # a turn stored before s38: Simplified
    )
