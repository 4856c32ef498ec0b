"""Session 46, fixrev: last session's review and trial leftovers (issue 24 items 3, 4).

Item 1 — vLLM ``--data-parallel-size N --enable-expert-parallel``: each DP rank is its own engine core
("Each DP rank is deployed as a separate 'core engine' process", vLLM docs
serving/data_parallel_deployment.md), and each engine logs its own pool at start-up: the "GPU KV cache size:
N tokens" line of vllm/v1/core/kv_cache_utils.py counts that engine's KV cache only. The KV line called the
whole group's pool (DeepSeek-V3, 8 × H200, 3,450,640 tokens) "its start-up log"; the log each engine prints
is the group's ÷ 8 in whole 16-token blocks.
"""

from __future__ import annotations

import json
import re

import pytest

from bot.cli import main


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _text(capsys, question: str) -> str:
    main(["ask", "--", question])
    return capsys.readouterr().out


def _int(s: str) -> int:
    return int(s.replace(",", ""))


# ---- item 1: each vLLM DP engine's own start-up log ----------------------------------------------------

DP8_EN = (
    "vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 8 --enable-expert-parallel on 8x H200, "
    "how many concurrent users at 8k?"
)
DP8_ZH = (
    "vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 8 --enable-expert-parallel，8张H200，"
    "8k上下文能并发多少"
)
DP2_EN = (
    "vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 2 --tensor-parallel-size 4 "
    "--enable-expert-parallel on 8x H200, how many concurrent users at 8k?"
)
DP2_ZH = (
    "vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 2 --tensor-parallel-size 4 "
    "--enable-expert-parallel，8张H200，8k上下文能并发多少"
)
ENGINE_EN = re.compile(
    r"KV cache: ([\d,]+) tokens per engine \(the start-up log of each of its (\d+) data-parallel"
)
ENGINE_ZH = re.compile(r"KV 缓存：每个引擎 ([\d,]+) 个 token（(\d+) 个数据并行引擎")


@pytest.mark.parametrize(
    ("question", "pattern", "engines"),
    [(DP8_EN, ENGINE_EN, 8), (DP8_ZH, ENGINE_ZH, 8), (DP2_EN, ENGINE_EN, 2), (DP2_ZH, ENGINE_ZH, 2)],
)
def test_vllm_dp_engines_each_log_their_own_pool(capsys, question, pattern, engines):
    data = _ask(capsys, question)
    group = data["report"]["inference"]["kv_capacity_tokens"]
    assert data["report"]["inference"]["tp"] == 8  # one expert group of 8 GPUs (s45)
    text = _text(capsys, question)
    m = pattern.search(text)
    assert m, text
    per_engine, n = _int(m.group(1)), int(m.group(2))
    assert n == engines
    # the group's pool ÷ the engines, in vLLM's whole 16-token blocks
    assert per_engine == group // engines // 16 * 16
    assert per_engine * engines <= group < (per_engine + 16) * engines
    # the group's figure is named as the group's, never as the log's
    assert f"{group:,}" in text
    assert "per copy of the model (its start-up log)" not in text and "启动日志中的数字" not in text


@pytest.mark.parametrize(
    "question",
    [
        # plain vLLM data parallelism of a dense model: every copy is its own engine, "per copy" is the log
        "Qwen2.5-7B-Instruct on 8 H100 with vllm serve --data-parallel-size 8, how many 4k sequences?",
        "Qwen2.5-7B-Instruct 部署在 8 张 H100 上，vllm serve --data-parallel-size 8，4k 上下文能并发多少？",
        # tensor parallelism with two replicas: no DP engines said
        "Serve DeepSeek-V3 on 16x H200 with vLLM --tensor-parallel-size 8, 8k context",
        "用 vLLM 在 16 张 H200 上部署 DeepSeek-V3，--tensor-parallel-size 8，8k 上下文",
    ],
)
def test_no_per_engine_line_without_vllm_dp_engines(capsys, question):
    text = _text(capsys, question)
    assert "per engine" not in text and "每个引擎" not in text
    assert "per copy of the model" in text or "每份模型副本" in text


