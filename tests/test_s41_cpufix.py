"""Session 41, part cpufix: the 'no GPU' answers a design review found wrong (bot.parse.no_gpu,
bot.render.cpu_head, estimator.cpu_decode).

1. The no-GPU head is for a user who will run on their CPU machine: a question that asks how many GPUs, a
   lack 'yet' ('no GPUs yet', '还没有显卡'), or 'GPU' as a modifier ('no GPU experience', 'without a GPU
   budget', 'zero GPU downtime') is a GPU question, answered on GPUs with no CPU head.
2. The parser's ASCII-mode patterns: 'no GPU的笔记本' is read ('\\b' before CJK).
"""

from __future__ import annotations

import pytest


def _text(question: str) -> str:
    from bot.cli import ask

    return ask(question, None, "text")[0]


def _parse(question: str):
    from bot.parse import parse

    return parse(question)


# 1. a GPU question is no CPU machine ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "We have no GPUs yet. How many GPUs do we need to pretrain a 7B model on 1T tokens?",
        "No GPU experience on our team. How many GPUs to QLoRA Llama-3-70B?",
        "We don't have any GPUs yet; how many GPUs to serve Llama-3-70B at 20 users?",
        "We have no GPUs yet, what would it take to serve Llama 3 8B?",
        "Serve Llama 3 8B without a GPU budget",
        "no GPU cluster here, Llama 3 8B serving for 50 users",
        "zero GPU downtime serving Llama 3 8B",
        "我们还没有显卡，想训练 7B 模型 1T token，需要几张卡？",
        "没有显卡，部署 Qwen2.5-72B 要几张卡",
        "我们暂时没有GPU，想部署 Qwen2.5-7B",
        "团队没有GPU经验，部署 Qwen2.5-7B 怎么做",
        "没有GPU预算，Qwen2.5-7B 能部署吗",
    ],
)
def test_a_gpu_question_gets_no_cpu_head(text: str) -> None:
    """Must not misread: the count asked, 'yet', 'GPU' modifying another noun — a GPU question."""
    assert "no_gpu" not in _parse(text).notes
    out = _text(text)
    assert not out.startswith(("No GPU on your machine", "你的机器没有 GPU"))
    assert "for reference" not in out.split("\n")[0] and "供参考" not in out.split("\n")[0]


def test_no_gpus_yet_how_many_is_answered_on_gpus_en() -> None:
    # 6ND = 6 × 7e9 × 1e12 = 4.2e22 FLOPs: the GPU plan is the headline
    out = _text("We have no GPUs yet. How many GPUs do we need to pretrain a 7B model on 1T tokens?")
    assert out.startswith("7B pre-training on 1T tokens")


def test_no_gpus_yet_how_many_is_answered_on_gpus_zh() -> None:
    out = _text("我们还没有显卡，想训练 7B 模型 1T token，需要几张卡？")
    assert out.startswith("7B 预训练 1万亿 token")


@pytest.mark.parametrize(
    "text",
    [
        "no GPU, 32 GB RAM laptop, can I run Llama 3 8B?",
        "I don't have a GPU, can I run Llama 3 8B on my laptop?",
        "No GPU at all here, how fast is Llama 3 8B?",
        "没有GPU，只有64G内存，能跑 Qwen2.5-7B 吗",
        "我没有显卡，能跑 Qwen2.5-7B 吗",
        "电脑没有独立显卡，Qwen2.5-7B 跑得动吗",
    ],
)
def test_a_cpu_machine_keeps_its_head(text: str) -> None:
    """Must read: the machine has no GPU and the user will run on it."""
    assert "no_gpu" in _parse(text).notes
    # s45 fixread #5 (s44 trial #6): the CPU's speed leads, the head follows in the same paragraph
    out = _text(text)
    assert out.startswith(("On the CPU, llama.cpp", "在 CPU 上，llama.cpp"))
    heads = [
        ln for ln in out.split("\n\n")[0].split("\n") if ln.startswith(("No GPU on your", "你的机器没有 GPU"))
    ]
    assert len(heads) == 1


# 2. ASCII-mode patterns --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "ram"),
    [
        ("no GPU的笔记本，16G内存，能跑 Qwen2.5-7B 吗", 16.0),
        ("没有GPU的电脑，32G内存，跑 Qwen2.5-7B", 32.0),
        ("laptop with no GPU and 16GB RAM: Llama 3 8B?", 16.0),
    ],
)
def test_no_gpu_before_cjk_is_read(text: str, ram: float) -> None:
    p = _parse(text)
    assert "no_gpu" in p.notes and p.request.host_memory_gib == ram


