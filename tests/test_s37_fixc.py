"""Session 37 part fixc: training answers a fresh-user trial found wrong.

1. No tensor parallelism over PCIe where ZeRO/FSDP data parallelism fits (design §3.5: "TP inside a node
   (NVLink)"; the Hugging Face stacks people run DPO/SFT with — TRL, LLaMA-Factory — have no TP).
5. A money amount with a per-hour word is a price per GPU-hour in either order, in both languages; a
   budget stays a budget.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.parse import parse


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    main(["ask", text, "--format", "json"])
    return json.loads(capsys.readouterr().out)


# --- 1. TP over PCIe ---------------------------------------------------------------------------------

GIB = 2**30


@pytest.mark.parametrize(
    "text",
    [
        "7B DPO，1万对偏好数据，8张4090",
        "DPO a 7B model on 10k preference pairs with 8x RTX 4090",
        "qwen2.5-7b全量微调，1亿token，8张4090要多久",
    ],
)
def test_no_tp_over_pcie_where_zero3_fits(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """8 × RTX 4090 (24 GB, no NVLink). 7B DPO, ZeRO-3 over 8 with full recompute, worked by hand from the
    ledger's parts: policy bf16 weights 2·7e9/8 = 1.75 GB, grads 1.75 GB, fp32 master + m + v 12·7e9/8 =
    10.5 GB, the frozen reference 2·7e9/8 = 1.75 GB → the model states alone are 15.75 GB = 14.7 GiB per card
    (the answer adds buckets, gathered layers, activations, logits and overhead: ≈ 21.9 GiB ≤ 24 GiB). It
    fits, so the plan is ZeRO-3 data parallelism, not TP 8 (before: TP 8 × PP 1 × DP 1 over PCIe), and
    the reason names the missing NVLink."""
    data = ask(capsys, text)
    m = data["report"]["memory"]
    assert data["report"]["hardware"]["nvlink"] is False
    assert data["report"]["hardware"]["memory_gib"] == 24.0
    for plan in (m["plan"], m["recommended_plan"]):
        assert (plan["tp"], plan["pp"], plan["dp"], plan["zero_stage"]) == (1, 1, 8, 3)
    assert 15.75e9 / GIB < m["per_gpu_bytes"] / GIB <= 24
    reason = next(line for line in data["reply"].splitlines() if "NVLink" in line)
    assert "TP 8" not in reason and "TP 4" not in reason


def test_tp_stays_where_no_data_parallel_layout_fits(capsys: pytest.CaptureFixture[str]) -> None:
    """Must-not-misread: the rule only takes TP away where a DP layout fits. Mistral-7B DPO with a stated
    micro-batch 8 on 8 × V100S 32G (no NVLink) does not fit ZeRO-3 at micro-batch 8, so the user's setting
    keeps its TP plan and the ZeRO alternative at a smaller micro-batch is named beside it (s12 C4)."""
    data = ask(
        capsys,
        "在 8 张 Tesla V100S 32G 上对 Mistral-7B 做 DPO，2 万对偏好数据每条 1500 token，2 个 epoch，"
        "开选择性重计算，每卡 batch 8，要多久？",
    )
    m = data["report"]["memory"]
    assert m["plan"]["tp"] > 1 and m["plan"]["micro_batch"] == 8
    zero = m["pcie_zero_plan"]
    assert (zero["tp"], zero["pp"], zero["dp"], zero["zero_stage"]) == (1, 1, 8, 3)
    assert zero["micro_batch"] < 8


def test_nvlink_cards_keep_their_plan(capsys: pytest.CaptureFixture[str]) -> None:
    """Must-not-change: on NVLink cards the PCIe rule does not apply (7B DPO on 8 × A100 80G: data
    parallelism, no TP needed at all)."""
    m = ask(capsys, "7B DPO，1万对偏好数据，8张A100 80G")["report"]["memory"]
    assert (m["plan"]["tp"], m["plan"]["pp"]) == (1, 1)


# --- 5. A price per hour is not a budget ---------------------------------------------------------------

PRICES = [
    ("Llama-3-8B 全参微调 10亿 token，租云上 H100，3 美元一小时，要多少钱", 3.0),
    ("Llama-3-8B 全参微调 10亿 token，租云上 H100，一小时 3 美元", 3.0),
    ("H100 一小时要 2.5 美金，8B 全参 10亿 token", 2.5),
    ("8B 全参 10亿 token，H100 $3一小时", 3.0),
    ("8B 全参 10亿 token，H100 3刀/小时", 3.0),
    ("8B 全参 10亿 token，H100 每小时 3 美元", 3.0),
    ("full fine-tune Llama-3-8B on 1B tokens, H100 at 3 dollars an hour", 3.0),
    ("full fine-tune Llama-3-8B on 1B tokens, H100 $3/hr", 3.0),
    ("full fine-tune Llama-3-8B on 1B tokens, renting H100 for 3 bucks per hour", 3.0),
    ("full fine-tune Llama-3-8B on 1B tokens, H100 $2.5 per GPU-hour", 2.5),
]


@pytest.mark.parametrize(("text", "price"), PRICES)
def test_usd_per_hour_is_a_price(text: str, price: float) -> None:
    r = parse(text).request
    assert (r.price_per_gpu_hour, r.currency, r.budget) == (price, "USD", None)


@pytest.mark.parametrize(
    ("text", "budget", "currency"),
    [
        ("Llama-3-8B 全参微调 10亿 token，H100，预算 3 万", 30000.0, "CNY"),
        ("8B 全参 10亿 token，H100，预算 3 美元", 3.0, "USD"),
        ("8B 全参 10亿 token 训练一小时，H100 预算 300 美元", 300.0, "USD"),
        ("full fine-tune Llama-3-8B on 1B tokens on H100, budget $3000", 3000.0, "USD"),
    ],
)
def test_a_budget_stays_a_budget(text: str, budget: float, currency: str) -> None:
    r = parse(text).request
    assert (r.budget, r.price_per_gpu_hour, r.currency) == (budget, None, currency)


def test_budget_per_hour_in_dollars_stays_a_budget_per_hour() -> None:
    """'预算每小时 30 美元' is a budget per hour (bot.parse.budget_period), not a price per GPU-hour."""
    r = parse("8B 全参 10亿 token，H100，预算每小时 30 美元").request
    assert (r.budget, r.price_per_gpu_hour, r.budget_period) == (30.0, None, "hour")


def test_price_per_hour_prices_the_answer(capsys: pytest.CaptureFixture[str]) -> None:
    """The stated US$3 per H100-hour is the price of the cost line: cost = GPU-hours × 3 (the report's
    likely GPU-hours times the stated price)."""
    data = ask(capsys, "Llama-3-8B 全参微调 10亿 token，租云上 H100，3 美元一小时，要多少钱")
    assert data["request"]["price_per_gpu_hour"] == 3.0 and data["request"]["budget"] is None
    assert "US$3" in data["reply"] or "$3" in data["reply"]


# --- 4. The headline answers what was asked -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lead"),
    [
        (
            "DPO Llama-3.1-8B on 20k preference pairs, 8x A100 80G, zero3, memory per gpu?",
            "of 80 GiB per GPU",
        ),
        ("Llama-3.1-8B DPO 2万对偏好数据，8张A100 80G，zero3，每卡显存多少", "每卡约"),
        ("Llama-3.1-8B DPO 2万对偏好数据，8张A100 80G，zero3，显存占多少", "每卡约"),
    ],
)
def test_memory_question_leads_with_the_per_gpu_memory(
    capsys: pytest.CaptureFixture[str], text: str, lead: str
) -> None:
    """Each GPU's memory asked on the user's 8 GPUs: line 1 carries the per-GPU figure the report sizes
    (before: '≈ 1.5 hours (12 A100-hours)', the memory on line 9), and the per-GPU figure comes before the
    time. The figure is the report's own per_gpu_bytes, in GiB with one decimal."""
    data = ask(capsys, text)
    first = data["reply"].splitlines()[0]
    per_gpu = f"{data['report']['memory']['per_gpu_bytes'] / GIB:.1f} GiB"
    assert lead in first and per_gpu in first
    assert first.index(per_gpu) < first.index("A100-hours" if "GPU" in lead else "A100·时")


