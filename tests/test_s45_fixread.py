"""Session 45 fixread: reading and answer leftovers (issue 24 items 2–4), both languages.

1. An offline batch said as rows × tokens a row (bot.parse.row_batch) is timed: its tokens are rows × (input
   + output tokens a row), answered by estimator.batch_work at the GPUs' capacity.
2. A training run's tokens a day or an hour ('how many tokens a day can 64 H100s train a 7B on', '每小时能训练
   多少 token') is that period as the deadline (bot.parse.train_rate): the tokens it trains, 6·N·D at the MFU.
3. An AWS instance family without its size ('AWS p5', '2 p4de instances') is its GPUs (bot.parse.instances);
   a provider is named as typed, and one not listed the same way (bot.parse.cloud_providers).
4. A training reply whose memory chart is for fewer GPUs than its headline recommends also gives the
   recommended layout's memory per GPU (bot.render.memory_text._rec_memory).
5. A CPU-only serving question leads with the CPU's decode bound (its stated channels × DDR speed, or the
   range assumed), then the RAM, then the GPU reference (bot.render.cpu_head).
"""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.parse.assemble import parse
from bot.render.renderer import render
from tests.cli_run import ask_json_in_process, ignored_pairs

# -- 1. rows × tokens a row as a batch --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("q", "tokens", "seq_len"),
    [
        (
            "how long to generate 500 tokens for each of 100k rows with Llama 3 8B on 2 H100",
            100_000 * 500,
            None,
        ),
        ("Qwen2.5-7B 在 2 张 H100 上，100,000 条 × 500 输出 token 要跑多久", 100_000 * 500, None),
        (
            "Llama 3 8B on 2 H100: 100k prompts, 1000 input tokens and 500 output tokens each, how long",
            100_000 * 1500,
            1500,
        ),
        (
            "batch inference Llama 3 8B on 2 H100: 100k prompts, 1000 input tokens and 500 output tokens "
            "each, how long",
            100_000 * 1500,
            1500,
        ),
        (
            "Llama 3 8B 在 2 张 H100 上，10 万条 prompt，每条输入 1000 token、输出 500 token，要跑多久",
            1.5e8,
            1500,
        ),
        (
            "Qwen2.5-7B on 4 A100, 2,000 documents, 3k input tokens each, how long will it take",
            2000 * 3000,
            None,
        ),
        ("用 Qwen2.5-7B 在 4 张 A100 上处理 5000 篇文档，每篇输入 2000 token，要多长时间", 5000 * 2000, None),
    ],
)
def test_rows_times_tokens_is_the_batch(q: str, tokens: float, seq_len: int | None) -> None:
    r = parse(q)
    assert r.request.batch_tokens == pytest.approx(tokens), q
    rows = r.request.num_samples  # the rows as said, used in the batch (never named a training setting)
    assert rows in (100_000, 2000, 5000) and tokens % rows == 0, q
    if seq_len:
        assert r.request.seq_len == seq_len, q  # a row's input + output is its sequence, not the rows' count


@pytest.mark.parametrize(
    "q",
    [
        "fine-tune Llama 3 8B on 100k samples of 512 tokens on 2 H100, how long",  # training data
        "微调 Qwen2.5-7B，10 万条数据，每条 500 token，2 张 H100 要多久",
        "Llama 3 8B on 2 H100, 100k prompts per day of 500 tokens, how many GPUs",  # no duration asked
        "Qwen2.5-7B 2 张 H100，每天 10 万条请求，每条输出 500 token，需要几张卡",
        "serve Llama 3 8B on 2 H100 at 50 tokens/s for 200 requests, how long is the ttft",  # one request's
        "Qwen2.5-7B 2 张 H100，1000 个请求，每个输出 500 token，首 token 延迟多久",
    ],
)
def test_rows_not_a_batch(q: str) -> None:
    assert parse(q).request.batch_tokens is None, q