def test_the_cue_is_closed_for_a_plain_question() -> None:
    """The gate (bot.parse.no_gpu.cue) is shut for a message without 'cpu' or a card's word beside a
    negation: 'now', 'know', 'nodes' open it no more."""
    from bot.parse.no_gpu import cue

    assert not cue("how many a100 nodes do i need now to serve llama 3 70b? i know the gpu count matters")
    assert not cue("部署 qwen2.5-72b 要几张 a100")
    assert cue("no gpu, 32 gb ram laptop") and cue("只有cpu") and cue("没有显卡")


# 3. the CPU run is the estimator's, on the report and in the JSON -------------------------------------


def _json(question: str) -> dict:
    import json

    from bot.cli import ask

    return json.loads(ask(question, None, "json")[0])


def test_the_cpu_run_is_in_the_json_en() -> None:
    d = _json("no GPU, 32 GB RAM laptop, can I run Llama 3 8B?")
    cpu = d["report"]["cpu"]
    assert d["interpretation"]["machine"] == "no_gpu_said"
    assert cpu["ram_bytes_stated"] == 32 * 2**30 and cpu["fits_ram"] is True
    assert cpu["bandwidth_kind"] == "desktop"
    assert (cpu["bandwidth_low"], cpu["bandwidth_high"]) == (51.2e9, 89.6e9)  # DDR4-3200 / DDR5-5600 × 2 ch
    assert cpu["context_tokens"] == 4096
    # Llama 3 8B KV: 32 layers × 8 KV heads × 128 × 2 (K, V) × 2 B = 128 KiB a token × 4,096 = 0.5 GiB
    assert cpu["kv_bytes"] == 32 * 8 * 128 * 2 * 2 * 4096
    assert cpu["ram_bytes_needed"] == cpu["weights_bytes"] + cpu["kv_bytes"]
    low = 51.2e9 * 0.65 / cpu["bytes_read_per_token"]
    assert cpu["tokens_per_s_low"] == pytest.approx(low)


def test_the_cpu_run_is_in_the_json_zh() -> None:
    d = _json("没有GPU，只有64G内存，能跑 Qwen2.5-7B 吗")
    assert d["interpretation"]["machine"] == "no_gpu_said"
    assert d["report"]["cpu"]["ram_bytes_stated"] == 64 * 2**30 and d["report"]["cpu"]["fits_ram"] is True


def test_a_cpu_named_is_its_machine() -> None:
    d = _json("Llama-3-8B on an i7-12700 with 16GB")
    assert d["interpretation"]["machine"] == "cpu_named" and d["report"]["cpu"] is not None


@pytest.mark.parametrize(
    "text",
    ["Llama 3 8B on one A100, 20 users", "单张 A100 部署 Qwen2.5-7B", "No GPU experience: serve Llama 3 8B"],
)
def test_a_gpu_machine_has_no_cpu_run(text: str) -> None:
    d = _json(text)
    assert d["interpretation"]["machine"] is None and d["report"]["cpu"] is None


def test_the_cpu_run_does_not_reach_training() -> None:
    d = _json("只有 CPU，想微调 Qwen2.5-7B，要多久")
    assert d["interpretation"]["machine"] == "no_gpu_said" and d["report"]["cpu"] is None


# 4. the CPU run's format: GGUF Q4_K_M unless one is stated --------------------------------------------


@pytest.mark.parametrize(
    "text", ["no GPU, 32 GB RAM laptop, can I run Llama 3 8B?", "我没有显卡，32G内存，能跑 Llama 3 8B 吗"]
)
def test_no_format_stated_runs_q4_k_m(text: str) -> None:
    """Ollama's default tag is Q4_K_M (estimator.runtimes.others, ``ollama_default_tag``); Llama 3 8B in
    llama-quantize's mix: 4.91e9 B (the published Llama-3.1-8B-Instruct-Q4_K_M.gguf: 4.92 GB)."""
    d = _json(text)
    cpu = d["report"]["cpu"]
    assert cpu["weight_format"] == "q4_k_m" and cpu["format_stated"] is False
    assert cpu["weights_bytes"] == pytest.approx(4.92e9, rel=0.01)
    assert "Q4_K_M" in d["reply"].split("\n\n")[0]
    assert d["report"]["inference"]["weights_bytes"] == 16.06e9  # the GPU answer keeps its bf16 weights


@pytest.mark.parametrize(
    "text", ["no GPU, 16GB RAM, Llama 3 8B in bf16", "没有显卡，内存 16G，用 bf16 跑 Llama 3 8B 可以吗"]
)
def test_a_stated_format_is_used_as_stated(text: str) -> None:
    """bf16 stated: 8.03e9 × 2 B = 16.06e9 B = 15.0 GiB, with 0.5 GiB of KV: 15.5 GiB ≤ 16 GiB."""
    d = _json(text)
    cpu = d["report"]["cpu"]
    assert cpu["weight_format"] == "bf16" and cpu["format_stated"] is True
    assert cpu["weights_bytes"] == 16.06e9 and cpu["fits_ram"] is True