# ---- item 2: 'Weights + KV cache' counts every copy of the weights ------------------------------------

TOTAL_EN = re.compile(r"Weights \+ KV cache ≈ ([\d,.]+) GiB on the (\d+) GPUs")
TOTAL_ZH = re.compile(r"权重 \+ KV 缓存约 ([\d,.]+) GiB，分布在 (\d+) 张卡上")


def _gib(x: float) -> float:
    return x / 2**30


@pytest.mark.parametrize(
    ("question", "pattern"),
    [
        ("Serve DeepSeek-V3 on 16x H200 with vLLM --tensor-parallel-size 8, 8k context", TOTAL_EN),
        ("用 vLLM 在 16 张 H200 上部署 DeepSeek-V3，--tensor-parallel-size 8，8k 上下文", TOTAL_ZH),
    ],
)
def test_replicas_each_hold_a_copy_of_the_weights(capsys, question, pattern):
    inf = _ask(capsys, question)["report"]["inference"]
    assert (inf["tp"], inf["replicas"]) == (8, 2)
    text = _text(capsys, question)
    m = pattern.search(text)
    assert m, text
    # two copies of 673 GB of FP8 weights + the load's KV cache: 1,262 GiB, not one copy's 635
    want = _gib(2 * inf["weights_bytes"] + inf["kv_bytes_total"])
    assert abs(float(m.group(1).replace(",", "")) - want) <= 1.0 and int(m.group(2)) == 16
    assert "2 copies of the weights" in text or "2 份权重" in text


@pytest.mark.parametrize(
    ("question", "pattern"),
    [
        (
            "Will DeepSeek-V3 fit on 8x H200 with vllm serve --data-parallel-size 8 "
            "--enable-expert-parallel, "
            "8k context, 32 users?",
            TOTAL_EN,
        ),
        (
            "vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 8 --enable-expert-parallel，8张H200，"
            "8k上下文，32个用户，放得下吗",
            TOTAL_ZH,
        ),
    ],
)
def test_dp_ranks_whole_weights_are_in_the_total(capsys, question, pattern):
    data = _ask(capsys, question)
    inf = data["report"]["inference"]
    extra = next(
        w["params"]["extra_bytes"] for w in data["report"]["warnings"] if w["code"].startswith("dp_att")
    )
    # vLLM's DP ranks keep every weight but the routed experts whole: 16.6 GB above 1/8 on each H200 (s44)
    assert 16.0e9 < extra < 17.2e9
    text = _text(capsys, question)
    m = pattern.search(text)
    assert m, text
    want = _gib(inf["weights_bytes"] + 8 * extra + inf["kv_bytes_total"])
    assert abs(float(m.group(1).replace(",", "")) - want) <= 1.0 and int(m.group(2)) == 8


@pytest.mark.parametrize(
    "question",
    [
        "Serve Llama-3.1-8B on 1 H100 with vLLM, 8k context",
        "用 vLLM 在 1 张 H100 上部署 Llama-3.1-8B，8k 上下文",
        # one copy over 8 GPUs by tensor parallelism: the weights are split, not replicated
        "Serve Llama-3.1-70B on 8x H100 with vLLM --tensor-parallel-size 8, 8k context",
        "用 vLLM 在 8 张 H100 上部署 Llama-3.1-70B，--tensor-parallel-size 8，8k 上下文",
    ],
)
def test_one_copy_total_is_weights_plus_kv(capsys, question):
    inf = _ask(capsys, question)["report"]["inference"]
    assert inf["replicas"] == 1
    text = _text(capsys, question)
    m = re.search(r"(?:Weights \+ KV cache ≈|权重 \+ KV 缓存约) ([\d,.]+) GiB[；;]", text)
    assert m, text
    want = _gib(inf["weights_bytes"] + inf["kv_bytes_total"])
    assert abs(float(m.group(1).replace(",", "")) - want) <= 0.005 * want  # three significant figures


