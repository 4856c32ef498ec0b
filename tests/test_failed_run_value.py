"""Of one setting said at two values, one in a plain clause and one in the run that failed, the failed
run's value is sized and the other named as the run that ran (``other_setup``): bot/parse/structure.py
``_PREFER``, the labelling convention of tests/data/real_questions/README.md 'Session 24' (the failed run is
the run asked about again, as bot/parse/count_failed.py reads a failed count). The question's own value
still wins."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


def _reasons(answer: dict) -> dict[str, str]:
    return {i["text"]: i["reason"] for i in answer["interpretation"]["ignored"]}


@pytest.mark.parametrize(
    ("text", "key", "sized", "ran"),
    [
        (
            "vLLM serving Qwen2.5-14B on 2 A100s, 16 concurrent requests; at 64 concurrent requests it OOMs.",
            "concurrency",
            64,
            "16",
        ),
        (
            "Full fine-tune of Qwen2.5-7B with max_seq_length=2048 on 4 A100 80G, about 60-70 GB per card; "
            "at 4096 length it OOMs on 8 A100s.",
            "gpu_count",
            8,
            "4",
        ),
        (
            "SGLang with Llama-3.1-70B on 4 H100s at 8 concurrent users is fine; with 32 concurrent users "
            "it runs out of memory.",
            "concurrency",
            32,
            "8",
        ),
        ("vllm 部署 Qwen2.5-14B，两张 A100，16 并发；64 并发时就 OOM 了。", "concurrency", 64, "16"),
        (
            "Qwen-14B 全量微调：max_seq_length=2048，4 台 8 卡 80G，每张卡显存 60-70G；"
            "4096 长度时 8 台机器都会 OOM。",
            "gpu_count",
            64,
            "4",
        ),
        (
            "lmdeploy 部署 Qwen2.5-32B，4 张 A100，20 并发；并发加到 80 就报错显存不足。",
            "concurrency",
            80,
            "20",
        ),
    ],
)
def test_the_failed_run_is_sized(text: str, key: str, sized: int, ran: str) -> None:
    answer = answer_json(text)
    assert answer["request"][key] == sized
    assert _reasons(answer).get(ran) == "other_setup"


@pytest.mark.parametrize(
    ("text", "key", "sized"),
    [
        (
            "At 64 concurrent requests it OOMs on 2 A100s with Qwen2.5-14B. "
            "Can I serve 16 concurrent requests?",
            "concurrency",
            16,
        ),
        (
            "Qwen2.5-7B full fine-tune at 4096 length OOMs on 8 A100s. "
            "How many A100s do I need at 2048 length?",
            "seq_len",
            2048,
        ),
        ("Qwen2.5-14B 在两张 A100 上 64 并发 OOM 了，16 并发够吗？", "concurrency", 16),
        (
            "我想用 4 张 A100 微调 Qwen2.5-7B，2048 长度；之前 8 张卡 8192 长度时 OOM 了。4 张够吗？",
            "gpu_count",
            4,
        ),
    ],
)
def test_the_question_still_wins(text: str, key: str, sized: int) -> None:
    assert answer_json(text)["request"][key] == sized
