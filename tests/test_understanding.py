"""The understanding contract (docs/design.md §8, issue 12): every stated setting is used, or named in
the reply as not used and why; nothing the user named is replaced silently; the user's setting
decides the verdict. Each kind of fault from the field cases is held here in both languages, through
the CLI's JSON contract and through a follow-up in the bot's conversation.

Expected values come from the formulas' sources (LoRA §4: r·(d_in + d_out) per matrix; ZeRO §3;
QLoRA §2; P-tuning v2 §3.2; vendors' datasheets for the peaks; the price catalog for costs), applied
to the catalog's published shapes — never from the estimator's own output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from field_checks import run_case

from bot.cli import main
from bot.core.conversation import Conversation
from estimator import catalog
from estimator.architecture import embedding_params
from estimator.ledger import price_range
from estimator.model_states import QUANTIZED_BASE_BITS
from estimator.models import Currency, SizingRequest

GIB = 2**30
FIELD_CASES = Path(__file__).parent / "data" / "field_cases.json"
THIS_ISSUE = ("f01", "f02", "f03", "f04", "f05", "f06", "f09", "f10", "f12", "f13", "f15", "f16", "f17",
              "f18", "f19", "f20")  # fmt: skip
"""The field cases of issue 12 (f07, f08, f11, f14 finish with the compute, catalog and memory issues)."""


def ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", question])
    return json.loads(capsys.readouterr().out)


def _cases() -> dict[str, dict]:
    return {c["id"]: c for c in json.loads(FIELD_CASES.read_text(encoding="utf-8"))["cases"]}


@pytest.mark.parametrize("case_id", THIS_ISSUE)
def test_field_case(capsys, case_id):
    case = _cases()[case_id]
    assert run_case(ask(capsys, case["q"]), case["checks"]) == [], case["q"]


def _price(gpu: str, currency: Currency) -> tuple[float, float]:
    from estimator.ledger import Ledger

    low, high, _, _ = price_range(SizingRequest(currency=currency), catalog.gpu(gpu), Ledger())
    return low, high


# -- LoRA rank and targets: r·(d_in + d_out) per targeted matrix, 16 bytes per adapter parameter


LLAMA2_13B_ALL_LINEAR_PER_RANK = 40 * (4 * (5120 + 5120) + 3 * (5120 + 13824))
"""Llama-2-13B: q, k, v, o are 5120 → 5120; gate, up 5120 → 13824, down back: 97,792 per layer."""
LLAMA2_13B_QV_PER_RANK = 40 * 2 * (5120 + 5120)


@pytest.mark.parametrize(
    ("question", "rank", "targets", "per_rank"),
    [
        ("Llama-2-13B LoRA, rank 64 on all linear layers: GPU memory?", 64, ["all-linear"],
         LLAMA2_13B_ALL_LINEAR_PER_RANK),
        ("Llama-2-13B 用 LoRA 微调，秩 64，所有线性层，显存多少？", 64, ["all-linear"],
         LLAMA2_13B_ALL_LINEAR_PER_RANK),
        ("Llama-2-13B LoRA r=8 on q_proj, v_proj: memory?", 8, ["q_proj", "v_proj"], LLAMA2_13B_QV_PER_RANK),
        ("Llama-2-13B LoRA微调，rank 8，只训 q_proj 和 v_proj，要多少显存", 8, ["q_proj", "v_proj"],
         LLAMA2_13B_QV_PER_RANK),
    ],
)  # fmt: skip
def test_lora_rank_and_targets_size_the_adapters(capsys, question, rank, targets, per_rank):
    d = ask(capsys, question)
    assert d["request"]["lora_rank"] == rank and d["request"]["lora_targets"] == targets
    assert d["report"]["memory"]["breakdown"]["adapters"] == pytest.approx(16 * rank * per_rank)
    assert d["report"]["checkpoint_bytes"]["weights"] == pytest.approx(2 * rank * per_rank)
    assert f"{rank}" in "\n".join(
        d["reply"].split("\n", 2)[:2]
    )  # in the headline (after the memory line: s35)


GENERIC_13B_ALL_LINEAR_PER_LAYER = 2 * (5120 + 5120) + 2 * (5120 + 1024) + 3 * (5120 + 18176)
"""The generic 13B shape (estimator.architecture.shape_for_size: hidden 5120, 40 heads and 8 KV heads of
128, SwiGLU 18176): q, o 5120 → 5120; k, v 5120 → 1024; gate, up 5120 → 18176, down back."""
GENERIC_13B_QV_PER_LAYER = (5120 + 5120) + (5120 + 1024)


def test_rank_64_all_linear_and_rank_8_qv_differ_50_fold(capsys):
    """The field report: both used to give byte-identical answers. A bare "13B" has the generic GQA
    shape: 64 × 102,656 / (8 × 16,384) ≈ 50 (Llama-2-13B, multi-head: 38)."""
    big = ask(capsys, "13B LoRA, rank 64 on all linear layers: how much GPU memory?")
    small = ask(capsys, "13B LoRA rank 8 on q_proj and v_proj only: how much GPU memory?")
    ratio = (
        big["report"]["memory"]["breakdown"]["adapters"] / small["report"]["memory"]["breakdown"]["adapters"]
    )
    assert ratio == pytest.approx(64 * GENERIC_13B_ALL_LINEAR_PER_LAYER / (8 * GENERIC_13B_QV_PER_LAYER))


def test_an_unknown_target_module_is_named_as_not_used(capsys):
    d = ask(capsys, "Llama-2-13B LoRA rank 8 on q_proj and foo_proj")
    assert d["request"]["lora_targets"] == ["q_proj", "foo_proj"]
    assert {"text": "foo_proj", "reason": "unknown_module"} in d["interpretation"]["ignored"]
    assert d["report"]["memory"]["breakdown"]["adapters"] == pytest.approx(16 * 8 * 40 * (5120 + 5120))
    assert "foo_proj" in d["reply"]


# -- ZeRO stage: the user's stage is the plan's; when it does not fit, say so for it first


@pytest.mark.parametrize(
    ("question", "stage"),
    [
        ("13B模型LoRA微调，DeepSpeed ZeRO-2，2张A100 40G，每卡显存多少？", 2),
        ("LoRA fine-tune a 13B model with DeepSpeed ZeRO-2 on 2 A100 40GB", 2),
        ("7B全参微调，ZeRO-3，4张A100 80G", 3),
        ("full fine-tune 7B with FSDP FULL_SHARD on 4 A100 80GB", 3),
        ("full fine-tune 7B with FSDP SHARD_GRAD_OP on 8 A100 80GB", 2),
        ("7B全参微调，zero stage 1，8张H100", 1),
    ],
)
def test_stated_zero_stage_is_the_plan(capsys, question, stage):
    d = ask(capsys, question)
    assert d["request"]["zero_stage"] == stage
    assert d["report"]["memory"]["plan"]["zero_stage"] == stage
    assert f"ZeRO-{stage}" in d["reply"].split("\n", 1)[0]


@pytest.mark.parametrize("lang_q", [
    "13B模型LoRA微调，DeepSpeed ZeRO-2，2张A100 40G，不开梯度检查点，每卡显存多少？",
    "LoRA fine-tune 13B with DeepSpeed ZeRO-2 on 2 A100 40GB without gradient checkpointing: memory per GPU?",
])  # fmt: skip
def test_zero2_that_does_not_fit_is_said_for_zero2_then_zero3_offered(capsys, lang_q):
    """ZeRO-2 keeps the frozen bf16 base (2 bytes × 13B = 24.2 GiB) on every GPU; with 16.3 GiB of
    activations (HF eager layers from source since s25, estimator/eager_activations.py — LoRA without
    adapter copies: 8h + 2h + 2h + 2I + 4q + 4kv + 4·heads + 6I = 231,584 B a token a layer for the generic
    13B shape, h 5120, 40 heads, 8 KV heads, I 18,176 — × 2048 × 37 layers; 34·s·h = 12.3 GiB before) and
    the overhead it passes 40 GB."""
    d = ask(capsys, lang_q)
    mem = d["report"]["memory"]
    assert mem["plan"]["zero_stage"] == 2 and mem["plan_gpus"] == 2 and mem["fits_requested"] is False
    assert mem["breakdown"]["weights"] == pytest.approx(2 * 13e9)
    assert mem["breakdown"]["activations"] == pytest.approx(231_584 * 2048 * 37)
    assert mem["per_gpu_bytes"] > 40 * GIB
    zero3 = next(a for a in mem["alternatives"] if a["change"] == "zero3")
    assert zero3["min_gpus"] <= 2 and zero3["per_gpu_bytes"] < 40 * GIB * 0.9
    lines = d["reply"].splitlines()
    assert "ZeRO-2" in lines[0]
    assert d["report"]["feasible"] == "no"
    assert any("ZeRO-3" in line for line in lines[1:])


# -- measured throughput: time comes from it, and the MFU it implies is shown


@pytest.mark.parametrize("question", [
    "Training Llama-3-70B on 8 A100s, we get 20 TFLOPS per GPU. How long for 1B tokens?",
    "8张A100训练Llama-3-70B，每卡实测20 TFLOPS，1B token要多久？",
])  # fmt: skip
def test_measured_tflops_set_the_time(capsys, question):
    d = ask(capsys, question)
    assert d["request"]["achieved_tflops_per_gpu"] == 20
    seconds = 6 * 70.6e9 * 1e9 / (8 * 20e12)
    assert d["report"]["days"]["likely"] == pytest.approx(seconds / 86400, rel=1e-6)
    assert d["report"]["mfu"]["likely"] == pytest.approx(20 / 312, rel=1e-3)  # A100 dense BF16 peak
    assert "20 TFLOPS" in d["reply"].split("\n", 1)[0]  # echoed in the headline


@pytest.mark.parametrize("question", [
    "Qwen2.5-7B pretraining on 8 H100, 100B tokens, throughput 3,000 tokens/s per GPU: how long?",
    "8张H100预训练Qwen2.5-7B，100B token，每卡吞吐 3000 tokens/s，要多久？",
])  # fmt: skip
def test_measured_tokens_per_second_set_the_time(capsys, question):
    d = ask(capsys, question)
    assert d["request"]["tokens_per_second_per_gpu"] == 3000
    assert d["report"]["gpu_hours"]["likely"] == pytest.approx(100e9 / 3000 / 3600, rel=1e-6)
    assert d["report"]["mfu"]["likely"] == pytest.approx(6 * 7.61e9 * 3000 / 989.4e12, rel=1e-3)


def test_a_throughput_above_the_peak_is_set_aside_and_said(capsys):
    d = ask(capsys, "Llama-3-70B on 8 A100, we get 500 TFLOPS per GPU, 1B tokens: how long?")
    assert {"text": "achieved_tflops_per_gpu: 500", "reason": "above_peak"} in d["interpretation"]["ignored"]
    assert d["report"]["mfu"]["likely"] < 1
    assert "500" in d["reply"]


# -- a known duration is a cost question


@pytest.mark.parametrize(("question", "gpu", "gpus", "hours", "currency"), [
    ("How much does 6 hours on one H100 cost in USD?", "H100-SXM5-80GB", 1, 6, Currency.USD),
    ("2台8卡H800跑了36小时，多少钱？", "H800-SXM5-80GB", 16, 36, Currency.CNY),
    ("一张A100跑10个小时多少钱", "A100-SXM4-80GB", 1, 10, Currency.CNY),
])  # fmt: skip
def test_known_duration_gives_gpu_hours_and_cost(capsys, question, gpu, gpus, hours, currency):
    d = ask(capsys, question)
    assert d["request"]["hours"] == hours
    assert d["report"]["gpu_hours"]["likely"] == gpus * hours
    low, high = _price(gpu, currency)
    assert d["report"]["cost"]["low"] == pytest.approx(gpus * hours * low)
    assert d["report"]["cost"]["high"] == pytest.approx(gpus * hours * high)
    assert f"{gpus * hours:,}" in d["reply"].split("\n", 1)[0]


def test_a_deadline_in_hours_stays_a_deadline(capsys):
    d = ask(capsys, "7B模型1万亿token，要在48小时内训完，要多少H100？")
    assert d["request"]["deadline_days"] == 2 and d["request"]["hours"] is None


# -- QLoRA base bits, pure bf16, recompute


@pytest.mark.parametrize(("question", "bits", "precision"), [
    ("LLaMA-Factory 8-bit QLoRA fine-tuning of Llama-3-70B: GPU memory?", 8, "int8"),
    ("Llama-3-70B 用 4bit QLoRA 微调要多少显存", 4, "int4"),
    ("Llama-3-70B 2-bit QLoRA，显存多少？", 2, "int2"),
    ("QLoRA Llama-3-70B with quantization_bit 3", 3, "int3"),
])  # fmt: skip
def test_qlora_base_bits(capsys, question, bits, precision):
    """Quantized linear layers at their bits per weight (QUANTIZED_BASE_BITS: bitsandbytes 8/4, HQQ
    3/2 with group 64; LLM.int8 adds one fp32 scale per row of 8,192 inputs), embedding and head in
    bf16 (QLoRA §2)."""
    d = ask(capsys, question)
    assert d["request"]["method"] == "qlora" and d["request"]["precision"] == precision
    spec = catalog.model("Llama-3-70B")
    embed = embedding_params(spec)
    plan = d["report"]["memory"]["plan"]
    shards = plan["tp"] * plan["pp"] * (plan["dp"] if plan["zero_stage"] >= 3 else 1)
    per_weight = QUANTIZED_BASE_BITS[bits] + (32 / 8192 if bits == 8 else 0)
    expected = (per_weight / 8 * (spec.params_total - embed) + 2 * embed) / shards
    assert d["report"]["memory"]["breakdown"]["weights"] == pytest.approx(expected)
    backend = "bitsandbytes" if bits in (8, 4) else "hqq"
    assert any(a["field"] == "quantization" and a["value"] == backend for a in d["assumptions"])


@pytest.mark.parametrize("question", [
    "full fine-tune Qwen2.5-7B in pure bf16 on 1 H100: memory?",
    "Qwen2.5-7B 全参微调，纯bf16，1张H100，显存多少",
])  # fmt: skip
def test_pure_bf16_has_no_master_copy(capsys, question):
    """bf16 AdamW states in the weights' dtype: 4 bytes per parameter instead of 12 (torch AdamW)."""
    d = ask(capsys, question)
    assert d["request"]["pure_bf16"] is True
    mem = d["report"]["memory"]
    shards = mem["plan"]["dp"] if mem["plan"]["zero_stage"] >= 1 else 1
    assert mem["breakdown"]["optimizer"] == pytest.approx(4 * 7.61e9 / shards)


