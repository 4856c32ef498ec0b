"""Session 33, part fixe: findings of the fresh-user trial of the merged tree.

1. 'How long a context can I run?' where only FP8 weights fit the user's GPUs: the longest context is
   solved at FP8 on their count (estimator.serving_capacity.fits_only_in_fp8: the one sequence of a
   'max context?' probe is no stated load), said in the headline; before, no longest context was given and
   the default 4K was sized.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main

# Llama-3.1-70B config.json: 80 layers, 8 KV heads, head_dim 8192/64 = 128; bf16 K and V.
LLAMA70_KV_PER_TOKEN = 80 * 8 * 128 * 2 * 2  # 327,680 bytes


def _ask(capsys, question: str, fmt: str = "text") -> str:
    main(["ask", "--format", fmt, "--", question])
    return capsys.readouterr().out


LONGEST_FP8 = [
    ("Llama-3.1-70B on 2x L40S with vLLM, how long a context can I run?", "longest context that fits: 35K"),
    ("vllm 跑 Llama-3.1-70B，2 张 L40S，能开多大上下文", "放得下的最长上下文：35K"),
]


@pytest.mark.parametrize(("question", "said"), LONGEST_FP8)
def test_longest_context_where_only_fp8_fits(capsys, question: str, said: str) -> None:
    headline = _ask(capsys, question).splitlines()[0]
    assert said in headline
    assert "fp8" in headline.lower()
    data = json.loads(_ask(capsys, question, "json"))
    inf = data["report"]["inference"]
    assert inf["weight_format"] == "fp8" and inf["tp"] == 2 and inf["min_gpus"] == 2
    assert inf["kv_bytes_per_token"] == LLAMA70_KV_PER_TOKEN
    # By hand: KV bytes per token × tokens ≤ 2 × (usable − workspace) − FP8 weights (70.6B × ~1.03 B).
    room = 2 * (inf["usable_bytes_per_gpu"] - inf["workspace_bytes_per_gpu"]) - inf["weights_bytes"]
    by_hand = int(room // LLAMA70_KV_PER_TOKEN) // 1024 * 1024
    assert by_hand == 35 * 1024 == data["request"]["seq_len"] == inf["context_tokens"]
    assert data["request"]["precision"] == "fp8" and inf["concurrency"] == 1


@pytest.mark.parametrize(
    "question",
    [
        "With SGLang on two RTX 4090s, what's the max context for Qwen3-30B-A3B?",
        "两张 4090 用 sglang 部署 Qwen3-30B-A3B，上下文最多能开多长",
    ],
)
def test_longest_context_fp8_reaches_native_window(capsys, question: str) -> None:
    """Qwen3-30B-A3B: 48 layers × 4 KV heads × 128 × 2 × 2 = 96 KiB a token; FP8 weights (31.1 GB) on
    2 × 4090 leave far more than 32,768 × 96 KiB = 3.2 GB, so the native window (32K) is the answer."""
    data = json.loads(_ask(capsys, question, "json"))
    inf = data["report"]["inference"]
    assert inf["kv_bytes_per_token"] == 48 * 4 * 128 * 2 * 2
    assert inf["weight_format"] == "fp8" and data["request"]["seq_len"] == 32 * 1024
    room = 2 * (inf["usable_bytes_per_gpu"] - inf["workspace_bytes_per_gpu"]) - inf["weights_bytes"]
    assert room > 32 * 1024 * inf["kv_bytes_per_token"]
    assert "32K" in _ask(capsys, question).splitlines()[0]


# 2. A pasted TGI command whose --cuda-memory-fraction does not start: the answer raises it to the
#    smallest share that does (steps of 0.05); the vLLM recipe carries that share, not the stated one.
TGI_RAISED = [
    (
        "text-generation-launcher --model-id meta-llama/Meta-Llama-3-8B-Instruct "
        "--cuda-memory-fraction 0.5 --max-total-tokens 8192\n",
        "serve this on one L4",
        0.9,
    ),
    (
        "text-generation-launcher --model-id meta-llama/Meta-Llama-3-8B-Instruct "
        "--cuda-memory-fraction 0.5 --max-total-tokens 8192\n",
        "在一张 L4 上部署这个",
        0.9,
    ),
    (
        "text-generation-launcher --model-id Qwen/Qwen2.5-7B-Instruct "
        "--cuda-memory-fraction 0.4 --max-total-tokens 4096\n",
        "deploy this on a single A100 40GB",
        0.5,
    ),
    (
        "text-generation-launcher --model-id Qwen/Qwen2.5-7B-Instruct "
        "--cuda-memory-fraction 0.4 --max-total-tokens 4096\n",
        "用一张 A100 40G 部署这个服务",
        0.5,
    ),
]


@pytest.mark.parametrize(("pasted", "question", "raised"), TGI_RAISED)
def test_recipe_carries_the_raised_share(capsys, tmp_path, pasted: str, question: str, raised: float) -> None:
    config = tmp_path / "serve.sh"
    config.write_text(pasted)
    data = json.loads(_ask_with(capsys, ["--config", str(config)], question, "json"))
    note = next(n for n in data["report"]["warnings"] if n["code"] == "stated_share_short")
    assert note["params"]["needed"] == raised  # the share the answer says starts
    out = _ask_with(capsys, ["--config", str(config), "--recipe"], question, "text")
    assert f"--gpu-memory-utilization {raised} " in out
    assert "--gpu-memory-utilization 0.5 " not in out or raised == 0.5
    assert "--gpu-memory-utilization 0.4 " not in out


def _ask_with(capsys, extra: list[str], question: str, fmt: str) -> str:
    main(["ask", "--format", fmt, *extra, "--", question])
    return capsys.readouterr().out