# ---- item 3: one length when vLLM's own default decides -----------------------------------------------
# vLLM with no --max-model-len takes the model's max_position_embeddings (Llama 3.1: 131,072, config.json)
# and refuses to start when one sequence of it does not fit its pool (vllm/v1/core/kv_cache_utils.py
# check_enough_kv_cache_memory). 128 KiB a token (32 layers × 8 KV heads × 128 × 2 × 2 B) × 131,072 = 16 GiB.

LIMIT_EN = (
    "KV cache (bf16): 128 KiB per token × 131,072 tokens (the max_model_len vLLM checks at start-up) = 16 GiB"
)
LIMIT_ZH = (
    "KV 缓存（bf16）：每 token 128 KiB × 131,072 个 token（vLLM 启动时检查的 max_model_len）= 单条序列 16 GiB"
)


@pytest.mark.parametrize(
    ("question", "line"),
    [
        ("Can I serve Llama 3.1 8B with vLLM on one RTX 4090?", LIMIT_EN),
        ("serve Llama 3.1 8B with vLLM on one RTX 4090 for 10 users", LIMIT_EN),
        ("vLLM 在一张 RTX 4090 上能跑 Llama 3.1 8B 吗？", LIMIT_ZH),
        ("用 vLLM 在一张 4090 上给 10 个用户部署 Llama 3.1 8B", LIMIT_ZH),
    ],
)
def test_kv_line_at_the_length_vllm_refuses(capsys, question, line):
    text = _text(capsys, question)
    head = text.splitlines()[0]
    assert "131,072" in head  # the headline's length
    assert line in text
    assert "× 4K context" not in text and "上下文 4K" not in text


@pytest.mark.parametrize(
    "question",
    [
        # the length stated is the context sized: the line was already at it
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 131072 on one RTX 4090",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 131072，一张 RTX 4090 能跑吗",
        # a length that starts: no refusal, the load's line
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 16384 on one RTX 4090",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 16384，一张 RTX 4090 能跑吗",
        # vLLM's default length that fits the pool: the load sized
        "Can I serve Llama 3.1 8B with vLLM on one H100?",
        "vLLM 在一张 H100 上能跑 Llama 3.1 8B 吗？",
    ],
)
def test_no_limit_line_when_the_length_is_sized_or_starts(capsys, question):
    text = _text(capsys, question)
    assert "the max_model_len vLLM checks at start-up" not in text and "vLLM 启动时检查的" not in text
    assert "KV cache (bf16)" in text or "KV 缓存（bf16）" in text


# ---- item 4: a bare card number that counts something is the count -------------------------------------
# estimator/data/gpus.toml: RTX 5070 aliases ["5070", ...], RTX 4090 and 5080 likewise (4-digit numbers).


def _request(capsys, question: str) -> dict:
    return _ask(capsys, question)["request"]


@pytest.mark.parametrize(
    ("question", "samples"),
    [
        ("fine-tune a 7B on 5070 samples with LoRA on one A100", 5070),
        ("LoRA 微调 7B，5070 条数据，一张 A100", 5070),
        ("fine-tune a 7B on 4090 examples with LoRA on one A100", 4090),
        ("用 4090 条样本 LoRA 微调 7B，一张 A100", 4090),
    ],
)
def test_card_number_followed_by_a_count_noun_is_the_count(capsys, question, samples):
    req = _request(capsys, question)
    assert req["num_samples"] == samples
    assert req["gpu"] == "A100-SXM4-80GB" and req["gpu_count"] == 1
    text = _text(capsys, question)
    assert "RTX 5070" not in text and "RTX 4090" not in text