@pytest.mark.parametrize(("question", "mode"), [
    ("Qwen2.5-7B full fine-tune with gradient checkpointing on 2 A100: memory?", "full"),
    ("Qwen2.5-7B全参微调，开启梯度检查点，2张A100", "full"),
    ("Qwen2.5-7B LoRA without gradient checkpointing on 1 A100", "none"),
    ("Qwen2.5-7B LoRA 微调，不开梯度检查点，1张A100", "none"),
])  # fmt: skip
def test_recompute_as_stated(capsys, question, mode):
    """At s = 2,048 (h 3,584, 28 layers): layer inputs only with full recompute; without any recompute
    the HF eager count since s25 (estimator/eager_activations.py; 34·s·h before): LoRA's frozen layers keep
    8h + 4q + 4kv + 6I + 4·heads = 158,832 B a token (q = h, kv = 512, I = 18,944, 28 heads); LoRA
    without DeepSpeed (fp32 adapters under autocast) also keeps each adapted module's bf16 input copy:
    q, k, v, gate, up read h, o reads 28 × 128, down reads 18,944."""
    d = ask(capsys, question)
    assert d["request"]["recompute"] == mode
    assert d["report"]["memory"]["plan"]["recompute"] == mode
    per_layer = 2 * 2048 * 3584 if mode == "full" else 158_832 * 2048
    if mode == "none":  # the LoRA questions
        per_layer += 2 * 2048 * (5 * 3584 + 28 * 128 + 18944)
    assert d["report"]["memory"]["breakdown"]["activations"] == pytest.approx(per_layer * 28)


