"""Session 34 (s34-stack2), the serving runtimes' own memory: vLLM's CUDA graphs outside
``gpu_memory_utilization`` (:func:`estimator.serving_verdict.cuda_graphs_outside`).

Source: vllm-project/vllm ``vllm/worker/model_runner.py`` ``capture_model`` logs before every capture
"CUDA graphs can take additional 1~3 GiB memory per GPU. If you are running out of memory, consider
decreasing `gpu_memory_utilization` or enforcing eager mode." The graphs are captured after the KV cache
is allocated, in what the utilization leaves outside, beside the CUDA context (1 GiB here,
estimator.defaults.CUDA_CONTEXT_BYTES). "Fits" holds only where that room takes the 3 GiB high end.

Hand-worked:
- A10G (ECC on: nvidia-smi memory.total 23,028 MiB), default 0.9: 23,028 × 2**20 × 0.1 − 2**30 =
  2,414,660,812.8 − 1,073,741,824 = 1,340,918,988.8 bytes (1.25 GiB) < 3 GiB: borderline (en-017, TP 8).
- RTX 4090 (24 GiB × 0.99 reported), 0.9: 24 × 0.99 × 0.1 − 1 = 1.376 GiB: borderline.
- RTX 4090 at --gpu-memory-utilization 0.8: 24 × 0.99 × 0.2 − 1 = 3.752 GiB ≥ 3: the verdict stands.
- A100 80GB, 0.9: 80 × 0.99 × 0.1 − 1 = 6.92 GiB: the verdict stands.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main

GIB = 2**30
A10G_ROOM = 23_028 * 2**20 * 0.1 - GIB
assert pytest.approx(1_340_918_988.8) == A10G_ROOM
RTX4090_ROOM = 24 * GIB * 0.99 * 0.1 - GIB
assert pytest.approx(1.376) == RTX4090_ROOM / GIB


def _ask(capsys, question: str, fmt: str = "json") -> dict | str:
    main(["ask", "--format", fmt, "--", question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


def _graphs(report: dict) -> dict | None:
    return next((w["params"] for w in report["warnings"] if w["code"] == "cuda_graphs_outside"), None)


def test_tp8_awq_70b_on_a10g_is_borderline_for_its_cuda_graphs(capsys):
    out = _ask(
        capsys,
        "vLLM on an AWS g5.48xlarge (8x A10G 24GB): TheBloke/Llama-2-70B-AWQ with quantization='awq', "
        "tensor_parallel_size=8. Does it fit?",
    )
    report = out["report"]
    assert (report["feasible"], report["feasible_reason"]) == ("borderline", "cuda_graphs_outside")
    params = _graphs(report)
    assert params["room_bytes"] == pytest.approx(A10G_ROOM)
    assert (params["low_bytes"], params["high_bytes"]) == (1 * GIB, 3 * GIB)


@pytest.mark.parametrize(
    "question",
    [
        "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192 on one RTX 4090, does it fit?",
        "一张 4090 用 vllm 部署 Qwen2.5-7B-Instruct，--max-model-len 8192，能跑吗？",
    ],
)
def test_a_24gb_card_at_the_default_utilization_is_borderline(capsys, question):
    report = _ask(capsys, question)["report"]
    assert (report["feasible"], report["feasible_reason"]) == ("borderline", "cuda_graphs_outside")
    assert _graphs(report)["room_bytes"] == pytest.approx(RTX4090_ROOM)


@pytest.mark.parametrize(
    "question",
    [
        "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192 --enforce-eager on one RTX 4090, "
        "does it fit?",
        "from vllm import LLM; llm = LLM(model='Qwen/Qwen2.5-7B-Instruct', max_model_len=8192, "
        "enforce_eager=True) on one RTX 4090, does it fit?",
    ],
)
def test_enforce_eager_is_read_and_captures_no_graphs(capsys, question):
    out = _ask(capsys, question)
    assert out["request"]["enforce_eager"] is True
    assert out["report"]["feasible"] == "yes" and _graphs(out["report"]) is None
    assert not any("eager" in i["text"] for i in out["interpretation"]["ignored"])


@pytest.mark.parametrize(
    "question",
    [
        "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192 on one A100 80GB, does it fit?",
        "vllm serve Qwen/Qwen2.5-3B-Instruct --max-model-len 8192 --gpu-memory-utilization 0.8 on one "
        "RTX 4090, does it fit?",
    ],
)
def test_room_for_the_high_end_keeps_fits(capsys, question):
    report = _ask(capsys, question)["report"]
    assert report["feasible"] == "yes" and _graphs(report) is None


def test_other_engines_are_not_touched(capsys):
    report = _ask(
        capsys, "Serve Qwen2.5-7B-Instruct with SGLang on one RTX 4090 at 8K context, does it fit?"
    )["report"]
    assert _graphs(report) is None


@pytest.mark.parametrize(
    ("question", "words"),
    [
        (
            "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192 on one RTX 4090, does it fit?",
            ("CUDA graphs", "--enforce-eager", "outside gpu_memory_utilization"),
        ),
        (
            "一张 4090 用 vllm 部署 Qwen2.5-7B-Instruct，--max-model-len 8192，能跑吗？",
            ("CUDA 图", "--enforce-eager", "gpu_memory_utilization 之外"),
        ),
    ],
)
def test_the_reply_names_the_term(capsys, question, words):
    text = _ask(capsys, question, "text")
    assert all(w in text for w in words), text
