"""Serving on local machines and against a memory total (issue #4): Apple unified memory, quantized
weights as local runtimes run them, the activation workspace, and verdicts at the physical bound."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.parse import parse
from bot.render.notes import why_text
from bot.render.renderer import render
from estimator import catalog, estimate
from estimator.inference import LOCAL, Load, usable_bytes_per_gpu, workspace_bytes
from estimator.models import Precision, SizingRequest, Stage
from estimator.runtimes import Vllm

GIB = 2**30


def test_apple_unified_memory_usable_is_the_metal_working_set():
    """M2 Ultra 192 GB: Metal's recommendedMaxWorkingSetSize ≈ 75 % (144 GiB) − 1 GiB runtime."""
    m2 = catalog.gpu("Apple-M2-Ultra-192GB")
    assert m2.gpu_memory_fraction == 0.75 and m2.memory_bandwidth_gbps == 800
    assert usable_bytes_per_gpu(m2) == pytest.approx(143 * GIB)
    # vLLM: 0.9 × the memory CUDA reports (79.2 GiB of an 80 GB card); the CUDA context is outside it
    assert usable_bytes_per_gpu(catalog.gpu("H100-SXM5-80GB")) == pytest.approx(0.9 * 0.99 * 80 * GIB)


def test_m2_ultra_runs_100b_at_8_bit_not_16_bit():
    """Corpus q080: 'yes at 4–8-bit; fp16 100B (200 GB) does not'."""
    a = answer("Will an M2 Ultra with 192GB unified memory run a 100B+ model?")
    r = a.report
    assert r.request.gpu == "Apple-M2-Ultra-192GB" and r.request.gpu_count == 1
    assert r.request.precision == Precision.q8_0
    assert r.inference.weights_bytes == pytest.approx(100e9 * 8.5 / 8)
    assert r.feasible == "yes"
    [precision] = [x for x in r.assumptions if x.field == "precision"]
    assert "llama.cpp" in why_text("en", precision) and precision.value == "q8_0"


def test_local_4bit_only_is_borderline_and_named_precision_is_kept():
    r = answer("2块4090跑Llama 3 70B推理").report  # Q4_K_M 42.8 GB on 2 × 24 GB with llama.cpp, one user
    assert r.request.precision == Precision.q4_k_m and r.request.concurrency == 1
    assert r.inference.runtime == "llama.cpp"
    assert r.inference.usable_bytes_per_gpu == pytest.approx(23 * GIB)  # no 0.9 cap in llama.cpp
    assert (r.feasible, r.feasible_reason) == ("borderline", "local_4bit")
    assert "does_not_fit_requested" not in {n.code for n in r.warnings}
    r = answer("M2 Max 96G 能跑 Llama 3 70B 吗").report  # 71 GiB usable: Q8_0 75 GB no, Q4_K_M 42.8 GB
    assert r.request.precision == Precision.q4_k_m
    assert (r.feasible, r.feasible_reason) == ("borderline", "local_4bit")
    named = answer("2块4090跑Llama 3 70B推理 bf16").report  # the user's precision is never replaced
    assert named.request.precision == Precision.bf16 and named.feasible == "no"


def test_datacenter_cards_keep_release_precision():
    r = answer("Serving Llama 3.1 70B on 2x H100 with 20k max sequence length and max batch 4?").report
    assert r.request.precision == Precision.bf16 and r.feasible == "no"


def test_apple_memory_configuration_named_by_the_user():
    r = answer("M2 Ultra 64GB run Llama 3 70B?").report
    assert r.request.gpu == "Apple-M2-Ultra-64GB"
    assert r.inference.usable_bytes_per_gpu == pytest.approx((64 * 0.75 - 1) * GIB)
    assert "M2 Ultra 64G" in render(answer("M2 Ultra 64GB run Llama 3 70B?"), "text")