# -- serving: vLLM's memory share, the runtime, W8A8 / Q4


@pytest.mark.parametrize("question", [
    "Serve Llama-3.1-70B in W8A8 on one H100 80GB with vLLM, gpu_memory_utilization 0.95",
    "用vLLM在1张H100 80G上部署Llama-3.1-70B W8A8，gpu_memory_utilization设为0.95",
])  # fmt: skip
def test_gpu_memory_utilization(capsys, question):
    d = ask(capsys, question)
    assert d["request"]["gpu_memory_utilization"] == 0.95 and d["request"]["precision"] == "int8"
    # vLLM's share of what CUDA reports (0.99 of the card); the CUDA context sits outside it
    assert d["report"]["inference"]["usable_bytes_per_gpu"] == pytest.approx(0.99 * 80 * GIB * 0.95)
    assert d["request"]["runtime"] == "vLLM"


@pytest.mark.parametrize(("question", "runtime"), [
    ("用 SGLang 部署 Qwen2.5-72B，4张H100", "SGLang"),
    ("Serve Qwen2.5-7B with transformers on one A100", "transformers"),
    ("Run Qwen2.5-7B with llama.cpp on an RTX 4090", "llama.cpp"),
])  # fmt: skip
def test_named_runtime(capsys, question, runtime):
    d = ask(capsys, question)
    assert d["request"]["runtime"] == runtime
    assert d["report"]["inference"]["runtime"] == runtime


@pytest.mark.parametrize(("question", "precision"), [
    ("Can I run a 9B model in Q4 on my 8GB RTX 4060?", "q4_k_m"),
    ("9B模型Q8量化，RTX 4090能跑吗", "q8_0"),
])  # fmt: skip
def test_gguf_words(capsys, question, precision):
    assert ask(capsys, question)["request"]["precision"] == precision


# -- several methods, freeze-tuning, P-tuning v2


@pytest.mark.parametrize("question", [
    "7B模型 batch 1，2k上下文，全量微调、LoRA、QLoRA分别要多少显存？",
    "Qwen2.5-7B: full fine-tuning vs LoRA vs QLoRA, memory on one A100 80GB?",
])  # fmt: skip
def test_several_methods_get_one_row_each(capsys, question):
    d = ask(capsys, question)
    rows = {r["method"]: r for r in d["report"]["method_comparison"]}
    assert list(rows) == ["full", "lora", "qlora"]
    assert rows["full"]["per_gpu_bytes"] > rows["lora"]["per_gpu_bytes"] > rows["qlora"]["per_gpu_bytes"]
    assert rows["lora"]["feasible"] == "yes" and rows["full"]["feasible"] == "no"
    head = d["reply"].split("\n\n", 1)[0]
    assert head.count("\n• ") == 3


@pytest.mark.parametrize("question", [
    "ChatGLM-6B P-tuning v2, pre_seq_len 128: GPU memory?",
    "ChatGLM-6B 用 P-tuning v2 微调，前缀长度128，显存多少？",
])  # fmt: skip
def test_ptuning_trains_a_prefix_only(capsys, question):
    """P-tuning v2 (Liu et al. 2022 §3.2; ChatGLM's PrefixEncoder without projection): 128 prefix tokens ×
    28 layers × key and value × 4,096 = 29.4M trained parameters, 16 bytes each (fp32 AdamW)."""
    d = ask(capsys, question)
    assert d["request"]["method"] == "ptuning" and d["request"]["prefix_tokens"] == 128
    trained = 128 * 28 * 2 * 4096
    assert d["report"]["memory"]["breakdown"]["prefix"] == pytest.approx(16 * trained)
    assert d["report"]["memory"]["breakdown"]["weights"] == pytest.approx(2 * 6.2e9)
    assert d["report"]["checkpoint_bytes"]["weights"] == pytest.approx(2 * trained)
    assert d["report"]["memory"]["min_gpus"] == 1


@pytest.mark.parametrize("question", [
    "freeze-tuning Qwen2.5-7B, last 4 layers: memory on one A100?",
    "Qwen2.5-7B 冻结微调，只训练最后4层，一张A100显存够吗",
])  # fmt: skip
def test_freeze_tuning_trains_the_last_layers(capsys, question):
    d = ask(capsys, question)
    assert d["request"]["method"] == "freeze" and d["request"]["freeze_layers"] == 4
    spec = catalog.model("Qwen2.5-7B")
    per_layer = (spec.params_total - embedding_params(spec) - spec.hidden) / spec.layers
    mem = d["report"]["memory"]
    assert mem["breakdown"]["trainable"] == pytest.approx(16 * 4 * per_layer)
    assert mem["breakdown"]["activations"] == pytest.approx(34 * 2048 * 3584 * 4)  # only the trained layers
    assert d["report"]["feasible"] == "yes"


# -- numbers as people write them


@pytest.mark.parametrize(("question", "budget", "currency"), [
    ("预算80w，能QLoRA微调70B吗", 8e5, None),
    ("预算200w，7B模型1万亿token够吗", 2e6, None),
    ("5kw的预算能预训练多大的模型？", 5e7, None),
    ("我有100万预算，能训多大的模型", 1e6, None),
    ("我手里有100万的预算，最大能预训练多大的模型？", 1e6, None),
    ("With a $1M budget, how big a model can we pretrain?", 1e6, "USD"),
    ("Budget 250k USD: how large a model can we pre-train?", 2.5e5, "USD"),
])  # fmt: skip
def test_money_shorthand(capsys, question, budget, currency):
    d = ask(capsys, question)
    assert d["request"]["budget"] == pytest.approx(budget)
    if currency:
        assert d["request"]["currency"] == currency


def test_watts_in_english_are_not_wan(capsys):
    d = ask(capsys, "Can an RTX 4090 (450W) run Qwen2.5-7B?")
    assert all(i["text"] != "450" or i["reason"] == "unread" for i in d["interpretation"]["ignored"])
    assert d["request"]["budget"] is None