@pytest.mark.parametrize(
    "text",
    [
        "Llama-3.1-8B DPO 2万对偏好数据，8张A100 80G，zero3，要跑多久",
        "DPO Llama-3.1-8B on 20k preference pairs, 8x A100 80G, zero3, how long will it take?",
    ],
)
def test_time_question_leads_with_the_time(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Must-not-change: a time question keeps the time headline, with no per-GPU memory on line 1."""
    data = ask(capsys, text)
    first = data["reply"].splitlines()[0]
    assert "GiB" not in first
    assert "A100-hours" in first or "A100·时" in first


# --- 6. 'Without quantization' keeps 16-bit weights -----------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "RTX 4060 Ti 16G 上跑 Qwen2.5-7B，不量化，能跑吗",
        "4090 跑 Qwen2.5-7B，原版权重不量化",
        "4090 上部署 Qwen2.5-7B，全精度",
        "Can I run Llama-3-8B on my RTX 3060 12GB without quantization?",
        "run Llama-3-8B at full precision on a 4090",
        "serve Qwen2.5-7B unquantized on one RTX 4090",
    ],
)
def test_no_quantization_is_16_bit(text: str) -> None:
    assert parse(text).request.precision == "bf16"


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("Qwen2.5-7B 4090 推理，KV cache 不量化", None),  # the cache, not the weights
        ("RTX 4060 Ti 16G 上跑 Qwen2.5-7B，能跑吗", None),  # nothing said: the local default stays
        ("4090 跑 Qwen2.5-7B，不量化 fp16", "fp16"),  # their own word for 16 bits
        ("4090 跑 Qwen2.5-7B int4 量化", "int4"),
    ],
)
def test_other_precision_words_unchanged(text: str, precision: str | None) -> None:
    assert parse(text).request.precision == precision


def test_no_quantization_in_training_is_not_a_weight_format() -> None:
    """'不量化的 LoRA' asks about LoRA rather than QLoRA: no serving precision is set."""
    r = parse("24G 显存 QLoRA 可以，不量化的 LoRA 要多少显存").request
    assert r.stage == "finetune" and r.precision is None


@pytest.mark.parametrize(
    ("text", "weights_gb", "lines"),
    [
        # Qwen2.5-7B: 7.62e9 params × 2 B = 15.2 GB > the 4060 Ti's usable 14.3 GiB
        ("RTX 4060 Ti 16G 上跑 Qwen2.5-7B，不量化，能跑吗", "15.2 GB", ("放不下", "bf16")),
        # Llama-3-8B: 8.03e9 × 2 B = 16.1 GB > a 3060's 12 GB
        (
            "Can I run Llama-3-8B on my RTX 3060 12GB without quantization?",
            "16.1 GB",
            ("does not fit", "bf16"),
        ),
    ],
)
def test_unquantized_verdict_first_then_lighter_weights(
    capsys: pytest.CaptureFixture[str], text: str, weights_gb: str, lines: tuple[str, str]
) -> None:
    """The 16-bit weights do not fit one card: line 1 says so for that setting (before: sized at Q8_0
    and 'fits'), and the lighter formats that fit one card follow."""
    data = ask(capsys, text)
    reply = data["reply"]
    first = reply.splitlines()[0]
    assert all(w in first for w in lines)
    assert data["request"]["precision"] == "bf16" and data["report"]["feasible"] == "no"
    assert weights_gb in reply
    assert "INT4 (GPTQ/AWQ)：1" in reply or "INT4 (GPTQ/AWQ): 1" in reply


# --- 3. FSDP + QLoRA with the parameters offloaded ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("70B QLoRA 微调，两张 3090 够吗", "在你的 2 张卡上：FSDP 把参数卸载到 CPU 内存"),
        (
            "QLoRA fine-tune a 70B model on two RTX 3090s, will it fit?",
            "On your 2 GPUs: FSDP CPU offload of the parameters",
        ),
    ],
)
def test_70b_qlora_on_two_24gb_cards_offers_param_offload(
    capsys: pytest.CaptureFixture[str], text: str, line: str
) -> None:
    """Answer.AI fsdp_qlora's README trains Llama-2-70B QLoRA on 2 × 24 GB cards with --use_cpu_offload.
    Worked by hand: the NF4 base is 0.516 B × 70e9 = 36.1 GB; ZeRO-3 over 2 leaves 18.1 GB = 16.8 GiB of it
    on each card (17.2 GiB with the bf16 embeddings), so with adapters, activations and the runtime the
    card's 24 GiB is exceeded (≈ 25.6 GiB) and the search says 4 GPUs. With the parameters offloaded the
    base shard leaves the GPU: the change fits their 2 cards, at most 24 GiB at the band's high end, and
    it is offered with its speed cost (before: only a 1,024-token sequence)."""
    data = ask(capsys, text)
    m = data["report"]["memory"]
    assert m["fits_requested"] is False
    assert 16.8 < m["breakdown"]["weights"] / GIB < m["per_gpu_bytes"] / GIB
    change = next(c for c in m["fit_change"] if c["setting"] == "param_offload")
    assert change["value"] is True and change["per_gpu_bytes_high"] / GIB < 24.0
    assert change["per_gpu_bytes_high"] < m["per_gpu_bytes"] - m["breakdown"]["weights"] + 1 * GIB
    assert line in data["reply"]
    assert "slower" in data["reply"] or "更慢" in data["reply"]


def test_param_offload_is_not_offered_where_the_job_fits(capsys: pytest.CaptureFixture[str]) -> None:
    """Must-not: QLoRA of an 8B model fits one 24 GB card: no change is offered."""
    m = ask(capsys, "QLoRA fine-tune Llama-3-8B on one RTX 4090")["report"]["memory"]
    assert m["fits_requested"] is not False
    assert not any(c["setting"] == "param_offload" for c in m.get("fit_change") or [])


def test_full_fine_tuning_keeps_its_optimizer_offload() -> None:
    """Must-not: a full fine-tune's offload stays ZeRO-Offload of the optimizer states ('offload'), never
    the adapters' parameter offload."""
    from estimator.fit_change import _toggles
    from estimator.models import Method, Plan
    from estimator.setup import TrainingSetup

    plan = Plan(tp=1, pp=1, dp=2, zero_stage=3, recompute="full")
    full = TrainingSetup(method=Method.full, seq_len=2048, micro_batch=1)
    qlora = TrainingSetup(method=Method.qlora, seq_len=2048, micro_batch=1)
    lora = TrainingSetup(method=Method.lora, seq_len=2048, micro_batch=1)
    assert [c[0] for c in _toggles(full, plan, 2, (False, False))][-1] == "offload"
    last = list(_toggles(qlora, plan, 2, (False, False)))[-1]
    assert last[0] == "param_offload" and last[2].offload and last[2].zero_stage == 3
    assert "param_offload" not in [c[0] for c in _toggles(lora, plan, 2, (False, False))]


def test_unquantized_is_the_release_precision() -> None:
    """'非量化的满血版 DeepSeek-R1' is its FP8 release (the catalog's release_precision), not bf16; a model
    outside the catalog or a bare size is 16-bit."""
    r = parse("一张 L40 48GB 加 640GB 内存，ktransformers 能跑非量化的满血版 671B DeepSeek-R1 吗").request
    assert (r.model, r.precision) == ("DeepSeek-R1", "fp8")
    assert parse("run a 7B model unquantized on a 4090").request.precision == "bf16"