@pytest.mark.parametrize(
    ("q", "head"),
    [
        ("how long to generate 500 tokens for each of 100k rows with Llama 3 8B on 2 H100", "50M tokens ≈ "),
        ("Qwen2.5-7B 在 2 张 H100 上，100,000 条 × 500 输出 token 要跑多久", "5000万 token 约需 "),
    ],
)
def test_rows_batch_is_timed(q: str, head: str) -> None:
    a = answer(q)
    work = a.report.batch_work
    assert work is not None and work.batch_tokens == 5e7
    assert "num_samples" not in str(a.interpretation.ignored)  # the rows are used, not 'a training setting'
    assert work.batch_seconds == pytest.approx(5e7 / work.tokens_per_s)
    first = render(a, "text").splitlines()[0]
    assert first.startswith(head) and f"{round(work.tokens_per_s):,}" in first, first


# -- 3. cloud instance families and providers ---------------------------------------------------------------
# AWS EC2 accelerated computing instance types (aws.amazon.com/ec2/instance-types/, P5: 8 × H100 80 GB; P4d:
# 8 × A100 40 GB; P4de: 8 × A100 80 GB; G5: A10G 24 GB; G6e: L40S 48 GB), as in bot.parse.instances.


@pytest.mark.parametrize(
    ("q", "gpu", "count"),
    [
        ("serve Llama 3 8B on AWS p5", "H100-SXM5-80GB", 8),
        ("用 AWS p5 部署 Llama 3 8B", "H100-SXM5-80GB", 8),
        ("Llama 3 70B on 2 p4de instances, does it fit?", "A100-SXM4-80GB", 16),
        ("两台 p4de 实例跑 Llama 3 70B 推理，放得下吗", "A100-SXM4-80GB", 16),
        ("用 AWS p4d 部署 Qwen2.5-72B 要几台", "A100-SXM4-40GB", 8),
        ("serve Qwen2.5-7B on an EC2 g6e", "L40S", None),
        ("在 AWS g5 上部署 Qwen2.5-7B", "A10G", None),
    ],
)
def test_instance_family_without_size(q: str, gpu: str, count: int | None) -> None:
    r = parse(q).request
    assert r.gpu == gpu, q
    if count:
        assert r.gpu_count == count, q


@pytest.mark.parametrize(
    "q",
    [
        "the p5 value of the test was 0.03, serve Llama 3 8B on an A100",  # a bare family: not an instance
        "Llama 3 8B 推理，p5 指标要好，用 A100",
        "g5 lora on Qwen2.5-7B with one A100",
    ],
)
def test_bare_family_is_not_an_instance(q: str) -> None:
    assert parse(q).request.gpu == "A100-SXM4-80GB", q


def _providers(q: str) -> list[str]:
    return [text for text, why in ignored_pairs(ask_json_in_process(q)) if why == "provider_price"]


@pytest.mark.parametrize(
    ("q", "names"),
    [
        ("serve Llama 3 8B on AWS p5", ["AWS"]),  # as typed (was 'aws')
        ("用 AWS p4d 部署 Qwen2.5-72B 要几台", ["AWS"]),
        ("serve Llama 3 8B on Hetzner, cost per month", ["Hetzner"]),  # not listed before: dropped in silence
        ("在 Hetzner 上部署 Llama 3 8B，每月多少钱", ["Hetzner"]),
        ("Qwen2.5-7B inference on Genesis Cloud H100, cost per month", ["Genesis Cloud"]),  # an unlisted name
        ("在 CoreWeave 上租 H100 跑 70B 推理，多少钱", ["CoreWeave"]),
        ("Llama 3 70B on Vultr or DigitalOcean H100s, which is cheaper?", ["Vultr", "DigitalOcean"]),
        ("在硅基流动和 AutoDL 上跑 Qwen2.5-7B 哪个便宜", ["硅基流动", "AutoDL"]),
    ],
)
def test_providers_named_as_typed(q: str, names: list[str]) -> None:
    assert _providers(q) == names, q


@pytest.mark.parametrize(
    "q",
    [
        "run Llama 3 8B in the Cloud on an A100",  # no provider
        "Llama 3 8B on a Private Cloud with 2 A100, how many users",
        "replicate the Llama 3 8B run on 8 H100, how long for 1T tokens",  # a verb, not Replicate
        "私有云上用 2 张 A100 部署 Llama 3 8B",
    ],
)
def test_no_provider_named(q: str) -> None:
    assert _providers(q) == [], q