def test_workspace_follows_vllm_batch_defaults():
    """vllm/engine/arg_utils.py get_batch_defaults (V1): 2,048 tokens / 256 sequences below 70 GiB or
    on A100; 8,192 / 1,024 on larger cards. The profile keeps the larger of one forward pass,
    T·(8h + 6f/t) bytes (hidden states replicated over TP, the MLP split), and the sampler, 28·S·V,
    plus 0.16 GiB of non-torch memory, whatever max_model_len (chunked prefill); V0 (a release before
    v0.8 or VLLM_USE_V1=0: no chunked prefill up to 32K) runs a whole max_model_len with 0.35 GiB (trial
    s26 #3: V1 by default). A local runtime: one n_ubatch of 512 tokens, one sequence's logits."""
    glm = catalog.model("ChatGLM2-6B")
    small = catalog.gpu("RTX-4090")
    v1 = max(2048 * (8 * 4096 + 6 * 13696), 28 * 256 * 65024) + 0.16 * GIB
    assert workspace_bytes(glm, small, 1) == pytest.approx(v1)
    assert workspace_bytes(glm, small, 1, LOCAL) == 512 * (4 * 4096 + 3 * 13696) * 2 + 1 * 65024 * 4
    llama = catalog.model("Llama-3.1-70B")
    h100, a100 = catalog.gpu("H100-SXM5-80GB"), catalog.gpu("A100-SXM4-80GB")
    sampler_1024 = 28 * 1024 * 128256  # 3.43 GiB: more than 8,192 tokens of activations at TP 2
    assert workspace_bytes(llama, h100, 2) == pytest.approx(sampler_1024 + 0.16 * GIB)
    forward_2k = 2048 * (8 * 8192 + 6 * 28672 / 2)  # A100: 2,048 tokens whatever max_model_len
    sampler_256 = 28 * 256 * 128256
    assert workspace_bytes(llama, a100, 2, load=Load(context=16384)) == pytest.approx(
        max(forward_2k, sampler_256) + 0.16 * GIB
    )
    forward_16k = 16384 * (8 * 8192 + 6 * 28672 / 2)  # V0 runs a whole 16K max_model_len
    v0 = workspace_bytes(llama, a100, 2, Vllm(engine_v0=True), load=Load(context=16384))
    assert v0 == pytest.approx(forward_16k + 0.35 * GIB)


def test_small_laptop_card_int4_chatglm_is_borderline():
    """Corpus q077: weights ≈ 4.1 GB (int4 body, 16-bit embeddings) on a 6 GB card: tight."""
    r = answer("chatglm2-6b的int4版本怎么实际占了12G多显存？6G显存的笔记本卡还有希望跑吗？").report
    assert r.request.gpu_count == 1 and r.feasible == "borderline"


def test_fits_only_at_full_memory_is_borderline_with_a_whole_layout():
    """Qwen2.5-72B int4 (41.5 GB) on 2 × 24 GB under vLLM: the 2 × 21.4 GiB budget less each card's
    profile (1.37 GiB) leaves 1.4 GiB of KV cache, one 4K sequence: tight (corpus q075 says yes: "~40 GB
    in use, short context only"). Six V100 (TP 6 does not divide 64 heads): no."""
    r = estimate(
        SizingRequest(
            stage=Stage.inference, model="Qwen2.5-72B", precision=Precision.int4, gpu="RTX-3090", gpu_count=2
        )
    )
    assert (r.feasible, r.feasible_reason) == ("borderline", "tight")
    assert answer("6张V100能部署72B吗？张量并行用6卡行不行？").report.feasible == "no"


@pytest.mark.parametrize(
    ("text", "total_gib"),
    [
        ("DeepSeek-V3既然是FP8训练的，部署时按671B算，准备700G左右显存是不是就行？需要几张卡？", 700),
        ("I have 320GB of GPU memory in total, can I serve Llama 3 70B?", 320),
        ("总共160G显存能跑72B吗", 160),
        ("we have 2TB of VRAM, serve DeepSeek R1?", 2048),
    ],
)
def test_total_memory_is_parsed_without_a_count(text, total_gib):
    request = parse(text).request
    assert request.total_memory_gib == total_gib and request.gpu_count is None
    assert request.gpu_memory_gib is None


