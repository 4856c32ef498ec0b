"""An unused number equal to a used one is still named (s14 design review): the left-behind audit matched
values only, so '--ep 8' (a flag read and dropped) vanished beside '8 A100' (the GPU count). Where the
roles step records the places it read, a field's value read at another place no longer hides it."""

from __future__ import annotations

import pytest

from bot.parse.left_behind import left_behind
from tests.cli_run import ask_in_process, named


def _masking(s0: str, part: str) -> str:
    i = s0.index(part)
    return s0[:i] + " " * len(part) + s0[i + len(part) :]


def test_the_audit_names_a_value_read_at_another_place() -> None:
    s0 = "on 8 a100, --ep 8 here"
    s = _masking(s0, "--ep 8")
    assert left_behind(s0, s, {"gpu_count": 8}, [], used_at=((3, 8.0),)) == ["8"]
    assert left_behind(s0, s, {"gpu_count": 8}, []) == []  # no places known: by value, as before
    # two fields hold 8 (the count read at 3, the TP by the reader that masked it): the 8 is the TP's
    assert left_behind(s0, s, {"gpu_count": 8, "tp": 8}, [], used_at=((3, 8.0),)) == []
    # its reader recorded reading 8 (a keyed value): used
    assert left_behind(s0, s, {"gpu_count": 8}, [], computed=(8,), used_at=((3, 8.0),)) == []


@pytest.mark.parametrize(
    "question",
    [
        "Qwen2.5-7B LoRA on 8 A100, 1B tokens, --ep 8, how long?",
        "Qwen2.5-7B LoRA，8 张 A100，10 亿 token，--ep 8，要多久？",
    ],
)
def test_an_equal_unused_flag_is_named(capsys, question: str) -> None:
    d = ask_in_process(capsys, question)
    assert d["request"]["gpu_count"] == 8 and d["request"]["tokens"] == 1e9
    assert named(d).get("8") == "unread"  # was absent: the 8 of '8 A100' hid it
    other = ask_in_process(capsys, question.replace("--ep 8", "--ep 6"))
    assert named(other).get("6") == "unread"


def test_a_value_its_reader_used_stays_unnamed(capsys) -> None:
    d = ask_in_process(
        capsys,
        "Serving Llama-3-70B on 8 L40S with vLLM, tensor parallel is 8, we expect concurrency around 64",
    )
    assert (d["request"]["gpu_count"], d["request"]["tp"], d["request"]["concurrency"]) == (8, 8, 64)
    assert "8" not in named(d)