@pytest.mark.parametrize(("question", "gpus"), [
    ("用2台DGX H100训练8B模型1万亿token要多久", 16),
    ("Pretrain a 13B model on 96 DGX A100 nodes with 1T tokens: how long?", 768),
    ("4台HGX H800 训 70B，2T token", 32),
])  # fmt: skip
def test_dgx_nodes_hold_8_gpus(capsys, question, gpus):
    assert ask(capsys, question)["request"]["gpu_count"] == gpus


@pytest.mark.parametrize(("question", "seq"), [
    ("fine-tune Qwen2.5-7B on 50M tokens of 4096-token sequences, 8 A100", 4096),
    ("Qwen2.5-7B LoRA with 1024-token sequences", 1024),
    ("serve Llama-3-8B with a context of 20000 tokens", 20000),
    ("Llama-3.1-8B on vLLM, max_model_len 8192, one L40S", 8192),
])  # fmt: skip
def test_sequence_length_words(capsys, question, seq):
    d = ask(capsys, question)
    assert d["request"]["seq_len"] == seq
    assert d["request"]["tokens"] in (None, 50e6)


# -- nothing replaced silently


@pytest.mark.parametrize(("question", "name"), [
    ("Biren BR104 48GB 两张能跑 Qwen2.5-14B 吗", "Biren BR104"),  # MTT S4000: catalog since s25
    ("Two XPU-9000 48GB cards: can they serve Qwen2.5-14B?", "XPU-9000"),
])  # fmt: skip
def test_unknown_gpu_with_memory_keeps_its_name_and_memory(capsys, question, name):
    d = ask(capsys, question)
    assert d["interpretation"]["unknown_gpu"] == name
    assert d["request"]["gpu"] == name and d["request"]["gpu_count"] == 2
    inf = d["report"]["inference"]
    assert inf["usable_bytes_per_gpu"] == pytest.approx(0.99 * 48 * GIB * 0.9)  # the CUDA context is outside
    assert inf["decode_tokens_per_s"] is None and inf["cost_per_month"] is None  # no TFLOPS, no bandwidth
    assert name in d["reply"].split("\n", 1)[0]
    assert d["interpretation"]["substitutions"] == []


@pytest.mark.parametrize(
    "question", ["How many Biren BR104 to serve Llama-3-70B?", "用壁仞BR104部署Llama-3-70B要几张"]
)
def test_unknown_gpu_without_memory_is_named_with_what_was_used(capsys, question):
    d = ask(capsys, question)
    typed = d["interpretation"]["unknown_gpu"]
    assert typed and "BR104" in typed
    assert d["interpretation"]["substitutions"] == [
        {"typed": typed, "used": "A100-SXM4-80GB", "reason": "unknown_gpu_default"}
    ]
    assert typed in d["reply"]


def test_unknown_gpu_training_gives_no_time_without_a_throughput(capsys):
    d = ask(capsys, "XPU-9000 48GB x 8: pretrain 7B on 100B tokens, how long?")
    assert d["report"]["flops"] == pytest.approx(6 * 7e9 * 100e9)
    assert d["report"]["gpu_hours"] is None and d["report"]["cost"] is None
    with_rate = ask(capsys, "XPU-9000 48GB x 8: pretrain 7B on 100B tokens, we get 100 TFLOPS per GPU")
    assert with_rate["report"]["gpu_hours"]["likely"] == pytest.approx(6 * 7e9 * 100e9 / 100e12 / 3600)


@pytest.mark.parametrize(("question", "model"), [
    ("Qwen-7B 推理 KV cache 多大", "Qwen-7B"),
    ("ChatGLM-6B 部署要多少显存", "ChatGLM-6B"),
    ("QLoRA fine-tune open_llama_3b, batch 1, seq 512, LoRA r=16: memory?", None),
])  # fmt: skip
def test_model_names_never_cross_versions(capsys, question, model):
    d = ask(capsys, question)
    assert d["request"]["model"] == model
    if model is None:
        assert d["interpretation"]["unknown_model"] == "open_llama_3b"  # as typed
        assert "open_llama_3b" in d["reply"]
        assert d["interpretation"]["substitutions"][0]["reason"] == "generic_shape"


def test_a_versionless_name_is_a_stated_substitution(capsys):
    d = ask(capsys, "Llama 70B inference on 4 H100")
    sub = d["interpretation"]["substitutions"]
    assert sub == [{"typed": "Llama 70B", "used": d["request"]["model"], "reason": "latest_release"}]
    assert "Llama 70B" in d["reply"]


@pytest.mark.parametrize(("question", "ignored"), [
    ("Serve Llama-3-70B on 4 H100 with ZeRO-3", {"text": "zero_stage: 3", "reason": "training_only"}),
    ("Llama-3-70B 推理部署，4张H100，ZeRO-3", {"text": "zero_stage: 3", "reason": "training_only"}),
    ("full fine-tune Qwen2.5-7B, rank 16, on 8 A100", {"text": "lora_rank: 16", "reason": "not_for_method"}),
    ("Qwen2.5-7B 全参微调，8张A100，gpu_memory_utilization 0.9",
     {"text": "gpu_memory_utilization: 0.9", "reason": "serving_only"}),
    ("QLoRA on Llama 3 70B with 4x A10G (24GB), 3 of us share it", {"text": "3", "reason": "unread"}),
])  # fmt: skip
def test_settings_not_used_are_named(capsys, question, ignored):
    d = ask(capsys, question)
    assert ignored in d["interpretation"]["ignored"]
    assert ignored["text"].split(":")[0] in d["reply"]


def test_interpretation_is_empty_when_everything_was_used(capsys):
    d = ask(capsys, "7B模型1万亿token要多少A100")
    assert d["interpretation"] == {
        "unknown_gpu": None,
        "unknown_model": None,
        "ignored": [],
        "substitutions": [],
        "beyond_slots": None,  # s15: card slots stated and exceeded (add-only)
        "machine": None,  # s41 cpufix: a machine with no GPU, 'no_gpu_said' / 'cpu_named' (add-only)
    }


# -- follow-ups understand the same settings (the bot's conversation, both languages)


def _chat():
    return Conversation(ttl_seconds=600, max_entries=100, clock=lambda: 0.0)


def test_followups_change_settings_zh():
    conv = _chat()
    first = conv.ask(1, 1, "13B模型LoRA微调，DeepSpeed ZeRO-2，2张A100 40G，不开梯度检查点，每卡显存多少？")
    assert first.answer.report.memory.fits_requested is False
    t = conv.ask(1, 1, "换成ZeRO-3呢")
    assert t.followup and t.changed == ["zero_stage"]
    assert t.answer.report.memory.plan.zero_stage == 3 and t.answer.report.memory.fits_requested
    assert t.answer.report.memory.breakdown["weights"] == pytest.approx(2 * 13e9 / 2)  # sharded over DP 2
    t = conv.ask(1, 1, "rank 改成 8")
    assert t.followup and t.request.lora_rank == 8 and t.request.zero_stage == 3
    t = conv.ask(1, 1, "用 8bit 呢")
    assert t.request.precision.value == "int8"
    spec_weights = t.answer.report.memory.breakdown["weights"]
    assert spec_weights < 2 * 13e9 / 2 * 0.6  # an 8-bit base
    t = conv.ask(1, 1, "那开梯度检查点呢")
    assert t.request.recompute.value == "full" and t.answer.report.memory.plan.recompute == "full"


