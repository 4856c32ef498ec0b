"""The helpers the round-form tests share (tests/test_round*_forms.py): one question asked in this
process through ``sizing-bot ask --format json``, and the request's fields and ignored items of its answer."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process


def ask(capsys: pytest.CaptureFixture[str], text: str, want_code: int = 0) -> dict[str, Any]:
    """The JSON answer to ``text`` (``want_code`` 2: nothing understood)."""
    return ask_in_process(capsys, text, want_code=want_code)


def req(data: dict[str, Any], key: str) -> Any:
    """The answer's request field ``key`` (None when absent)."""
    return data["request"].get(key)


def fields(data: dict[str, Any], *keys: str) -> dict[str, Any]:
    """The answer's request fields ``keys``, by name."""
    return {k: data["request"].get(k) for k in keys}


def ignored(data: dict[str, Any]) -> list[str]:
    """The texts the answer names as not used (``interpretation.ignored``)."""
    return [str(i.get("text")) for i in data["interpretation"].get("ignored") or []]
