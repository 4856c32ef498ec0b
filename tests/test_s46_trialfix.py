"""s46 trialfix: a fresh user's trial of main (/work/notes/s46/trial_report.md), its findings fixed.

#1 Data generated for a later training run is an offline batch: 'Generating 100M tokens of synthetic
data with Llama 3.1 405B on 16 H100s for distillation — how long?' and '用 Qwen2.5-72B 生成 5000 万 token
的蒸馏数据' were sized as a pre-training on those tokens (bot.parse.data_purpose, bot.parse.token_asks)."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.parse.data_purpose import training_job_said
from bot.parse.request_volume import TRAINING_CUES


def _batch(q: str):
    a = answer(q)
    assert a.report is not None, q
    return a.report.request, a.report.batch_work


@pytest.mark.parametrize(
    ("q", "tokens"),
    [
        (
            "Generating 100M tokens of synthetic data with Llama 3.1 405B on 16 H100s for distillation - "
            "how much will it cost and how long?",
            100e6,
        ),
        ("How long to generate 20M tokens of distillation data with Qwen2.5-72B on 8 A100s?", 20e6),
        ("用 Qwen2.5-72B 生成 5000 万 token 的蒸馏数据，8 张 H100 要多久，多少钱？", 50e6),
        ("用 Qwen2.5-72B 总共生成 5000 万 token，8 张 H100 要多久", 50e6),
        ("拿 DeepSeek-V3 生成 2 亿 token 的合成数据用于蒸馏，16 张 H200 要跑多久？", 2e8),
    ],
)
def test_generated_data_is_an_offline_batch(q: str, tokens: float) -> None:
    """The tokens are the batch decoded on the user's GPUs: stage inference, batch_seconds = tokens ÷ the
    deployment's tokens/s (estimator.batch_work), never a training run on them."""
    req, work = _batch(q)
    assert req.stage == "inference" and req.batch_tokens == tokens
    assert work is not None and work.batch_seconds == pytest.approx(tokens / work.tokens_per_s)


@pytest.mark.parametrize(
    "q",
    [
        "Fine-tune Llama 3 8B on 100M tokens of synthetic data with 8 H100s, how long?",
        "The teacher generates 50M tokens, then full SFT of Qwen2.5-7B on 8 A100s. How long?",
        "用合成数据微调 Qwen2.5-7B，5000 万 token，8 张 H100 要多久",
        "用 5000 万 token 的蒸馏数据训练 Qwen2.5-7B，8 张 H100 要多久",
    ],
)
def test_training_on_generated_data_stays_training(q: str) -> None:
    """A training job said as a verb beside the data ('fine-tune on', 'then SFT', '微调', '训练 7B') keeps
    the tokens the run's data."""
    req, work = _batch(q)
    assert req.stage in ("finetune", "pretrain", "continued_pretrain") and work is None
    assert req.tokens == pytest.approx(5e7 if "5000" in q or "50M" in q else 1e8)


@pytest.mark.parametrize(
    ("s", "said"),
    [
        ("generating 100m tokens of synthetic data for distillation, how long?", False),
        ("生成 5000 万 token 用于蒸馏，要多久", False),
        ("生成 5000 万 token 的训练数据，要多久", False),
        ("generate 50m tokens, then sft the 8b on it", True),
        ("生成 5000 万 token 的数据，再蒸馏到 7b", True),
        ("distill llama 405b into an 8b on 100m tokens", True),  # no generation word: as before
    ],
)
def test_purpose_phrases_only(s: str, said: bool) -> None:
    assert training_job_said(s, TRAINING_CUES) is said


@pytest.mark.parametrize(
    ("q", "currency", "price"),
    [
        (
            "Generating 100M tokens of synthetic data with Llama 3.1 405B on 16 H100s for distillation - "
            "how much will it cost and how long?",
            "USD",
            (1.50, 3.50),  # estimator's H100 USD range (neocloud on-demand, 2026-05)
        ),
        ("用 Qwen2.5-72B 生成 5000 万 token 的蒸馏数据，8 张 H100 要多久，多少钱？", "CNY", (15.0, 40.0)),
    ],
)
def test_batch_cost_is_its_gpu_hours_times_the_price(q: str, currency: str, price: tuple) -> None:
    """'how much will it cost': the batch's GPU-hours (time × GPUs) × the price per GPU-hour, said under
    its time in the reply's first lines."""
    from bot.render.renderer import render

    a = answer(q)
    work = a.report.batch_work
    hours = work.batch_seconds / 3600 * work.gpus
    assert work.batch_gpu_hours == pytest.approx(hours)
    cost = work.batch_cost
    assert (cost.currency, cost.price_low, cost.price_high) == (currency, *price)
    assert (cost.low, cost.high) == pytest.approx((hours * price[0], hours * price[1]))
    second = render(a, "text").splitlines()[1]
    assert second.startswith("费用：" if a.lang == "zh" else "Cost: ")
    assert f"{round(cost.high):,}" in second


