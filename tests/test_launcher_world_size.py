"""'How many concurrent can it handle?' of a pasted serving command with a TP and no GPU count is the
capacity on the launcher's world size (TP × PP × DP), not on copies of the group sized for an assumed
load (s14 trial: `vllm serve Qwen2.5-72B --tensor-parallel-size 4 … on A100 80G` answered "28
concurrent: 12 × A100 80G (TP=4 × 3 replicas) … up to 42": 28 was the capacity of the 2 copies of TP 4
that the default 16 sequences need, then sized again at 28)."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, ask_quietly

VLLM = "vllm serve Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 4 --max-model-len 32768"
QUESTIONS = [
    f"{VLLM} on A100 80G, how many concurrent requests can it handle?",
    f"{VLLM}，A100 80G，能支持多少并发请求？",
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_capacity_is_on_the_launchers_four_gpus(capsys, question: str) -> None:
    d = ask_in_process(capsys, question)
    assert d["request"]["tp"] == 4 and d["request"]["gpu_count"] == 4
    inf = d["report"]["inference"]
    # 4 × 71.3 GiB usable − 145.4 GB weights − 4 × 1.26 GB workspace = 475,152 KV tokens: 14 × 32K
    # (s26 trfix #3: V1's profile, the sampler's 28 × 256 × 152,064 + 0.16 GiB on an A100; V0's whole
    # 32K sequence, 4.0 GB, gave 442,000)
    assert (inf["serving_gpus"], inf["tp"], inf["replicas"]) == (4, 4, 1)
    assert inf["kv_capacity_tokens"] == 475_152 and inf["max_concurrency"] == 14
    assert inf["concurrency"] == 14  # the most they hold, no invented load (was 28)
    assert [16384, 29] in inf["concurrency_table"] and [2048, 232] in inf["concurrency_table"]
    world = next(a for a in d["assumptions"] if a["field"] == "gpu_count")
    assert world["why"] == "launcher_world_size" and world["value"] == 4
    head = ask_quietly(question).splitlines()[0]
    assert "14" in head and "12 ×" not in head and "28" not in head and "42" not in head


def test_same_answer_as_the_four_gpus_said(capsys) -> None:
    said = ask_in_process(capsys, f"{VLLM} on 4 A100 80G, how many concurrent requests can it handle?")
    world = ask_in_process(capsys, QUESTIONS[0])
    assert world["report"]["inference"] == said["report"]["inference"]


@pytest.mark.parametrize(
    ("question", "gpus"),
    [
        ("text-generation-launcher --model-id Qwen/Qwen2.5-72B-Instruct --num-shard 4 on A100 80G, "
         "how many concurrent requests can it handle?", 4),
        ("python -m sglang.launch_server --model-path Qwen/Qwen2.5-72B-Instruct --tp 4 --dp 2 on A100 80G,"
         " how many concurrent requests can it handle?", 8),
        ("lmdeploy serve api_server Qwen/Qwen2.5-72B-Instruct --tp 4，A100 80G，能支持多少并发？", 4),
    ],
)  # fmt: skip
def test_other_launchers_world_size(capsys, question: str, gpus: int) -> None:
    inf = ask_in_process(capsys, question)["report"]["inference"]
    assert inf["serving_gpus"] == gpus and inf["tp"] == 4 and inf["replicas"] == gpus // 4


def test_how_many_gpus_with_a_tp_still_sizes_copies(capsys) -> None:
    """A count asked is no world size: 'how many A100 for 64 concurrent' with --tp 4 sizes copies of TP 4."""
    d = ask_in_process(capsys, f"{VLLM} on A100 80G, how many GPUs for 64 concurrent requests?")
    assert d["request"]["gpu_count"] is None
    assert not any(a["why"] == "launcher_world_size" for a in d["assumptions"])
