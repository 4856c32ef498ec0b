"""Trial report s10 (fresh-user trial of the integration branch), serving items: B1 — a stated serving
TP ('--tp 2', '--tensor-parallel-size 2') is kept when the question asks how many cards named with
their memory ('A800 40G要几张', 'how many A100 80G'); the answer sizes copies of TP 2 and names what a
free layout would need. Through the CLI, in both languages; the questions are the trial's own."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import main
from estimator import attention, catalog
from estimator.serving_speed import FITTED


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    code = main(["ask", "--format", "json", text])
    data = json.loads(capsys.readouterr().out)
    assert code == 0, data
    return data


STATED_TP = [
    "serve Qwen2.5-32B with vLLM --tensor-parallel-size 2, 100 concurrent users at 8k context, "
    "how many A100 80G",
    "用lmdeploy部署internlm2.5-20b，--tp 2 --session-len 32768 --max-batch-size 64，A800 40G要几张",
]


@pytest.mark.parametrize("text", STATED_TP)
def test_a_stated_serving_tp_is_kept_when_the_count_is_asked(capsys, text: str) -> None:
    """Every copy is TP 2 (the engine runs one copy per ``--tp`` group); the GPUs are a whole number of
    copies, and the note names the free layout's fewer GPUs (TP 4 / TP 8) rather than silently using it."""
    out = ask(capsys, text)
    inf = out["report"]["inference"]
    assert out["request"]["tp"] == 2
    assert (inf["tp"], inf["pp"]) == (2, 1)
    assert inf["recommended_gpus"] == 2 * inf["replicas"] and inf["replicas"] > 1
    note = next(w for w in out["report"]["warnings"] if w["code"] == "stated_layout_needs_more")
    assert note["params"]["tp"] == 2 and note["params"]["gpus"] == inf["recommended_gpus"]
    assert note["params"]["free_gpus"] < inf["recommended_gpus"]
    assert inf["max_concurrency"] >= out["request"]["concurrency"]


def test_prefill_attention_runs_at_the_16_bit_peak_with_fp8_weights(capsys) -> None:
    """A6: DeepSeek-V3 (FP8 weights, 37B active) on 8 H200 at 128K, SGLang: the prompt is 3/4 of the
    context (98,304 tokens). Weight matmuls 2 × 37e9 × 98,304 = 7.27e15 FLOPs at the FP8 peak
    (1,978.9 TFLOPS dense, H200 = H100 compute); MLA attention (61 layers × 128 heads, q·k 192 + v 128,
    causal: 2 × 128 × 320 × 49,152 keys on average × 61 × 98,304) ≈ 2.41e16 FLOPs at the bf16
    peak (989.4 TFLOPS) — the KV cache is bf16, so FlashMLA / FA3 prefill runs in bf16. Both at the
    fitted prefill MFU over 8 GPUs: ≈ 5.2 s, where the FP8 peak for everything gave 2.9 s; + 0.96 s of
    all-reduces since s39 fixs #1."""
    out = ask(
        capsys,
        "Can I serve DeepSeek-V3 on 8 H200 with SGLang at 128k context? how many concurrent requests",
    )
    inf = out["report"]["inference"]
    assert (inf["weight_format"], inf["tp"], inf["prompt_tokens"]) == ("fp8", 8, 98304)
    spec = catalog.model("DeepSeek-V3")
    attn = attention.flops_per_token(attention.shape_of(spec), 98304, passes=1.0) * 98304
    assert attn == pytest.approx(2.41e16, rel=0.01)
    linear = 2 * 37e9 * 98304
    # + TP 8's all-reduces (s39 fixs #1): 2 × 61 × (10 µs + 1.75 × 98,304 × 7,168 × 2 B / (450 GB/s × 0.7))
    allreduce = 122 * (10e-6 + 1.75 * 98304 * 7168 * 2 / (450e9 * 0.7))
    assert allreduce == pytest.approx(0.956, abs=0.001)
    assert inf["prefill_allreduce_seconds"] == pytest.approx(allreduce, rel=1e-9)
    expected = (linear / 1978.9e12 + attn / 989.4e12) / (FITTED.prefill_mfu * 8) + allreduce
    assert inf["prefill_seconds"] == pytest.approx(expected, rel=1e-3)
    assert inf["prefill_seconds"] == pytest.approx(6.16, abs=0.05)


def test_prefill_of_bf16_weights_is_unchanged_at_the_16_bit_peak(capsys) -> None:
    """A6, bf16 weights: Llama-3.3-70B on 4 A100 (312 TFLOPS) with ``--max-model-len 32768``: prompt
    24,576 tokens; (2 × N_active + causal attention) × tokens at 312 TFLOPS × the fitted MFU × 4 = 5.1 s
    (the trial's 4.8 s 'at 100 %' counted a 32,768-token prompt)."""
    out = ask(
        capsys,
        "serve Llama-3.3-70B with vLLM on 4x A100 80GB, --max-model-len 32768 --max-num-seqs 128, "
        "how many concurrent users?",
    )
    inf = out["report"]["inference"]
    assert (inf["weight_format"], inf["tp"], inf["prompt_tokens"]) == ("bf16", 4, 24576)
    # 5.06 s of matmuls + TP 4's all-reduces over NVLink 3 (300 GB/s one way, 70 %; s39 fixs #1):
    # 2 × 80 × (10 µs + 1.5 × 24,576 × 8,192 × 2 B / 210 GB/s) = 0.462 s
    assert inf["prefill_allreduce_seconds"] == pytest.approx(160 * (10e-6 + 1.5 * 24576 * 8192 * 2 / 210e9))
    assert inf["prefill_seconds"] == pytest.approx(5.06 + 0.462, abs=0.01)