@pytest.mark.parametrize(
    "q",
    [
        "用 ms-swift 的 Megatron 后端做 Qwen2.5-32B 全参 SFT，数据 50万条，每条平均 2k token，3 个 epoch，"
        "16 张 A800 要训多久？",
        "Full SFT of Qwen2.5-32B with ms-swift's Megatron backend on 16 A800, 3B tokens, how long?",
        "用ms-swift的megatron模式全参训练 Qwen2.5-32B，16 张 H800，30亿 token",
        "Qwen2.5-32B full fine-tuning using the Megatron backend of ms-swift on 16 H100, 3B tokens",
    ],
)
def test_swift_megatron_backend_runs_megatron(q: str) -> None:
    """ms-swift's Megatron backend (Megatron-SWIFT, ms-swift docs) runs Megatron-Core's TP/PP: the plan is
    Megatron-LM's, ms-swift named as used (megatron_backend), never 'another setup in your message'."""
    a = answer(q)
    assert a.report.request.training_tool == "Megatron-LM"
    reasons = {i.text: i.reason for i in a.interpretation.ignored}
    assert reasons.get("training_tool: ms-swift") == "megatron_backend"
    assert a.report.request.tokens == pytest.approx(3e9)


@pytest.mark.parametrize(
    "q",
    [
        "用 ms-swift 做 Qwen2.5-32B 全参 SFT，30亿 token，16 张 A800，之前用 Megatron-LM 训过预训练",
        "ms-swift vs Megatron-LM: which is faster for a full SFT of Qwen2.5-32B on 16 A800, 3B tokens?",
        "用 ms-swift 全参微调 Qwen2.5-32B，30亿 token，16 张 A800 要多久？",
    ],
)
def test_swift_without_its_megatron_backend_stays_swift(q: str) -> None:
    """Megatron-LM named apart (an earlier run, a comparison) or not at all: ms-swift's own Trainer path."""
    a = answer(q)
    assert a.report.request.training_tool == "ms-swift"
    assert all(i.reason != "megatron_backend" for i in a.interpretation.ignored)


@pytest.mark.parametrize(
    ("q", "params"),
    [
        ("How much memory to merge a LoRA adapter into Llama 3.1 70B?", 70_553_706_496),
        ("把 70B 的 LoRA 合并回基座需要多少内存？", 70e9),
        ("merge_and_unload on Qwen2.5-7B-Instruct: is 32GB of RAM enough?", 7_615_616_512),
        ("Qwen2.5-14B 的 LoRA 权重融合到基座，要多少显存？", 14_770_033_664),
    ],
)
def test_lora_merge_is_not_a_training_plan(q: str, params: float) -> None:
    """A merge loads the base at 16 bits and adds B·A in place (PEFT merge_and_unload): the first line is
    2 B × the model's parameters (config.json counts: Llama-3.1-70B 70,553,706,496; Qwen2.5-7B
    7,615,616,512; Qwen2.5-14B 14,770,033,664), no LoRA plan is sized."""
    from bot.render.fmt import fmt_for
    from bot.render.renderer import render

    a = answer(q)
    req = a.report.request
    assert req.merge_asked and req.stage == "inference" and a.report.memory is None  # no training plan
    assert req.params_total == pytest.approx(params, rel=0.01)  # the catalog's 3 significant figures
    first = render(a, "text").splitlines()[0]
    assert first.startswith("把 LoRA 适配器合并进" if a.lang == "zh" else "Merging a LoRA adapter into")
    assert fmt_for(a.lang).gb(2 * req.params_total) in first