@pytest.mark.parametrize(
    "question",
    ["train 8B for 5080 steps on 8 H100", "在 8 张 H100 上训练 8B，训练 5080 步"],
)
def test_card_number_of_steps_is_the_steps(capsys, question):
    data = _ask(capsys, question)
    req = data["request"]
    assert req["gpu"] == "H100-SXM5-80GB" and req["gpu_count"] == 8
    # 5,080 steps × the assumed global batch 1,024 × 4,096 tokens (the 'Used:' line says so)
    assert req["tokens"] == 5080 * 1024 * 4096


@pytest.mark.parametrize(
    ("question", "gpu", "count"),
    [
        ("Can I run Qwen2.5-7B on a 5070?", "RTX-5070", 1),
        ("用 5070 跑 Qwen2.5-7B 够吗", "RTX-5070", 1),
        ("两张5070 微调 7B", "RTX-5070", 2),
        ("LoRA 7B on 2x 5070 with 5000 samples", "RTX-5070", 2),
        ("5070 12G 能跑 7B 吗", "RTX-5070", 1),
        ("my 4090 has 24GB, LoRA 7B on 5000 samples", "RTX-4090", 1),
        ("我的 4090 显卡，LoRA 微调 7B，5000 条数据", "RTX-4090", 1),
        # a machine of cards and an owner of one (en2-024: '8 x 4090 instance'), not counts
        ("LoRA 7B on an 8 x 4090 instance with 5000 samples", "RTX-4090", 8),
        ("As a 4090 user, can I LoRA a 7B on 5000 samples?", "RTX-4090", 1),
    ],
)
def test_card_number_beside_a_card_cue_stays_the_card(capsys, question, gpu, count):
    req = _request(capsys, question)
    assert req["gpu"] == gpu and req["gpu_count"] == count


# ---- item 5: the headline and the details in one precision --------------------------------------------
# One GeForce card with vLLM keeps its 16-bit sizing (a personal machine): Qwen3-8B's 16.4 GB of bf16
# weights (8.19B × 2 B) do not fit a 16 GB RTX 5060 Ti (or RTX 4080) with one sequence, FP8's 8.2 GB do.


@pytest.mark.parametrize(
    ("question", "words"),
    [
        (
            "Can I run Qwen3-8B with vLLM on an RTX 5060 Ti 16GB?",
            ("not in bf16 — its weights and one sequence need 2 GPUs", "only with FP8 weights on your 1"),
        ),
        (
            "能用 vLLM 在一张 RTX 5060 Ti 16GB 上跑 Qwen3-8B 吗？",
            ("bf16 不行 —— 权重加一条序列需要 2 张卡", "只有用 FP8 权重才能放进你的 1 张卡"),
        ),
        (
            "Can I run Qwen2.5-7B with vLLM on an RTX 4080?",
            ("not in bf16 — its weights and one sequence need 2 GPUs", "only with FP8 weights on your 1"),
        ),
        (
            "用 vLLM 在一张 4080 上能跑 Qwen2.5-7B 吗",
            ("bf16 不行 —— 权重加一条序列需要 2 张卡", "只有用 FP8 权重才能放进你的 1 张卡"),
        ),
    ],
)
def test_fp8_only_headline_over_16bit_details_says_16bit_first(capsys, question, words):
    data = _ask(capsys, question)
    inf = data["report"]["inference"]
    assert data["report"]["feasible_reason"] == "fp8_only"
    assert inf["weight_format"] == "bf16" and inf["min_gpus"] == 2 and inf["fp8_min_gpus"] == 1
    head = _text(capsys, question).splitlines()[0]
    first, then = words
    assert first in head and then in head and head.index(first) < head.index(then)
    assert "(bf16 does not fit)" not in head and "（bf16 放不下）" not in head