def test_q4_k_m_holds_where_bf16_did_not() -> None:
    """8 GiB of RAM: Llama 3 8B at Q4_K_M (4.6 GiB + 0.5 GiB KV) fits; the bf16 weights (15.0 GiB) did not."""
    lines = _text("no GPU, 8GB RAM laptop, can I run Llama 3 8B?").split("\n")
    assert lines[1].startswith("Your 8 GiB of RAM holds the model at Q4_K_M: weights 4.6 GiB")


# 5. the CPU line sits under the headline, also when no line is there ----------------------------------


def _reply(question: str, fmt: str) -> str:
    from bot.core.pipeline import answer
    from bot.render.renderer import render

    return render(answer(question), fmt)


@pytest.mark.parametrize(
    ("text", "speed"),
    [
        ("I don't have a GPU, can I run Llama 3 8B on my laptop?", "On the CPU, llama.cpp reads"),
        ("我没有显卡，能跑 Qwen2.5-7B 吗", "在 CPU 上，llama.cpp 每生成一个 token"),
    ],
)
def test_with_no_line_under_the_headline_the_cpu_line_is_its_paragraph(text: str, speed: str) -> None:
    """The CPU line, the headline, then the blank line and the GPU figures' bullets (the review: the blank
    line was lost and the CPU line came after the bullet block; s45 fixread #5: the CPU line first)."""
    lines = _text(text).split("\n")
    assert lines[0].startswith(speed) and lines[2] == "" and lines[3].startswith("•")
    md = _reply(text, "markdown").split("\n")
    assert md[0].startswith(speed) and md[0].endswith("\\") and not md[1].endswith("\\") and md[2] == ""


@pytest.mark.parametrize(
    ("text", "ram", "speed"),
    [
        ("no GPU, 32 GB RAM laptop, can I run Llama 3 8B?", "Your 32 GiB of RAM", "On the CPU"),
        ("没有GPU，只有64G内存，能跑 Qwen2.5-7B 吗", "你的 64 GiB 内存", "在 CPU 上"),
    ],
)
def test_lines_under_the_headline_stay_between_ram_and_speed(text: str, ram: str, speed: str) -> None:
    """Must not misread: what was not used stays under the headline; the speed first, then the RAM (s45
    fixread #5: the speed was last), then the headline."""
    for fmt in ("text", "markdown", "html"):
        para = _reply(text, fmt).split("\n\n")[0].split("\n")
        # s42 fixleft (s41 trial #7): 4 -> 3 lines, the RAM the CPU run uses is no longer under 'Not used'
        assert para[1].startswith(ram) and para[0].startswith(speed) and len(para) == 3
        assert fmt != "markdown" or all(line.endswith("\\") for line in para[:-1])


# 6. the bandwidth by the locale's formatter -------------------------------------------------------------


def _run(bandwidth: float, kind: str, high: float | None = None):
    from estimator.cpu_decode import CpuRun

    high = high or bandwidth
    return CpuRun(
        weight_format="q4_k_m", format_stated=False, weights_bytes=4.91e9, kv_bytes=0.0,
        context_tokens=4096, ram_bytes_needed=4.91e9, bytes_read_per_token=4.91e9, bandwidth_low=bandwidth,
        bandwidth_high=high, bandwidth_kind=kind, tokens_per_s_low=bandwidth * 0.65 / 4.91e9,
        tokens_per_s_high=high * 0.65 / 4.91e9,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "on 1,228.8 GB/s of RAM bandwidth (as stated)"), ("zh", "1,228.8 GB/s（按你说的）")],
)
def test_the_bandwidth_is_formatted_by_fmt(lang: str, said: str) -> None:
    """12-channel DDR5-6400 × 2 sockets = 2 × 12 × 8 B × 6,400 MT/s = 1,228.8 GB/s, stated: one figure
    with the locale's digit groups (an f-string wrote '1228.8–1228.8'); 1,228.8e9 × 0.65 / 4.91e9 = 162.7
    tokens/s."""
    from bot.render.cpu_head import _speed_line

    line = _speed_line(_run(1228.8e9, "stated"), lang)
    assert said in line and "162.7" in line and "1228.8" not in line


def test_a_range_keeps_both_ends() -> None:
    """Must not misread: the desktop range keeps its two ends (51.2–89.6 GB/s)."""
    from bot.render.cpu_head import _speed_line

    assert "51.2–89.6 GB/s" in _speed_line(_run(51.2e9, "desktop", 89.6e9), "en")