@pytest.mark.parametrize(
    "q",
    [
        "LoRA fine-tune Llama 3 8B on 100k samples, then merge the adapter: how long on 4 A100?",
        "用 LoRA 微调 Qwen2.5-7B，1万条数据，训完合并，4 张 A100 要多久",
        "合并数据集后用 LoRA 微调 Qwen2.5-7B，2 张 A100 够吗",
        "After merging the LoRA into Qwen2.5-7B, how many tokens/s on a 4090?",
    ],
)
def test_merge_beside_a_training_run_or_a_speed_is_not_asked(q: str) -> None:
    """A training run with its data (the merge a step after it), a merged dataset, or the merged model's
    speed: no merge memory line."""
    a = answer(q)
    assert not a.report.request.merge_asked


@pytest.mark.parametrize(
    ("q", "per_token"),
    [
        # Qwen3-32B config.json: 64 layers × 8 KV heads × head_dim 128 × (K, V) × 1 B = 131,072 B
        ("Does Qwen3-32B fit on an MI355X with 128k context and an int8 KV cache?", 64 * 8 * 128 * 2),
        ("Qwen3-32B 放在一张 MI355X 上，128k 上下文，KV 缓存量化为 int8，够吗？", 64 * 8 * 128 * 2),
        # Qwen2.5-7B config.json: 28 layers × 4 KV heads × 128 × 2 × 1 B
        ("Two A10s: lmdeploy serve api_server Qwen/Qwen2.5-7B-Instruct --quant-policy 8", 28 * 4 * 128 * 2),
    ],
)
def test_int8_kv_cache_is_one_byte_a_value(q: str, per_token: int) -> None:
    """An 8-bit integer KV cache (LMDeploy quant_policy 8) is sized at one byte a value, named int8."""
    a = answer(q)
    assert a.report.request.kv_precision == "int8"
    assert a.report.inference.kv_bytes_per_token == pytest.approx(per_token)
    assert all(not i.text.startswith("kv_precision") for i in a.interpretation.ignored)


@pytest.mark.parametrize(
    "q",
    [
        "Qwen3-32B on an MI355X with 128k context and int8 weights",  # the weights' format, not the cache
        "Qwen3-32B 用 int8 量化部署在一张 MI355X 上，128k 上下文",
        "lmdeploy with quant_policy=4 for Qwen2.5-32B-AWQ on one 48GB A40",  # int4 KV: still named
    ],
)
def test_int8_weights_and_int4_cache_unchanged(q: str) -> None:
    a = answer(q)
    assert a.report.request.kv_precision != "int8"
    if "quant_policy=4" in q:
        assert ("kv_precision: int4 (--quant-policy 4)", "no_field") in [
            (i.text, i.reason) for i in a.interpretation.ignored
        ]
    else:
        assert a.report.request.precision == "int8"


def test_merge_counts_a_stated_ranks_adapter_zh27_008() -> None:
    """zh27-008 (modelscope/ms-swift#4963): a rank-512 LoRA of Qwen2.5-VL-32B merged on one A800 80G ran
    out of memory. Its adapter on every linear layer of Qwen2.5-32B (64 layers, hidden 5,120, 40 heads of 128,
    8 KV heads, MLP 27,648): 512 × 64 × (10,240 + 6,144 × 2 + 10,240 + 32,768 × 3) = 4.33B parameters, 8.7 GB
    at 16 bits beside 65 GB of base; the rank is used (never 'a training setting'), the method kept."""
    from bot.render.renderer import render

    q = (
        "swift export --merge_lora true --ckpt_dir outputs/xxx，单卡 A800 80G 合并 Qwen2.5-VL-32B 的 LoRA"
        "（lora rank=512）时报显存不足，又不支持多卡 export，这么大的 LoRA 要怎么合并、要多少显存？"
    )
    a = answer(q)
    req = a.report.request
    assert (req.merge_asked, req.method.value, req.lora_rank) == (True, "lora", 512)
    per_layer = 10_240 + 6_144 * 2 + 10_240 + 32_768 * 3
    adapter = 512 * 64 * per_layer
    assert adapter == pytest.approx(4.33e9, rel=0.01)
    first = render(a, "text").splitlines()[0]
    assert "rank 512" in first and "4.3B" in first
    assert all(not i.text.startswith("LoRA") and "lora_rank" not in i.text for i in a.interpretation.ignored)