def test_followups_change_settings_en():
    conv = _chat()
    conv.ask(2, 2, "Training Llama-3-70B on 64 A100s, 1T tokens: how long?")
    t = conv.ask(2, 2, "what if we get 180 TFLOPS per GPU?")
    assert t.followup and t.request.achieved_tflops_per_gpu == 180
    assert t.answer.report.days.days.likely == pytest.approx(6 * 70.6e9 * 1e12 / (64 * 180e12) / 86400)
    t = conv.ask(2, 2, "and with 3,000 tokens/s per GPU instead?")
    assert t.request.tokens_per_second_per_gpu == 3000 and t.request.achieved_tflops_per_gpu is None
    t = conv.ask(2, 2, "what about ZeRO-1?")
    assert t.request.zero_stage == 1 and t.answer.report.memory.plan.zero_stage == 1
    t = conv.ask(2, 2, "what about 12 hours on those GPUs?")
    assert t.request.hours == 12
    # 1T tokens in 12 hours on 64 A100 needs an MFU of ≈ 4,900 %: refused (session 9), not 768 GPU-hours
    refused = [n.params["gpu_count"] for n in t.answer.report.warnings if n.code == "duration_impossible"]
    assert refused == [64]
    assert t.answer.report.gpu_hours.likely > 64 * 12 * 40


def test_followup_lora_settings_en():
    conv = _chat()
    conv.ask(3, 3, "Llama-2-13B LoRA, rank 64 on all linear layers, 2 A100 40GB, ZeRO-2")
    t = conv.ask(3, 3, "change the rank to 8")
    assert t.request.lora_rank == 8 and t.request.lora_targets == ["all-linear"]
    # s21 (fixa): ZeRO-2 shards the trainable adapters' gradients and optimizer states over the 2 GPUs
    # (2 + 14 / 2 = 9 bytes a parameter), as DeepSpeed does for any trainable parameter
    assert t.answer.report.memory.breakdown["adapters"] == pytest.approx(
        (2 + 14 / 2) * 8 * LLAMA2_13B_ALL_LINEAR_PER_RANK
    )
    t = conv.ask(3, 3, "what about 2-bit QLoRA?")
    assert t.request.method.value == "qlora" and t.request.precision.value == "int2"
    t = conv.ask(3, 3, "full fine-tuning instead?")
    assert t.request.lora_rank is None and t.request.lora_targets is None  # the old method's settings go


def test_followup_serving_settings_zh():
    conv = _chat()
    conv.ask(4, 4, "用vLLM在1张H100上部署Llama-3.1-8B")
    t = conv.ask(4, 4, "gpu_memory_utilization 改成 0.95 呢")
    assert t.followup and t.request.gpu_memory_utilization == 0.95
    # vLLM's share of what CUDA reports (0.99 of the card); the CUDA context sits outside it
    assert t.answer.report.inference.usable_bytes_per_gpu == pytest.approx(0.99 * 80 * GIB * 0.95)
    t = conv.ask(4, 4, "换成 SGLang 呢")
    assert t.request.runtime.value == "SGLang" and t.answer.report.inference.runtime == "SGLang"
    t = conv.ask(4, 4, "那全量微调呢")
    assert t.request.gpu_memory_utilization is None and t.request.runtime is None  # serving-only settings go


@pytest.mark.parametrize("question", [
    "full fine-tune Qwen2.5-7B with 8-bit AdamW on 1 H100: memory?",
    "Qwen2.5-7B 全参微调，用 8bit adam 优化器，1张H100，显存多少",
])  # fmt: skip
def test_an_8bit_optimizer_is_not_an_8bit_model(capsys, question):
    """bitsandbytes 8-bit AdamW: fp32 master 4 + two 1-byte states = 6 bytes per parameter (Dettmers et
    al. 2022); the weights stay bf16 (precision not set)."""
    d = ask(capsys, question)
    assert d["request"]["optimizer"] == "adamw_8bit" and d["request"]["precision"] is None
    mem = d["report"]["memory"]
    shards = mem["plan"]["dp"] if mem["plan"]["zero_stage"] >= 1 else 1
    assert mem["breakdown"]["optimizer"] == pytest.approx(6 * 7.61e9 / shards)
    assert "8-bit AdamW" in d["reply"].split("\n", 1)[0]


def test_a_paged_8bit_optimizer_with_qlora_keeps_the_4bit_base(capsys):
    d = ask(capsys, "QLoRA Llama-3-70B on two RTX 4090 with paged_adamw_8bit")
    assert d["request"]["optimizer"] == "paged_adamw_8bit" and d["request"]["precision"] == "int4"


@pytest.mark.parametrize("question", [
    "serve a QLoRA-tuned Llama-3-8B on one A10 for 20 users",
    "deploy the LoRA fine-tuned Qwen2.5-7B on 1 L40S, 16 concurrent",
    "部署微调后的Qwen2.5-7B，并发20，1张4090",
])  # fmt: skip
def test_serving_a_tuned_model_is_a_serving_question(capsys, question):
    d = ask(capsys, question)
    assert d["request"]["stage"] == "inference" and d["request"]["method"] is None
    assert d["report"]["inference"] is not None
    assert d["request"]["precision"] != "int4"  # "QLoRA-tuned" says nothing about the served weights


def test_lora_settings_in_a_serving_question_are_named_as_not_used(capsys):
    d = ask(capsys, "serve Qwen2.5-72B on 4 H100 with LoRA rank 16, 32 users")
    assert {"text": "lora_rank: 16", "reason": "training_only"} in d["interpretation"]["ignored"]


@pytest.mark.parametrize(("question", "tp", "pp"), [
    ("pretrain Llama-2-70B on 1T tokens on 64 A100 with TP 4 and PP 2", 4, 2),
    ("Qwen2.5-7B全参微调，4张A100，TP=2，PP=2", 2, 2),
])  # fmt: skip
def test_a_stated_parallel_layout_is_the_plan(capsys, question, tp, pp):
    d = ask(capsys, question)
    plan = d["report"]["memory"]["plan"]
    assert (d["request"]["tp"], d["request"]["pp"]) == (tp, pp)
    assert (plan["tp"], plan["pp"]) == (tp, pp) and plan["dp"] == d["request"]["gpu_count"] // (tp * pp)


@pytest.mark.parametrize("question", [
    "vllm serve Llama-3-70B --tensor-parallel-size 4 on 8 H100",
    "Llama-3-70B 推理，4路张量并行，8张H100",
])  # fmt: skip
def test_a_stated_serving_tp_is_every_copy(capsys, question):
    inf = ask(capsys, question)["report"]["inference"]
    assert (inf["tp"], inf["pp"], inf["replicas"]) == (4, 1, 2)


def test_a_model_name_no_family_explains_is_named_as_typed(capsys):
    d = ask(capsys, "fine-tune FooLM-13B with LoRA on 1 A100")
    assert d["interpretation"]["unknown_model"] == "FooLM-13B" and d["request"]["params_total"] == 13e9
    assert d["interpretation"]["substitutions"][0]["reason"] == "generic_shape"
    assert "FooLM-13B" in d["reply"]