def test_sglang_usable_per_gpu_is_after_its_mem_fraction_as_vllms(capsys) -> None:
    """C1: 'usable per GPU' is the memory after the engine's fraction for both engines. SGLang on H200
    (139.8 GiB visible, CUDA context off): its default ``mem_fraction_static`` there of the free memory,
    not the 139 GiB before the fraction; vLLM on A100 80G: 0.9 × 79.2 GiB = 71.3 GiB, as before.
    s24: 119 -> 123 GiB, fraction 0.857 -> 0.885: SGLang's default is plain TP for MLA now (5daee240), so
    no data-parallel attention's extra 4 GiB reserve (server_args.py v0.5.2: reserved 12 + 0.5 × 8 = 16 GiB,
    not 20; estimator/runtimes/sglang.py)."""
    sglang = main(["ask", "Can I serve DeepSeek-V3 on 8 H200 with SGLang at 128k context?"])
    text = capsys.readouterr().out
    assert sglang == 0 and "usable per GPU: 123 GiB" in text
    out = ask(capsys, "Can I serve DeepSeek-V3 on 8 H200 with SGLang at 128k context?")
    inf = out["report"]["inference"]
    share = (inf["usable_bytes_per_gpu"] - inf["workspace_bytes_per_gpu"]) / inf["usable_bytes_per_gpu"]
    assert share == pytest.approx(0.885, abs=1e-3)
    assert inf["usable_bytes_per_gpu"] * 0.885 / 2**30 == pytest.approx(123, abs=0.5)
    zh = main(["ask", "用SGLang在8张H200上部署DeepSeek-V3，128k上下文，能并发多少"])
    assert zh == 0 and "每卡可用 123 GiB" in capsys.readouterr().out
    main(["ask", "serve Qwen2.5-32B with vLLM, 100 concurrent users at 8k context on 4 A100 80G"])
    assert "usable per GPU: 71.3 GiB" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "echo"),
    [
        (
            "serve Qwen2.5-72B with SGLang --tp 4 --mem-fraction-static 0.85 on 4 H100, 32 users at 8k",
            "(SGLang, mem_fraction_static 0.85)",
        ),
        (
            "用SGLang部署Qwen2.5-72B，--tp 4 --mem-fraction-static 0.85，4张H100，32并发 8k",
            "（SGLang，mem_fraction_static 0.85）",
        ),
    ],
)
def test_sglang_mem_fraction_is_echoed_under_its_own_name(capsys, text: str, echo: str) -> None:
    """C1: SGLang's ``--mem-fraction-static 0.85`` is echoed as mem_fraction_static, not as vLLM's
    gpu_memory_utilization (a different share: of the whole card, activations included)."""
    assert main(["ask", text]) == 0
    headline = capsys.readouterr().out.splitlines()[0]
    assert echo in headline and "gpu_memory_utilization" not in headline


@pytest.mark.parametrize(
    "text",
    [
        # s24: an RTX A6000 48GB, not the L40S of the trial: an L40S now sizes at its ECC-on 46,068 MiB, where
        # SGLang's TP 4 copy no longer holds one 8K sequence (another note); the A6000 keeps 0.99 × 48 GiB
        "serve Llama-3.3-70B with SGLang --tp 4 on 4x RTX A6000 48GB, 32 concurrent users at 8k context, fits?",  # noqa: E501
        "SGLang --tp 4 部署 Llama-3.3-70B，4 张 RTX A6000 48GB，32 并发、8k 上下文，放得下吗？",
    ],
)
def test_the_free_layout_is_named_on_the_gpus_it_needs(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """The note compares the user's TP 4 copies (3 sequences each at 8K: 44 GPUs for 32) with a layout
    chosen freely on the GPUs that layout needs (8): its TP × PP is the one on those 8 — TP 8, whose one
    copy holds the 32 — not the TP 4 it would take on the user's 4 (the note read "TP 4 × PP 1 needs 8")."""
    out = ask(capsys, text)
    note = next(w for w in out["report"]["warnings"] if w["code"] == "stated_layout_needs_more")
    p = note["params"]
    assert (p["tp"], p["gpus"]) == (4, out["report"]["inference"]["recommended_gpus"])
    assert (p["free_gpus"], p["free_tp"], p["free_pp"]) == (8, 8, 1)
    assert p["free_gpus"] % (p["free_tp"] * p["free_pp"]) == 0