@pytest.mark.parametrize(
    "question",
    [
        # swapped to FP8 on a server's count: the details are FP8, the older words stay (s42 trial #5)
        "Will Qwen3-235B-A22B fit on 8x H100 with vllm serve --data-parallel-size 8 "
        "--enable-expert-parallel, "
        "8k context, 32 users?",
        "vllm serve Qwen/Qwen3-235B-A22B --data-parallel-size 8 --enable-expert-parallel，8 张 H100，"
        "8k 上下文，32 个用户，放得下吗",
        # two cards hold bf16: no FP8 words at all
        "Can I run Qwen2.5-7B with vLLM on 2x RTX 4080?",
        "用 vLLM 在两张 4080 上能跑 Qwen2.5-7B 吗",
    ],
)
def test_no_16bit_first_words_when_details_are_fp8_or_it_fits(capsys, question):
    head = _text(capsys, question).splitlines()[0]
    assert "not in bf16" not in head and "bf16 不行" not in head


# ---- item 6: a pipeline stage routes its micro-batch --------------------------------------------------
# estimator.serving_speed.decode_speed: each of the pp stages reads the experts its micro-batch of B ÷ pp
# tokens routes to, once per micro-batch: a round reads total − (total − active) × (1 − k/E)^(B/pp − 1).
# Qwen3-30B-A3B: E = 128, k = 8 (config.json num_experts, num_experts_per_tok), 30.53B total, 3.35B active.


def test_moe_stage_reads_the_experts_of_its_micro_batch():
    from estimator import catalog
    from estimator.serving_speed import FITTED, decode_speed, interstage_seconds

    spec, gpu = catalog.model("Qwen3-30B-A3B"), catalog.gpu("L40S")
    total, active = 30.53e9, 3.35e9
    bw = gpu.memory_bandwidth_gbps * 1e9 * FITTED.bandwidth * 2  # TP 2
    for batch in (8, 16, 64):
        two = decode_speed(spec, total, active, gpu, 2, 2.0, 0.0, batch, pp=2)
        read = total - (total - active) * (120 / 128) ** (batch / 2 - 1)
        want = read * 2.0 / bw + interstage_seconds(spec, 2, batch, gpu.personal)
        assert 1 / two.per_sequence == pytest.approx(want, rel=1e-9)
        one = decode_speed(spec, total, active, gpu, 2, 2.0, 0.0, batch)  # PP 1: the whole batch routes
        assert 1 / one.per_sequence == pytest.approx(
            (total - (total - active) * (120 / 128) ** (batch - 1)) * 2.0 / bw, rel=1e-9
        )
        assert read < total - (total - active) * (120 / 128) ** (batch - 1)  # fewer experts per stage


def test_dense_model_under_pp_still_reads_every_weight():
    from estimator import catalog
    from estimator.serving_speed import FITTED, decode_speed, interstage_seconds

    spec, gpu = catalog.model("Llama-3.1-70B"), catalog.gpu("L40S")
    two = decode_speed(spec, 70.6e9, 70.6e9, gpu, 4, 2.0, 0.0, 32, pp=2)
    bw = gpu.memory_bandwidth_gbps * 1e9 * FITTED.bandwidth * 4
    want = 70.6e9 * 2.0 / bw + interstage_seconds(spec, 2, 32, gpu.personal)
    assert 1 / two.per_sequence == pytest.approx(want, rel=1e-9)


@pytest.mark.parametrize(
    "question",
    [
        "Serve Qwen3-235B-A22B on 2 nodes of 8x L40S with vLLM --tensor-parallel-size 8 "
        "--pipeline-parallel-size 2, 64 concurrent at 4k, tokens/s?",
        "两台机器各 8 张 L40S，用 vLLM --tensor-parallel-size 8 --pipeline-parallel-size 2 部署 "
        "Qwen3-235B-A22B，4k 上下文 64 并发，每条多少 token/s？",
    ],
)
def test_pp_moe_answer_uses_the_micro_batch(capsys, question):
    inf = _ask(capsys, question)["report"]["inference"]
    assert (inf["tp"], inf["pp"]) == (8, 2)
    dec = inf["decode_tokens_per_s"]
    assert dec["batch"] == 64 and dec["bound"] == "memory"


