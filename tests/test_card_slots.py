"""A machine's card slots are a limit on the count, not a stated count (trial s14 #5: '4 个卡槽的机器'
sized 4 cards as stated; '4 PCIe slots' was named 'no word said what it is' and one card was sized). The
count the job needs is sized and the slots are named (``card_slots``); llama.cpp's server slots stay
sequences."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.parse import parse


def ask_json(capsys, question: str) -> dict:
    """``sizing-bot ask --format json QUESTION`` in this process (exit 0 required), parsed."""
    capsys.readouterr()
    assert main(["ask", "--format", "json", question]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("question", "typed"),
    [
        ("机箱只有 4 个显卡插槽，用 4090 部署 Llama-3-70B，10 个并发要几张？", "4 个显卡插槽"),
        ("主板有 4 个槽位，能插几张 4090 跑 Llama-3-70B 推理，10 并发", "4 个槽位"),
        ("4 个卡槽的工作站，4090 部署 Llama-3-70B，10 并发够不够", "4 个卡槽"),
        ("My workstation has 4 PCIe slots; how many 4090s to serve Llama-3-70B to 10 users?", "4 pcie slots"),
        (
            "Only 4 GPU slots in the box: RTX 4090s for Llama-3-70B serving at 10 concurrent, how many?",
            "4 gpu slots",
        ),
        (
            "The motherboard has 4 x16 slots. How many 4090 do I need to serve Llama-3-70B for 10 users?",
            "4 x 16 slots",
        ),
    ],
)
def test_card_slots_are_no_count(question: str, typed: str) -> None:
    res = parse(question)
    req = res.request
    assert (req.gpu, req.gpu_count, req.count_asked, req.concurrency) == ("RTX-4090", None, True, 10)
    assert (typed, "card_slots") in res.unused_numbers


def test_a_stated_count_beside_the_slots_stays() -> None:
    res = parse("I have 4 GPU slots and 2 RTX 3090 now, can I LoRA Llama-3-8B?")
    assert (res.request.gpu, res.request.gpu_count) == ("RTX-3090", 2)
    assert ("4 gpu slots", "card_slots") in res.unused_numbers


def test_llama_cpp_slots_stay_sequences() -> None:
    req = parse("llama.cpp server with 4 parallel slots, Qwen2.5-7B Q4_K_M on a 3090, enough?").request
    assert (req.concurrency, req.gpu_count) == (4, 1)


def test_the_reply_sizes_the_count_and_names_the_slots(capsys) -> None:
    out = ask_json(capsys, "My box has 4 PCIe slots, how many 4090 for serving Llama-3-70B at 10 users?")
    lines = out["reply"].split("\n")
    assert lines[0] == "Meta Llama 3 70B bf16 inference: 8 × RTX 4090 (TP=8)"  # more than the 4 slots
    # s15 (review LOW): the slots are compared with the count sized, which is more than they take
    assert (
        "(the slots in your machine: at most 4 cards — the 8 sized are more than one such machine" in lines[1]
    )
    out = ask_json(capsys, "4 个卡槽的机器，用 4090 部署 Qwen2.5-14B，50 并发够吗")
    assert out["request"]["gpu_count"] is None
    assert "未使用：“4 个卡槽”（机器的卡槽数：最多只能插这么多张卡" in out["reply"].split("\n")[1]