def test_a_card_name_no_vendor_explains_is_named_not_counted(capsys):
    """ "two FooGPU 9000 cards": two cards named FooGPU 9000, never 9,000 GPUs."""
    d = ask(capsys, "QLoRA a 70B on two FooGPU 9000 cards")
    assert d["interpretation"]["unknown_gpu"] == "FooGPU 9000" and d["request"]["gpu_count"] == 2


def test_sequence_length_follows_the_stated_sample_length(capsys):
    """'10万条数据每条1k token' without a sequence length: in fine-tuning, sequences are the samples'
    1,000 tokens (one sample per sequence), not the 2,048-token default — in the memory and in the
    attention FLOPs and time alike, exactly as if that sequence length had been stated."""
    out = ask(capsys, "7B全参微调，10万条数据每条1k token，8张A100要多久")
    seq = next(a for a in out["assumptions"] if a["field"] == "seq_len")
    assert (seq["value"], seq["why"]) == (1000, "seq_from_samples")
    stated = ask(capsys, "7B全参微调，10万条数据每条1k token，序列长度1000，8张A100要多久")
    for key in ("gpu_hours", "flops_with_attention", "attention_share"):
        assert out["report"][key] == stated["report"][key], key
    out = ask(capsys, "LoRA an 8B model on ~20k examples of about 1k tokens each, seq len 4096")
    assert out["request"]["seq_len"] == 4096  # a stated sequence length still wins
    assert not any(a["field"] == "seq_len" for a in out["assumptions"])
    # pre-training packs documents into sequences: a document length is not a sequence length
    out = ask(capsys, "pretrain 1B on 1M documents of 2k tokens each on 8 H100")
    assert next(a for a in out["assumptions"] if a["field"] == "seq_len")["why"] != "seq_from_samples"


LLAMA3_8B_KV_PER_TOKEN = 2 * 32 * 8 * 128 * 2
"""Llama 3 8B's KV cache per token: K and V × 32 layers × 8 KV heads × head_dim 128 × 2 bytes."""


def test_a_question_of_how_many_concurrent_is_answered_in_the_headline(capsys):
    """'How many at once' on the user's GPUs: the headline gives the sequences that fit at the context,
    and the body the KV cache of one sequence (Llama 3 8B at 8K: 131,072 B × 8,192 = 1.1 GB), not a
    total at an assumed load."""
    out = ask(capsys, "how many concurrent users can one H100 serve Llama 3 8B at 8k context?")
    inf = out["report"]["inference"]
    assert inf["kv_bytes_per_token"] == LLAMA3_8B_KV_PER_TOKEN
    head = out["reply"].splitlines()[0]
    assert f"up to {inf['max_concurrency']} concurrent sequences at 8K context" in head
    assert inf["max_concurrency"] == inf["kv_capacity_tokens"] * inf["replicas"] // 8192
    # s37 fixb #3: 1.1 GB = 1 GiB, in the unit of the usable GiB on its line
    assert "1 GiB per sequence" in out["reply"] and "× 16 concurrent =" not in out["reply"]
    zh = ask(capsys, "Llama-3-70B 4张A100能支持多少并发")
    assert f"最多约 {zh['report']['inference']['max_concurrency']} 条并发" in zh["reply"].splitlines()[0]


@pytest.mark.parametrize(
    "question",
    [
        "公司内部几个人用，部署Qwen2.5-72B要几张A100",
        "serve Llama-3-70B on 4 H100, how many requests per second can it handle?",
        "部署Llama-3-70B，多少用户量需要几张H100",
    ],
)
def test_other_questions_keep_their_headline(capsys, question):
    """Statements about users and throughput questions are not answered with a concurrency headline."""
    head = ask(capsys, question)["reply"].splitlines()[0]
    assert "条并发" not in head and "concurrent sequences" not in head


def test_gpus_and_concurrency_asked_together_are_both_in_the_headline(capsys):
    """No GPU count: the GPUs are the answer and come first; the concurrency that was asked too follows
    in the same line (issue #22 item 10: it was on line 5; this question was in the test above)."""
    out = ask(capsys, "部署Qwen2.5-72B需要几张A100，能支持多少并发")
    inf = out["report"]["inference"]
    head = out["reply"].splitlines()[0]
    gpus, conc = f"推荐 {inf['recommended_gpus']} 张", f"最多约 {inf['max_concurrency']} 条并发"
    assert gpus in head and conc in head and head.index(gpus) < head.index(conc), head


@pytest.mark.parametrize(
    ("question", "gpus", "hours"),
    [("rent 8x H100 for one week", 8, 168), ("8卡H100包月", 8, 720), ("租4张A100一周", 4, 168)],
)
def test_a_rental_without_a_cost_word_is_a_rental(capsys, question, gpus, hours):
    """'rent … for one week', '包月' and '租…一周' are GPU rentals: the count × the period's hours, priced."""
    out = ask(capsys, question)
    assert (out["request"]["gpu_count"], out["request"]["hours"]) == (gpus, hours)
    assert f"{gpus * hours:,}" in out["reply"].splitlines()[0]


@pytest.mark.parametrize(
    ("question", "deadline_days"),
    [
        ("A100包年价格每卡8万，7B预训练1T token要多少钱", 30),  # a price unit: the default 30 days
        ("我们在多租户集群上用16张A100全参微调Qwen2.5-14B，两周内能完成吗", 14),  # 租户 is a tenant
        ("租8张H100一周能训多少token，7B模型", 7),  # a model to train: the week is its deadline
    ],
)
def test_rental_words_that_are_not_a_rental(capsys, question, deadline_days):
    out = ask(capsys, question)
    assert (out["request"]["hours"], out["request"]["deadline_days"]) == (None, deadline_days)


def test_within_budget_names_the_cost_of_a_slow_run(capsys):
    """$20K for 7B × 100B tokens on H100: within the budget at the likely GPU-hours × $1.50–3.50, but
    the MFU band's low end (the GPU-hours' high end) would cost more — the verdict says both."""
    out = ask(capsys, "budget $20,000 to pretrain a 7B model on 100B tokens on H100, enough?")
    cost = out["report"]["cost"]
    assert cost["high"] <= 20_000 < cost["high_with_mfu"]
    verdict = out["reply"].splitlines()[1]
    assert verdict.startswith("Within budget at the likely speed")
    assert f"${cost['high_with_mfu']:,.0f}" in verdict


def test_of_them_after_other_numbers_is_not_a_gpu_count(capsys):
    """'on H100: 10,000 samples, 2,000 of them long' counts samples; '256 of them' right after a card
    counts cards."""
    out = ask(capsys, "LoRA Llama-3-8B on H100: 10,000 samples, 2,000 of them long")
    assert (out["request"].get("gpu_count"), out["request"]["num_samples"]) == (None, 10_000)
    out = ask(capsys, "We want to pretrain a 70B model on MI300X, we can get 256 of them, 2T tokens")
    assert out["request"]["gpu_count"] == 256


def test_a_sequence_beyond_the_context_window_is_noted(capsys):
    """Llama 3 70B was released with max_position_embeddings 8,192 (config.json): serving it at 32K is
    sized as asked, with a note that it needs a long-context version or RoPE scaling."""
    out = ask(capsys, "serve Llama 3 70B at 32k context on 8 H100")
    note = next(w for w in out["report"]["warnings"] if w["code"] == "beyond_context_window")
    assert (note["params"]["window"], note["params"]["length"]) == (8192, 32768)
    assert "released for at most 8,192 tokens" in out["reply"]
    assert "not trained for 32,768 tokens" in out["reply"]