# ---- item 7: the tax rate applied to the cost ----------------------------------------------------------


def _money(s: str) -> float:
    return float(re.sub(r"[^\d.]", "", s))


@pytest.mark.parametrize(
    ("question", "pattern", "rate"),
    [
        (
            "租 8 张 H100 一个月跑 70B 推理多少钱，含税 13%",
            r"含 13% 税：¥([\d,.]+) – ¥([\d,.]+)（税前 ¥([\d,.]+) – ¥([\d,.]+) × 1\.13）",
            0.13,
        ),
        (
            "全参微调 7B，10 亿 token，8 张 A100，费用多少，13% 增值税",
            r"含 13% 税：¥([\d,.]+) – ¥([\d,.]+)（税前 ¥([\d,.]+) – ¥([\d,.]+) × 1\.13）",
            0.13,
        ),
        (
            "Fine-tune Llama 3.1 8B with LoRA on 1B tokens on 8 H100, cost plus 8% VAT?",
            r"With 8% tax: \$([\d,.]+) – \$([\d,.]+) \(\$([\d,.]+) – \$([\d,.]+) before tax × 1\.08\)",
            0.08,
        ),
        (
            "Serve Llama 3.1 70B on 4x H100 with vLLM, monthly cost incl. 20% VAT",
            r"With 20% tax: \$([\d,.]+) – \$([\d,.]+) \(\$([\d,.]+) – \$([\d,.]+) before tax × 1\.2\)",
            0.20,
        ),
    ],
)
def test_tax_rate_is_applied_beside_the_pre_tax_cost(capsys, question, pattern, rate):
    data = _ask(capsys, question)
    assert not any(
        i["reason"] == "tax_rate" for i in data["interpretation"]["ignored"]
    )  # used (s46 review B4)
    report = data["report"]
    band = report["cost"] or report["inference"]["cost_per_month"]
    assert band["tax"]["rate"] == pytest.approx(rate)
    text = _text(capsys, question)
    m = re.search(pattern, text)
    assert m, text
    taxed_low, taxed_high, low, high = (_money(g) for g in m.groups())
    assert (low, high) == pytest.approx((band["low"], band["high"]), abs=0.5)
    assert taxed_low == pytest.approx(band["low"] * (1 + rate), abs=0.5)  # whole units or cents
    assert taxed_high == pytest.approx(band["high"] * (1 + rate), abs=0.5)


@pytest.mark.parametrize(
    "question",
    [
        # a percentage that is no tax: no tax line
        "租 8 张 H100 一个月跑 70B 推理多少钱，利用率 13%",
        "Fine-tune Llama 3.1 8B with LoRA on 1B tokens on 8 H100 at 40% MFU, cost?",
        # a tax word with no rate: nothing to apply
        "租 8 张 H100 一个月跑 70B 推理多少钱，要含税价",
        "Serve Llama 3.1 70B on 4x H100 with vLLM, monthly cost before tax",
    ],
)
def test_no_tax_line_without_a_tax_rate(capsys, question):
    text = _text(capsys, question)
    assert "before tax ×" not in text and "税前" not in text


def test_tax_rate_with_no_cost_says_so(capsys):
    text = _text(capsys, "Can I run Qwen3-8B with vLLM on an RTX 5060 Ti 16GB? price incl. 6% VAT")
    assert "No cost was worked out here, so the 6% tax is applied to nothing." in text
    text = _text(capsys, "能用 vLLM 在一张 RTX 5060 Ti 16GB 上跑 Qwen3-8B 吗？含税 6%")
    assert "这里没有算出费用，所以 6% 的税率无从计入。" in text


