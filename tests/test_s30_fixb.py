"""s30 fresh-user trial, fix B.

#1: a TPU answer said "GPUs", "4-GPU nodes", "GPUs → days", whole 8-GPU nodes with NVLink/InfiniBand
and a CUDA context. The catalog's TPUs (vendor Google, ``gpus_per_node`` 4: chips per host) are now
counted in chips on hosts, the advice names ICI inside a slice and DCN across slices, and the runtime
reserve says there is no CUDA context.
"""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process


@pytest.mark.parametrize(
    ("q", "head", "table", "advice"),
    [
        (
            "How many TPU v5p chips to pretrain a 3B model on 300B tokens in 20 days?",
            "chips (",
            "chips → days (range):",
            "ICI torus",
        ),
        (
            "用 TPU v5e 预训练一个 1B 模型，50B token，10 天内要多少芯片？",
            "颗芯片（",
            "芯片数 → 天数（区间）：",
            "ICI 环面互联",
        ),
    ],
)
def test_tpu_pretraining_is_counted_in_chips_on_hosts(
    capsys, q: str, head: str, table: str, advice: str
) -> None:
    d = ask_in_process(capsys, q)
    reply = d["reply"]
    first = reply.splitlines()[0]
    need = d["report"]["gpus_for_deadline"]
    assert need % 4 == 0  # whole hosts of the catalog's 4 chips
    assert head in first and "GPU" not in first.replace("-hours", "").replace("·时", "")
    assert f"{need // 4} hosts of 4 chips" in first or f"{need // 4} 台主机，每台 4 颗芯片" in first
    assert table in reply and "GPUs → days" not in reply and "卡数 → 天数" not in reply
    assert advice in reply and "NVLink, HCCS" not in reply and "NVLink、HCCS" not in reply
    assert "CUDA context and library" not in reply
    assert "no CUDA context on a TPU" in reply or "TPU 没有 CUDA 上下文" in reply


def test_gpu_pretraining_keeps_gpu_words(capsys) -> None:
    d = ask_in_process(capsys, "How many H100s to pretrain a 3B model on 300B tokens in 20 days?")
    assert "GPUs → days (range):" in d["reply"] and "whole 8-GPU nodes" in d["reply"]
    assert "chips" not in d["reply"].splitlines()[0]


@pytest.mark.parametrize(
    ("q", "prompts", "n", "said"),
    [
        (
            "verl GRPO on Qwen2.5-3B, data.train_batch_size=256, actor_rollout_ref.rollout.n=4, 4x A100",
            256,
            4,
            "The batch counts prompts: 256 prompts × 4 responses = 1,024 sequences a step.",
        ),
        (
            "用 verl 做 GRPO，模型 Qwen2.5-1.5B，train_batch_size 64，rollout.n 16，8 张 A800",
            64,
            16,
            "批大小按提示词计：64 条提示词 × 每条 16 个回答 = 每步 1,024 条序列。",
        ),
    ],
)
def test_verl_batch_counts_prompts_times_responses(capsys, q: str, prompts: int, n: int, said: str) -> None:
    """#2: verl's data.train_batch_size counts prompts, each with rollout.n responses (ray_trainer repeats
    the batch rollout.n times): prompts × n sequences a step is no batch the plan had to round."""
    d = ask_in_process(capsys, q)
    codes = {w["code"]: w["params"] for w in d["report"]["warnings"]}
    assert "global_batch_adjusted" not in codes
    assert codes["global_batch_prompts"] == {"prompts": prompts, "responses": n, "sequences": prompts * n}
    assert said in d["reply"]
    assert "whole number of micro-batches" not in d["reply"] and "整数倍" not in d["reply"]


@pytest.mark.parametrize(
    ("q", "said"),
    [
        ("Serve Llama 3.1 8B on TPU v5e for 20 concurrent users", "• On 2 chips: up to "),
        ("在 TPU v5e 上部署 Qwen2.5-7B，30 个并发", "• 2 颗芯片："),
    ],
)
def test_tpu_serving_counts_chips(capsys, q: str, said: str) -> None:
    """#1 on serving: the v5e's 16 GiB chips hold an 8B/7B bf16 model on 2 chips, said as chips."""
    d = ask_in_process(capsys, q)
    assert d["report"]["inference"]["recommended_gpus"] == 2
    assert said in d["reply"]
    assert "On 2 GPUs" not in d["reply"] and "2 张卡：" not in d["reply"]