@pytest.mark.parametrize(
    ("question", "typed"),
    [("train a 7B model on 1T tokens with 100000000 H100s", "100000000"),
     ("serve 70B with 2000000 concurrent users on A100", "2000000")],
)  # fmt: skip
def test_counts_beyond_any_cluster_are_named_as_unusable(capsys, question, typed):
    """More than 100,000 GPUs (the search's ceiling) or 1,000,000 concurrent sequences: named as not a
    usable value, never dropped silently."""
    out = ask(capsys, question)
    assert f"I ignored “{typed}”" in out["reply"]
    assert {"text": typed, "reason": "unusable"} in out["interpretation"]["ignored"]


def test_a_stated_layout_not_used_is_not_echoed_as_used(capsys):
    """TP 4 × PP 2 on 4 GPUs is named as not used; the headline does not echo it as the layout."""
    out = ask(capsys, "full fine-tune llama 3.1 8b on 4 A100 80G, TP 4 PP 2")
    head, second = out["reply"].splitlines()[:2]
    assert "TP 4 × PP 2" not in head and "“tp: 4”" in second


def test_the_checkpoint_formula_follows_the_optimizer(capsys):
    """8-bit AdamW: bf16 weights 2 + fp32 master 4 + two 1-byte states + 2 = 10 bytes per parameter."""
    out = ask(capsys, "全参微调Llama-3-8B，用8-bit AdamW，8张A100")
    assert "完整训练状态 10 字节" in out["reply"]


def test_an_uncalibrated_card_does_not_claim_calibrated_runs(capsys):
    """No published training run on an RTX 4090: the GPU-hours range is the spread of the data-centre
    runs, and the reply says so instead of 'comparable published runs fell in this range'."""
    out = ask(capsys, "pretrain 1B on 20B tokens on 8 RTX 4090")
    assert any(a["field"] == "mfu" and a["why"] == "mfu_uncalibrated" for a in out["assumptions"])
    assert "none on this card" in out["reply"] and "80% of comparable published runs fell" not in out["reply"]


def test_a_stated_serving_tp_that_costs_gpus_says_what_a_free_layout_needs(capsys):
    """Qwen3-235B-A22B in bf16 (470 GB) on H200s at 0.85: a TP 4 copy has 4 × 141 GB × 0.85 ≈ 479 GB,
    nearly all weights, so 64 sequences of 32K need many copies; TP 8 copies hold far more KV cache."""
    out = ask(capsys, "Deploy Qwen3-235B-A22B with TP 4 on H200, gpu_memory_utilization 0.85, 32k context, "
                      "64 concurrent")  # fmt: skip
    note = next(w for w in out["report"]["warnings"] if w["code"] == "stated_layout_needs_more")
    assert (note["params"]["tp"], note["params"]["free_tp"]) == (4, 8)
    needed = out["report"]["inference"]["recommended_gpus"]
    assert note["params"]["free_gpus"] < note["params"]["gpus"] == needed
    # the reason: 235B × 2 B of weights nearly fill a TP 4 copy's 4 × 141 GB × 0.85
    assert out["report"]["inference"]["weights_bytes"] > 0.95 * 4 * 141e9 * 0.85


def test_nothing_said_twice(capsys):
    """An unknown card is named once (under the headline, with the closest cards); a monthly cost asked
    for is line 2 and not repeated in the bullets."""
    # s30 fix d: the B300 is catalogued now (sized as itself), so a card still absent stands in for it
    reply = ask(capsys, "What does it cost to train a 7B model on 1T tokens using Kunlunxin P800?")["reply"]
    body = reply.split("Assumptions and sources")[0]
    assert body.count("“Kunlunxin P800”") == 1
    reply = ask(capsys, "serve gpt-oss-120b on 2 H100, cost per month?")["reply"]
    assert reply.count("per month") == 1


def test_a_pipeline_on_consumer_cards_is_explained_by_pcie_not_by_nodes(capsys):
    """Eight RTX 4090s in one box have no NVLink: the layout is explained by the missing NVLink, not by
    crossing nodes. s37 fixc #1: a full fine-tune with no Megatron tool named runs ZeRO-3/FSDP (it fits at
    22.3 GiB with full recompute), never TP 4 × PP 2 over PCIe, which the Hugging Face stacks cannot run."""
    data = ask(capsys, "qwen2.5-7b全量微调，1亿token，8张4090要多久")
    reply = data["reply"]
    assert "可以跨机" not in reply
    assert "NVLink" in next(line for line in reply.splitlines() if line.startswith("• 原因"))
    plan = data["report"]["memory"]["plan"]
    assert (plan["tp"], plan["pp"], plan["dp"], plan["zero_stage"]) == (1, 1, 8, 3)


def test_stated_sequence_and_micro_batch_are_echoed_and_a_smaller_micro_batch_offered(capsys):
    """'4096 seq len, micro batch 4' shape the memory: both are echoed next to the stage, and micro-batch 1
    is offered (activations and the loss's logits scale with the micro-batch: Korthikanti et al. 2022)."""
    question = "llama 3 8b full fine tune zero-2 on 8x a100 40gb, 4096 seq len, micro batch 4, memory?"
    out = ask(capsys, question)
    assert "(ZeRO-2, 4,096-token sequences, micro-batch 4)" in out["reply"].splitlines()[0]
    alt = next(a for a in out["report"]["memory"]["alternatives"] if a["change"] == "micro_batch_1")
    assert alt["min_gpus"] is not None and alt["min_gpus"] <= 8


def test_a_stated_deadline_met_early_is_said(capsys):
    """32B on 2B tokens needs 8 H100s for memory; they finish in ≈ 2.7 days, within the 5 days asked. s36
    left #1: the 8 run ZeRO-3 data parallelism (not Megatron's TP) with gradient checkpointing, which the
    headline then names: 392 GPU-hours × 4/3 (8·N·D for 6·N·D) = 522, ÷ 8 ÷ 24 = 2.7 days (was 2.2)."""
    out = ask(capsys, "full fine-tune Qwen2.5-32B on 2B tokens in 5 days, how many H100?")
    head = out["reply"].splitlines()[0]
    assert "about 8 GPUs for 2.7 days (within your 5 days); full recompute on 8 GPUs" in head
    # ¥800,000 at the middle of H800's ¥15–40 per GPU-hour = 29,091 GPU-hours; ÷ 720 h = 40.4 → 48 GPUs
    # (rounded up so the stated days hold, issue 22 item 14 -- was 40, which takes 30.3 days; whole
    # 8-GPU nodes; the GPU-hours, and so the cost, stay what the budget buys)
    zh = ask(capsys, "预算80w，想在一个月内训一个7b模型，用H800，够吗")
    assert "在你的 30 天内：约 48 张卡" in zh["reply"]
    # the user's own 8 GPUs for two weeks use 2,688 GPU-hours, less than ¥500,000 buys: they decide
    zh = ask(capsys, "预算50万，8张H100，两周，7B模型能训多少token")
    assert zh["report"]["budget_gpu_hours"]["likely"] == 8 * 14 * 24
    assert "由卡数和天数决定" in zh["reply"]


def test_a_stated_tp_too_small_for_one_copy_is_said_and_searched(capsys):
    """Qwen2.5-32B in bf16 is 65 GB: one RTX 4090 (24 GB) cannot hold a TP 1 copy."""
    out = ask(capsys, "serve qwen2.5 32b with TP 1 on 4090, 8 concurrent")
    note = next(w for w in out["report"]["warnings"] if w["code"] == "stated_layout_too_small")
    assert note["params"]["tp"] == 1 and out["report"]["inference"]["tp"] > 1