# ---- item 8 (part): prefix caching named -------------------------------------------------------------
# vLLM's V1 engine turns automatic prefix caching on by default (vllm/engine/arg_utils.py
# enable_prefix_caching None → True for V1) and the cached prefixes live in the same KV pool.


@pytest.mark.parametrize(
    ("question", "typed"),
    [
        ("Serve Qwen2.5-7B on one A100 with vLLM with prefix caching, 32 users", "prefix caching"),
        ("一张 A100 用 vLLM 部署 Qwen2.5-7B，开prefix caching，32 个并发", "prefix caching"),
        ("一张 A100 用 vLLM 部署 Qwen2.5-7B，开启前缀缓存，32 个并发", "前缀缓存"),
        (
            "Serve Qwen2.5-7B on one A100 with vLLM, automatic prefix caching enabled, 32 users",
            "automatic prefix caching",
        ),
    ],
)
def test_prefix_caching_is_named_with_why(capsys, question, typed):
    data = _ask(capsys, question)
    assert {"text": typed, "reason": "prefix_caching"} in data["interpretation"]["ignored"]
    assert data["report"]["inference"]["concurrency"] == 32  # the sizing itself is unchanged
    text = _text(capsys, question)
    assert "on by default" in text or "默认就开着" in text


@pytest.mark.parametrize(
    "question",
    [
        # a pasted flag is the command reader's, named once as a flag
        "vllm serve Qwen/Qwen2.5-7B-Instruct --enable-prefix-caching on one A100",
        "vllm serve Qwen/Qwen2.5-7B-Instruct --enable-prefix-caching，一张 A100 能跑吗",
        # a prompt prefix is no caching
        "Serve Qwen2.5-7B on one A100 with vLLM, 32 users, the prompts share a long system prefix",
        "一张 A100 用 vLLM 部署 Qwen2.5-7B，32 个并发，提示词有相同的前缀",
    ],
)
def test_no_prefix_caching_item_without_the_words(capsys, question):
    data = _ask(capsys, question)
    assert all(i["reason"] != "prefix_caching" for i in data["interpretation"]["ignored"])


# ---- item 8 (part): multi-LoRA serving named with its own reason ----------------------------------------
# vllm/config/lora.py LoRAConfig: max_loras 1, max_lora_rank 16; Llama 3.1 8B's slot at rank 16 over its
# seven linear matrices: 16 × (8192 + 5120 + 5120 + 8192 + 3 × 18432) × 32 layers × 2 B = 83.9 MB.


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("Serve Llama 3.1 8B with 200 LoRA adapters on one H100 with vLLM", "multi-LoRA serving, not sized"),
        ("Multi-LoRA serving of Llama-3.1-8B-Instruct with vLLM on one L40S: how many users?", "--max-loras"),
        ("用 vLLM 在一张 H100 上部署 Llama 3.1 8B，挂 200 个 LoRA adapter", "多 LoRA 部署，没有计入"),
        ("一张 L40S 上用 vLLM 做 multi-LoRA 部署 Llama-3.1-8B-Instruct，能服务多少用户", "--max-lora-rank"),
    ],
)
def test_served_lora_adapters_are_named_with_their_own_reason(capsys, question, words):
    data = _ask(capsys, question)
    assert {"text": "method: lora", "reason": "no_field"} in data["interpretation"]["ignored"]  # JSON kept
    text = _text(capsys, question)
    assert words in text and "84 MB" in text
    assert "no setting for it yet" not in text.split("method: lora")[-1].split(");")[0]


@pytest.mark.parametrize(
    "question",
    [
        "I fine-tuned Mistral-7B with LoRA and merged it; now serving it on an H100 with vLLM, memory?",
        "我用 LoRA 微调了 Mistral-7B 并合并了权重，现在用 vLLM 在一张 H100 上部署，显存多少？",
    ],
)
def test_merged_lora_served_names_no_adapters(capsys, question):
    text = _text(capsys, question)
    assert "multi-LoRA serving" not in text and "多 LoRA 部署" not in text