def test_per_card_and_observed_memory_are_not_totals():
    assert parse("24G显存的卡能跑7B吗").request.gpu_memory_gib == 24
    observed = parse("chatglm2-6b的int4版本怎么实际占了12G多显存？6G显存的笔记本卡还有希望跑吗？").request
    assert observed.gpu_memory_gib == 6 and observed.total_memory_gib is None


def test_total_memory_verdicts():
    """DeepSeek-V3 FP8 ≈ 673 GB of weights: 700 GiB only at nearly full utilization (corpus q068:
    borderline); 320 GiB for Llama 3 70B bf16 (141 GB): yes; 160 GiB for it: no at 0.9."""
    v3 = answer("DeepSeek-V3既然是FP8训练的，部署时按671B算，准备700G左右显存是不是就行？需要几张卡？").report
    assert (v3.feasible, v3.feasible_reason) == ("borderline", "full_memory")
    assert [n.code for n in v3.warnings if n.code.startswith("total_memory")] == ["total_memory_borderline"]
    assert answer("I have 320GB of GPU memory in total, can I serve Llama 3 70B?").report.feasible == "yes"
    short = answer("I have 130GB of GPU memory in total, can I serve Llama 3 70B bf16?")
    assert short.report.feasible == "no"
    assert "130 GiB (140 GB) of GPU memory in total is not enough" in render(short, "text")


def test_one_gpu_reads_singular_in_english():
    text = render(answer("serve Llama 3 8B on one H100"), "text")
    assert "On one GPU: up to" in text and "On 1 GPUs" not in text


def test_a_mac_is_answered_as_a_personal_machine():
    """One user by default, no training or rental warnings, local runtimes in the advice; a 70B that
    fits only tightly in bf16 (140 GB + KV under the 143 GiB usable) stays bf16, said tight (s24 review
    #6: Q8_0 only when the released weights are over the usable share)."""
    a = answer("M2 Ultra 192GB能跑70B吗")
    r = a.report
    assert r.request.concurrency == 1 and r.request.precision == Precision.bf16 and r.feasible == "borderline"
    assert not {"gpu_no_bf16", "no_price"} & {n.code for n in r.warnings}
    text = render(a, "text")
    assert "llama.cpp" in text and "vLLM" not in text and "TP=" not in text
    en = render(answer("Can my M4 Max 128GB run Llama 3 70B?"), "text")
    assert "(one sequence at a time)" in en and "1 sequences" not in en


def test_totals_between_one_card_and_one_mac_are_totals():
    """A figure above any discrete card (288 GB) is a total even when a Mac has more (512 GB)."""
    assert parse("准备300G显存部署Qwen2.5-72B").request.total_memory_gib == 300
    assert parse("we have 400GB of GPU memory, can we serve Llama-3-70B?").request.total_memory_gib == 400
    assert parse("M3 Ultra 512G 跑 R1").request.total_memory_gib is None


def test_smaller_mac_configurations_have_their_own_bandwidth():
    """The 36 GB M4 Max is the 32-core GPU at 410 GB/s (not the 128 GB's 546); Metal gives it 2/3."""
    r = answer("Can my M4 Max 36GB run Qwen2.5-32B?").report
    assert r.request.gpu == "Apple-M4-Max-36GB"
    assert catalog.gpu(r.request.gpu).memory_bandwidth_gbps == 410
    assert r.inference.usable_bytes_per_gpu == pytest.approx((36 * 0.6667 - 1) * GIB)


def test_640_gib_is_not_enough_for_deepseek_v3_fp8():
    """673 GB of weights in 687 GB: only past 0.95 utilization, which nobody can run (fresh-user
    report). 700 GiB (752 GB) stays borderline."""
    r = answer("我们准备了640G显存能部署DeepSeek-V3吗").report
    assert r.feasible == "no" and r.request.total_memory_gib == 640