def test_the_context_window_note_is_for_stated_lengths_only(capsys):
    """GPT-3's 2,048-token window: pre-training at the 4,096 default defines its own window; no note."""
    out = ask(capsys, "GPT-3 175B 预训练 300B token")
    assert not any(w["code"] == "beyond_context_window" for w in out["report"]["warnings"])


@pytest.mark.parametrize("question", ["部署需要几张A100", "How many H100s do I need for inference?"])
def test_a_serving_question_without_a_model_is_not_answered_with_the_largest_model(capsys, question):
    """Only 'which model fits' gets the largest-model answer; the others ask for the model (help)."""
    assert main(["ask", "--format", "json", question]) == 2
    capsys.readouterr()


@pytest.mark.parametrize("question", ["8卡H100包月价格多少", "8张A100包月费用", "8卡H100包月的话要多少钱"])
def test_monthly_rental_price_questions(capsys, question):
    """包月 with a price word after it is still a month's rental: 8 × 720 hours."""
    out = ask(capsys, question)
    assert (out["request"]["gpu_count"], out["request"]["hours"]) == (8, 720)


def test_how_many_at_once_lays_the_gpus_out_for_the_most_sequences(capsys):
    """Asked how many fit, 8 H100 hold Qwen2.5-72B as one TP 8 copy (145 GB of weights once, the rest
    KV cache), not as two TP 4 copies each repeating the weights: as many as with TP 8 stated, more than
    with TP 4 stated."""
    asked = ask(capsys, "部署Qwen2.5-72B，8张H100，32k上下文，最多支持多少并发？")
    assert asked["request"]["concurrency_asked"] is True
    tp8 = ask(capsys, "部署Qwen2.5-72B，8张H100，32k上下文，TP 8，最多支持多少并发？")
    tp4 = ask(capsys, "部署Qwen2.5-72B，8张H100，32k上下文，TP 4，最多支持多少并发？")
    most = [out["report"]["inference"]["max_concurrency"] for out in (asked, tp8, tp4)]
    assert most[0] == most[1] > most[2]


@pytest.mark.parametrize(
    ("question", "line"),
    [
        ("what's the TTFT for Llama 3 70B on 4 H100 with 8k prompts?", "Time to first token: ≈"),
        ("部署DeepSeek-R1，16张H20，64k上下文，30并发，要多久首token？", "首 token 延迟：约"),
    ],
)
def test_a_time_to_first_token_question_is_answered_on_line_2(capsys, question, line):
    """Asked for the time to first token, line 2 gives the prefill time of one sequence of the stated
    prompt or context ('8k prompts' is the prompt length, not an unread number)."""
    out = ask(capsys, question)
    second = out["reply"].splitlines()[1]
    assert second.startswith(line)
    assert out["interpretation"]["ignored"] == []
    # the figure as the reply rounds it (issue 25 item 3 moved DeepSeek-R1's from 16.x to 8.15 s: the
    # FP8 peak; its first three characters "8.1" are not the rounded "8.2")
    ttft = out["report"]["inference"]["prefill_seconds"]
    assert f"{ttft:.{2 if ttft < 1 else 1}f}" in out["reply"]  # bot/render/serving_text.py's rounding


def test_the_epochs_are_shown_in_the_data_conversion(capsys):
    """5万条 × 512 tokens (the stated default) × 3 epochs = 7,680万 tokens: the ×3 is written out."""
    out = ask(capsys, "全参微调llama3-8b，5万条数据，3个epoch，8张A100")
    assert "5万 条 × 每条 512 token × 3 个 epoch = 7680万 token" in out["reply"]
    assert out["report"]["flops"] == 6 * 8.03e9 * 50_000 * 512 * 3


def test_how_many_at_once_sizes_the_body_at_that_load(capsys):
    """Asked how many fit, the body's decode speed and cost are at that many sequences, recorded as what
    was asked (not the default 16): Qwen2.5-72B on 4 A100 at 32K holds 475,152 ÷ 32,768 = 14."""
    out = ask(capsys, "Qwen2.5-72B部署，4张A100 80G，32k上下文，最多支持多少并发")
    inf = out["report"]["inference"]
    conc = next(a for a in out["assumptions"] if a["field"] == "concurrency")
    assert conc["why"] == "concurrency_asked"
    assert conc["value"] == inf["max_concurrency"] == inf["concurrency"]
    # s8 fix item 3 (asked for): at 32K the count is never below what the layout holds at 32,769 tokens
    # (chunked prefill, V1's start-up): 14. s26 trfix #3: vLLM is sized by V1 itself, whose start-up log
    # at --max-model-len 32768 holds 475,152 tokens (the A100's 2,048-token chunk and 256-row sampler,
    # test_launcher_world_size), 14 sequences; V0's whole-sequence log held 442,000 (13)
    assert inf["kv_capacity_tokens"] == 475_152 and inf["kv_capacity_tokens"] // 32768 == 14
    assert inf["max_concurrency"] == 14
    assert "（按默认 16 条并发估算）" not in out["reply"]


def test_fp8_only_is_not_claimed_when_the_stated_load_does_not_fit_in_fp8(capsys):
    """Qwen2.5-32B on one 48 GB L40S at 64 × 4K: FP8 weights (32.8 GB) + 64 × 4,096 × 256 KiB of KV cache
    (68.7 GB) cannot fit one card, so the verdict is 'no', not 'only with FP8'."""
    out = ask(capsys, "serve qwen2.5 32b on a single L40S, 64 concurrent users, 4k context - ok?")
    assert out["report"]["feasible"] == "no"
    assert 64 * 4096 * 256 * 1024 + 32.8e9 > 48e9
    alone = ask(capsys, "serve qwen2.5 32b on a single L40S")  # one user: FP8 weights do fit
    assert (alone["report"]["feasible"], alone["report"]["feasible_reason"]) == ("borderline", "fp8_only")


def test_a_chinese_vendor_name_before_a_model_number_is_named(capsys):
    """'壁仞BR104' (Biren, not in the catalog) is named as typed, never silently an A100 (Moore Threads'
    S4000, the earlier example, is a catalog card since s25)."""
    out = ask(capsys, "用壁仞BR104训练7B要多久")
    assert out["interpretation"]["unknown_gpu"] == "壁仞BR104"
    assert "“壁仞BR104”不在我的目录中" in out["reply"]


@pytest.mark.parametrize(
    ("question", "gpus"),
    [("how long to train a 7B model on 8 H100", 8), ("7B模型用64张A100训练要多久", 64)],
)
def test_how_long_without_a_data_size_assumes_chinchilla_and_says_so(capsys, question, gpus):
    """'How long' with no token count: D = 20 × 7B = 140B tokens (Hoffmann et al. 2022), in the
    ledger and right under the headline; the time follows 6ND on the user's GPUs."""
    out = ask(capsys, question)
    tokens = next(a for a in out["assumptions"] if a["field"] == "tokens")
    assert (tokens["value"], tokens["why"]) == (140e9, "tokens_chinchilla_assumed")
    assert out["report"]["flops"] == 6 * 7e9 * 140e9
    assert out["report"]["days"]["gpus"] == gpus
    assert "140B" in out["reply"].splitlines()[1] or "1400亿" in out["reply"].splitlines()[1]
