"""One card count said to have run out of memory is a lower bound (session 18, s18-fix item 2).

The fresh-user trial's 'GRPO … 8 卡 H100 OOM 了' answered 'fits 51.7 GiB' on 8, 'vLLM OOMs on 2 A100s
serving Llama-3.1-70B' answered 'the weights fit' on 2 and '4x A100 40GB … getting CUDA OOM. Is 4
enough?' left '4' unused: now the count that failed is never the answer, for training and serving, and
the note says whether the estimate agrees (bot.parse.count_failed, bot.core.failed_serving).
"""

from __future__ import annotations

import pytest

from bot.core.failed_counts import ONE_AGREES, ONE_DISAGREES, ONE_EDGE
from bot.core.failed_serving import SERVING_AGREES, SERVING_DISAGREES
from bot.core.pipeline import Context, answer
from bot.parse import parse
from bot.parse.counts_tried import COUNTS_FAILED
from bot.render.renderer import render

GIB = 2**30
LLAMA31_70B = 70.6e9  # meta-llama/Llama-3.1-70B config.json (the catalog's release count)
LLAMA7B = 6.74e9  # LLaMA-7B: 6,738,415,616 parameters (Touvron et al. 2023)

TRIAL_GRPO = (
    "GRPO 训练 Qwen2.5-7B，每个 prompt 生成 8 条，max_response_length 1024，8 卡 H100 OOM 了，怎么办？"
)
TRIAL_VLLM = "vLLM OOMs on 2 A100s serving Llama-3.1-70B in bf16, why?"
TRIAL_FSDP = (
    "Fine-tuning LLaMA-7B (full, FSDP full_shard) on 4x A100 40GB with seq len 512, getting CUDA OOM. "
    "Is 4 enough?"
)

FAILED_ONE = [
    (TRIAL_GRPO, 8),
    (TRIAL_VLLM, 2),
    (TRIAL_FSDP, 4),
    ("全参微调 Qwen2.5-7B，8 张 A100 爆显存了，要几张", 8),
    ("Qwen2.5-7B 全参微调 4 卡 A100 跑不起来，显存不够", 4),  # s18-fxa: 跑不起来 next to 显存
    ("I want to fine-tune Llama-3-8B on 8 A100s but it OOMs", 8),
    ("vLLM 在 2 张 A100 上部署 Llama-3.1-70B，32k 上下文，OOM 了", 2),
]


@pytest.mark.parametrize(("text", "count"), FAILED_ONE)
def test_one_count_that_failed_is_read_as_failed(text: str, count: int) -> None:
    p = parse(text)
    assert (p.request.gpu_count, p.request.gpu_count_max) == (count, None)
    assert COUNTS_FAILED in p.notes


@pytest.mark.parametrize(
    "text",
    [
        "will 8 H100s OOM on full fine-tuning Llama-3-8B?",
        "8 卡 A100 会不会 OOM，全参微调 Qwen2.5-7B",
        "全参微调 Qwen2.5-7B 用 8 卡 A100 够吗",
        "8 卡 A100 全参微调 Qwen2.5-7B 会爆显存吗",
        "how to full fine-tune Llama-3-8B on 8 A100s without OOM",
    ],
)
def test_a_feared_or_asked_failure_is_no_failed_count(text: str) -> None:
    p = parse(text)
    assert p.request.gpu_count == 8 and COUNTS_FAILED not in p.notes


def test_trial_fsdp_count_four_is_used_and_sized_above() -> None:
    p = parse(TRIAL_FSDP)
    assert "4" not in [raw for raw, _ in p.unused_numbers]  # 'Is 4 enough?' is the count that failed
    a = answer(TRIAL_FSDP, Context())
    note = a.report.warnings[0]
    # s19: borderline at 4 (≈ 32.9 GiB likely, high end ≈ 42.6 GiB > 40): the OOM matches the high end
    assert note.code == ONE_EDGE and note.params["gpu_count"] == 4 and note.params["next_gpus"] == 8
    assert note.params["feasible"] == "borderline" and note.params["high_gib"] > note.params["usable_gib"]
    # by hand, ZeRO-3 on 4: 16 B of model states per parameter / 4 = 25.1 GiB, activations on top
    assert LLAMA7B * 16 / 4 / GIB < note.params["per_gpu_gib"] < note.params["usable_gib"] == 40
    m = a.report.memory
    assert m.plan_gpus == 8 and m.min_gpus == 8 and m.recommended_gpus >= 8  # never the 4 that failed
    text = render(a, "text")
    assert "You said 4 GPUs ran out of memory; that matches the high end" in text
    assert "Sized at 8 GPUs" in text


def test_trial_grpo_never_answers_the_eight_that_failed() -> None:
    a = answer(TRIAL_GRPO, Context())
    assert a.report.warnings[0].code in (ONE_AGREES, ONE_DISAGREES)
    assert a.report.warnings[0].params["gpu_count"] == 8
    assert a.report.memory.plan_gpus == 16  # 8 H100s a node: the next whole node
    text = render(a, "text")
    assert text.startswith("Qwen2.5 7B GRPO 训练") and "16 张 H100 80G" in text.splitlines()[0]
    assert "8 张" in text.splitlines()[1]  # the OOM is named right under the headline


def test_trial_vllm_two_a100s_disagrees_and_sizes_four() -> None:
    a = answer(TRIAL_VLLM, Context())
    note = a.report.warnings[0]
    assert note.code == SERVING_DISAGREES and note.params["gpu_count"] == 2 and note.params["next_gpus"] == 4
    # by hand: bf16 weights 2 B × 70.6e9 = 141.2 GB over TP 2 = 65.7 GiB a GPU (+ 1.0 GiB workspace: V1's
    # 2,048-token chunk on an A100 and the sampler 28 × 256 × 128,256 + 0.16 GiB; V0's 0.35 GiB gave 1.2062)
    assert note.params["weights_gib"] == pytest.approx(LLAMA31_70B * 2 / 2 / GIB + 1.0162, abs=0.01)
    assert note.params["usable_gib"] == pytest.approx(80 * 0.9 * 1e9 / 1e9 * 0.99, abs=0.5)  # 90 % of 79.2
    # s26 trfix #3: 0.19 GiB less workspace a GPU × 2 / 320 KiB = 1,248 more tokens than V0's 28,320 (6)
    assert note.params["kv_tokens"] == 29568 and note.params["max_concurrency"] == 7  # 29,568 // 4,096
    inf = a.report.inference
    assert inf.serving_gpus == 4 and inf.min_gpus == 4
    text = render(a, "text")
    assert "on 4 × A100 80G" in text.splitlines()[0]
    assert "You said serving ran out of memory on 2 GPUs" in text and "max_model_len" in text


def test_serving_at_32k_on_two_a100s_agrees() -> None:
    a = answer("vLLM OOMs on 2 A100s serving Llama-3.1-70B with 32k context", Context())
    note = a.report.warnings[0]
    assert note.code == SERVING_AGREES and note.params["gpu_count"] == 2
    # by hand: one 32K sequence's KV is 320 KiB × 32,768 = 10 GiB; 71.3 − 67.0 GiB does not hold it
    assert note.params["usable_gib"] - note.params["weights_gib"] < 320 * 1024 * 32768 / GIB
    assert a.report.inference.serving_gpus > 2 and a.report.inference.min_gpus > 2
    assert "the estimate agrees" in render(a, "text")
