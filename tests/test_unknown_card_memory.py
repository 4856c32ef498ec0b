"""s10 trial A4: a card outside the catalog named with its memory and no vendor word ('one MyCard 24GB',
'one SuperGPU 48GB') was sized on A100 80G with its memory left unread; as '寒武纪 MLU370 48G' and
'MTT S4000 48GB' already were, it is now kept under its typed name and sized at the stated memory, and
the note for '… SuperGPU 48GB card' no longer asks for the memory already given."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _ask(capsys, *args: str) -> str:
    capsys.readouterr()
    assert main(["ask", *args]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "name", "gib"),
    [
        ("serve Qwen2.5-7B on one MyCard 24GB with 10 users", "MyCard", 24.0),
        ("LoRA Qwen2.5-7B on one SuperGPU 48GB", "SuperGPU", 48.0),
        ("LoRA Qwen2.5-7B on a SuperGPU 48GB card", "SuperGPU", 48.0),
        ("用一张 MyCard 24GB 部署 Qwen2.5-7B，10个并发", "MyCard", 24.0),
        ("用一张 SuperGPU 48GB 的卡 LoRA 微调 Qwen2.5-7B", "SuperGPU", 48.0),
    ],
)
def test_an_unknown_card_is_sized_at_its_stated_memory(capsys, text: str, name: str, gib: float) -> None:
    answer = json.loads(_ask(capsys, "--format", "json", text))
    request = answer["request"]
    assert (request["gpu"], request["gpu_memory_gib"]) == (name, gib)  # was A100-SXM4-80GB, None
    assert answer["interpretation"]["unknown_gpu"] == name
    assert not [i for i in answer["interpretation"]["ignored"] if i["reason"] == "unread"]  # '24' was unread


@pytest.mark.parametrize(
    ("text", "said", "asked"),
    [
        (
            "LoRA Qwen2.5-7B on a SuperGPU 48GB card",
            "(“SuperGPU 48GB, <TFLOPS> TFLOPS per card”)",
            "<memory>GB",
        ),
        (
            "用一张 SuperGPU 48GB 的卡 LoRA 微调 Qwen2.5-7B",
            "（“SuperGPU 48GB，每卡 <TFLOPS> TFLOPS”）",
            "<显存>GB",
        ),
    ],
)
def test_the_note_never_asks_for_the_memory_given(capsys, text: str, said: str, asked: str) -> None:
    reply = _ask(capsys, text)
    assert said in reply and asked not in reply
    assert "A100 80G" not in reply


def test_a_card_named_without_memory_still_asks_for_it(capsys) -> None:
    reply = _ask(capsys, "LoRA Qwen2.5-7B on one FooGPU 9000 card")
    assert "(“FooGPU 9000 <memory>GB, <TFLOPS> TFLOPS per card”)" in reply  # unchanged: no memory given