# -- 2. a training run's tokens a day / an hour ---------------------------------------------------------
# D = GPUs × peak × MFU × T ÷ 6N (Kaplan et al. 2020, C ≈ 6ND); H100 SXM bf16 dense peak 989 TFLOPS (NVIDIA
# H100 Tensor Core GPU datasheet), A100 312 TFLOPS (NVIDIA A100 datasheet); MFU the estimate's own (assumed).
H100_PEAK, A100_PEAK = 989e12, 312e12


@pytest.mark.parametrize(
    ("q", "gpus", "peak", "params", "seconds", "stage"),
    [
        ("how many tokens a day can 64 H100s train a 7B on", 64, H100_PEAK, 7e9, 86400, "pretrain"),
        ("64 张 H100 训练 7B，每天能训练多少 token", 64, H100_PEAK, 7e9, 86400, "pretrain"),
        ("how many tokens per hour can 8 A100 pre-train a 7B model on", 8, A100_PEAK, 7e9, 3600, "pretrain"),
        ("8 张 H100 每小时能训练多少 token，7B 模型", 8, H100_PEAK, 7e9, 3600, "pretrain"),
        ("7B 模型，8 张 H100 一天能训练多少 token", 8, H100_PEAK, 7e9, 86400, "pretrain"),  # already read
    ],
)
def test_training_tokens_in_a_period(
    q: str, gpus: int, peak: float, params: float, seconds: int, stage: str
) -> None:
    a = answer(q)
    r = a.report
    assert r.request.deadline_days == pytest.approx(seconds / 86400) and r.request.stage == stage, q
    mfu = next(x.value for x in r.assumptions if x.field == "mfu")
    expected = gpus * peak * mfu * seconds / (6 * params)
    assert r.tokens_for_budget.likely == pytest.approx(expected, rel=2e-3), q
    first = render(a, "text").splitlines()[0]
    unit = (
        ("1 hour" if a.lang == "en" else "1 小时")
        if seconds == 3600
        else ("1 day" if a.lang == "en" else "1 天")
    )
    assert unit in first, first


@pytest.mark.parametrize(
    "q",
    [
        "how many tokens per day can 16 H100 generate serving Llama-3.1-70B",  # served, not trained
        "16 张 H100 部署 Llama-3.1-70B，一天最多能生成多少 token？",
        "train a 7B on 1T tokens with 64 H100, how many tokens a day is that",  # the data is stated
        "用 64 张 H100 训练 7B，1T token，每天能训练多少 token",
        "how many tokens do I need to train a 7B on 64 H100",  # no period
        "64 张 H100 训练 7B 需要多少 token",
    ],
)
def test_training_period_not_misread(q: str) -> None:
    r = parse(q).request
    assert r.deadline_days is None, q


# -- 4. the memory block describes the recommended layout too ------------------------------------------------


def _rec_line(text: str) -> list[str]:
    """The recommended layout's memory: its own line, or (s45 merge: one line fewer on the phone's first
    screen) the 'Recommended N GPUs: …' row's line with the figure after its layout."""
    heads = ("• At the recommended", "• 按推荐的", "• Recommended ", "• 推荐 ")
    return [ln for ln in text.splitlines() if ln.startswith(heads) and ("per GPU" in ln or "每卡约" in ln)]


@pytest.mark.parametrize(
    "q",
    [
        "QLoRA 70B on H100",
        "QLoRA 70B 用 H100 要几张",
        "LoRA 70B on A100 80G",
        "全参微调 Qwen2.5-14B 用 A100 80G",
        "full fine-tune Llama 3 8B on H100",
    ],
)
def test_recommended_memory_said_beside_a_smaller_chart(q: str) -> None:
    a = answer(q)
    m = a.report.memory
    at = m.plan_gpus or m.min_gpus
    assert m.recommended_gpus > at  # the headline recommends more GPUs than the chart is for
    text = render(a, "text")
    lines = _rec_line(text)
    per_gpu = f"{m.recommended_per_gpu_bytes / 2**30:.1f} GiB"
    assert len(lines) == 1 and per_gpu in lines[0], text
    rec = f"{m.recommended_gpus} GPUs" if a.lang == "en" else f"{m.recommended_gpus} 张"
    assert rec in lines[0], lines


@pytest.mark.parametrize(
    "q",
    [
        "QLoRA 70B on 2 H100",  # the chart is for their 2
        "用 2 张 H100 做 70B QLoRA 微调",
        "LoRA Qwen2.5-7B on one A100 80G, fits?",
        "Qwen2.5-7B LoRA 微调，1 张 A100 80G 够吗",
    ],
)
def test_no_recommended_line_when_the_chart_is_its_count(q: str) -> None:
    a = answer(q)
    m = a.report.memory
    assert (m.plan_gpus or m.min_gpus) >= (m.recommended_gpus or 0), q  # the chart is the recommended count's
    assert _rec_line(render(a, "text")) == [], q


# -- 5. CPU-only questions lead with the CPU's figure ----------------------------------------------------
# Decode on a CPU is bound by RAM bandwidth: channels × MT/s × 8 B (a 64-bit DDR channel; JEDEC DDR5-4800:
# 4,800 MT/s), so 8-channel DDR5-4800 = 8 × 4800e6 × 8 B = 307.2 GB/s (estimator.cpu_decode).


@pytest.mark.parametrize(
    ("q", "lead", "bandwidth"),
    [
        (
            "run Llama 3 8B on a Xeon with 256 GB of 8-channel DDR5-4800 RAM, no GPU, tokens/s?",
            "On the CPU, llama.cpp reads",
            "307.2 GB/s of RAM bandwidth (as stated)",
        ),
        (
            "没有显卡，至强 CPU + 256G 内存（8 通道 DDR5-4800）跑 Llama 3 8B，每秒多少 token？",
            "在 CPU 上，llama.cpp",
            "内存带宽 307.2 GB/s（按你说的）",
        ),
        (  # no channels nor speed said: the range assumed is named
            "run Llama 3 8B on a Xeon with 256 GB RAM, no GPU, tokens/s?",
            "On the CPU, llama.cpp reads",
            "(dual-channel DDR4-3200 to DDR5-5600)",
        ),
        (
            "我没有显卡，只有 64G 内存，能跑 Qwen2.5-7B 吗，速度多少",
            "在 CPU 上，llama.cpp",
            "（双通道 DDR4-3200 到 DDR5-5600）",
        ),
    ],
)
def test_cpu_only_leads_with_the_cpu(q: str, lead: str, bandwidth: str) -> None:
    a = answer(q)
    text = render(a, "text")
    first = text.splitlines()[0]
    assert first.startswith(lead) and bandwidth in first, first
    para = text.split("\n\n")[0]
    gpu_ref = "For reference, on a GPU" if a.lang == "en" else "作为参考，用 GPU 时"
    assert para.index(gpu_ref) > para.index(first)  # the GPU reference comes after the CPU's figure
    cpu = a.report.cpu
    if "307.2" in bandwidth:
        assert cpu.bandwidth_low == cpu.bandwidth_high == pytest.approx(8 * 4800e6 * 8)


@pytest.mark.parametrize(
    "q",
    [
        "run Llama 3 8B on one A100 80G, tokens/s?",  # a GPU: no CPU lead
        "一张 4090 跑 Llama 3 8B，每秒多少 token",
        "Llama 3 8B on an A100 server with a Xeon and 256 GB RAM, tokens/s?",  # a CPU beside the GPU
    ],
)
def test_a_gpu_machine_keeps_the_gpu_lead(q: str) -> None:
    first = render(answer(q), "text").splitlines()[0]
    assert not first.startswith(("On the CPU", "在 CPU 上")), first


@pytest.mark.parametrize(
    "q",
    [
        "we have 20k samples of 1k tokens each, qwen2.5 7b on 4 A100, how long?",  # a training set's rows
        "2 万条样本，每条 1000 token，qwen2.5-7b 用 4 张 A100 要多久",
    ],
)
def test_rows_without_a_serving_word_stay_training_data(q: str) -> None:
    r = parse(q).request
    assert r.batch_tokens is None and r.stage != "inference", q
