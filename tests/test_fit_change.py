"""Issue 25 item 1: "fits" only when the high end of the memory band fits; "borderline" says what to
change (estimator.fit_change, estimator.verdicts). Through the CLI (``sizing-bot ask``) in both
languages, and the terms underneath against their sources."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.cli import main
from estimator import catalog
from estimator.fit_change import high_edge_fit, what_to_change
from estimator.memory import breakdown_within
from estimator.memory_band import per_gpu_band
from estimator.models import Algorithm, Memory, Method, Plan, SizingRequest
from estimator.setup import Layout, TrainingSetup
from estimator.transients import CHUNKED_LOSS_BYTES_PER_LOGIT, FP32_LOSS_BYTES_PER_LOGIT, PAIRED_SEQUENCES
from estimator.verdicts import tool_runs_ddp

GIB = 2**30

LONG_LORA = {
    "en": "LoRA fine-tune Llama-3.1-8B on 4 L20 48GB with DeepSpeed ZeRO-3, cutoff_len 15000, batch size 1: "
    "memory per GPU?",
    "zh": "4 张 L20（48G）用 deepspeed zero3 LoRA 微调 llama3.1 8B，cutoff_len 15000，batch size 1，"
    "每卡要多少显存？",
}
"""The setting of LLaMA-Factory issue 6531 (tests/data/real_questions zh-025): it ran out of memory."""

DDP_TOOL = {
    "en": "LoRA fine-tune Qwen2-72B with LLaMA-Factory on 8 A100 80GB: will it fit?",
    "zh": "用 LLaMA-Factory 在 8 张 A100 80G 上 LoRA 微调 Qwen2-72B，放得下吗？",
}
"""LLaMA-Factory issue 4253 (zh-012): LoRA of a 72B on A100s without a DeepSpeed config ran out of memory."""

CHANGE_LINE = {"en": "What to change:", "zh": "要改的设置："}


def ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", question])
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_long_sequence_lora_is_borderline_and_names_a_chunked_loss(capsys, lang):
    """Likely 33.0 GiB fits 48 GiB; the high end (the fp32 loss over 15,000 × 128,256 logits) does not:
    borderline, and the change — a loss without the whole fp32 logits — brings the high end under."""
    out = ask(capsys, LONG_LORA[lang])
    report, m = out["report"], out["report"]["memory"]
    assert (report["feasible"], report["feasible_reason"]) == ("borderline", "high_edge")
    assert m["per_gpu_bytes"] < m["usable_bytes"] < m["per_gpu_bytes_high"]
    assert [c["setting"] for c in m["fit_change"]] == ["chunked_loss"]
    assert m["fit_change"][0]["per_gpu_bytes_high"] <= m["usable_bytes"]
    line = next(x for x in out["reply"].splitlines() if CHANGE_LINE[lang] in x)
    # 80.6 GiB before ZeRO-3 sharded the adapters (s21); 80.1 before s23, when ZeRO-3's all-gather of the
    # frozen base came in (stage3_max_live_parameters = 1e9 bf16 elements, 1.86 GiB, +8 % fragmentation)
    # the card's 45.0 GiB: the L20 shows 46,068 MiB with ECC on (48 GiB before s41 fixserve #3)
    assert "use_liger_kernel" in line and "82.2 GiB" in line and "45.0 GiB" in line


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_named_data_parallel_tool_without_deepspeed_does_not_fit_as_configured(capsys, lang):
    """LLaMA-Factory without a DeepSpeed/FSDP setting runs DDP: the bf16 base alone (72.7 G × 2 B =
    135.4 GiB) is over the 80 GiB card, so the verdict on the user's setting is "does not fit" (s21:
    "borderline" before, because the ZeRO-3 plan fits); the headline says so first, then ZeRO-3's
    27.7 GiB, and ZeRO-3 is the setting to add. The thread (LLaMA-Factory issue 4253) ran out of memory.
    27.7 GiB with LLaMA-Factory's own gradient checkpointing (on unless disabled): s27-hfsel sizes an HF
    tool's recompute as none or full only; keeping the activations needs ≈ 86 GiB a GPU at DP 8, so the
    plan checkpoints (70.9 GiB until s27 was Megatron's selective recompute, which LLaMA-Factory cannot
    run; 68.9 before s23: ZeRO-3 all-gathers the frozen base too, 1.86 GiB)."""
    out = ask(capsys, DDP_TOOL[lang])
    report, m = out["report"], out["report"]["memory"]
    assert (report["feasible"], report["feasible_reason"]) == ("no", "tool_default_ddp")
    assert m["fits_requested"] is True  # the ZeRO-3 alternative fits the same 8 GPUs
    assert m["plan"]["zero_stage"] == 3 and m["fit_change"][0]["setting"] == "zero_stage"
    assert m["fit_change"][0]["value"] == 3
    note = next(n for n in report["warnings"] if n["code"] == "ddp_does_not_fit")["params"]
    assert note["tool"] == "LLaMA-Factory" and note["stage"] == 3 and note["usable_gib"] == 80.0
    assert note["ddp_gib"] > 135.4 and round(note["per_gpu_gib"], 1) == 27.7
    assert m["plan"]["recompute"] == "full"
    first = out["reply"].splitlines()[0]
    said = {
        "en": ("does not fit on 8 × A100 80G with plain DDP", "ZeRO-3 it fits, ≈ 27.7 GiB"),
        "zh": ("纯 DDP", "8 张 A100 80G 放不下", "改用 ZeRO-3 就放得下，每卡约 27.7 GiB"),
    }[lang]
    assert all(x in first for x in said), first
    assert first.index("DDP") < first.index("ZeRO-3")  # the user's setting first, then the alternative
    line = next(x for x in out["reply"].splitlines() if CHANGE_LINE[lang] in x)
    assert "ZeRO-3" in line


@pytest.mark.parametrize(
    "q",
    [
        "Full fine-tune Qwen2.5-7B with TRL SFTTrainer on 4x A100 80GB, per_device_train_batch_size=1, "
        "max_seq_length=2048, gradient_checkpointing=True: will it fit?",
        "用 TRL SFTTrainer 在 4 张 A100 80G 上全参微调 Qwen2.5-7B，per_device_train_batch_size=1，"
        "max_seq_length=2048，gradient_checkpointing=True，放得下吗？",
    ],
)
def test_trl_plain_ddp_full_fine_tuning_that_does_not_fit_says_so_first(capsys, q):
    """TRL without deepspeed/fsdp is plain DDP: 7.62 G × 16 B (bf16 weights and gradients, fp32 Adam,
    ZeRO §3 stage 0) = 113.5 GiB of model states on every GPU, over 80 GiB: "does not fit" as configured;
    ZeRO-2 on the same 4 GPUs fits at 53.3 GiB (before s21: "fits … borderline"). DDP's likely 145 → 119
    GiB since s24: fused AdamW step at ZeRO-0 (−4 B/param likely: no foreach copy of the second moments,
    7.61 G × 4 B = 28.4 GiB, of which 26 GiB stood beyond the freed transients): 113.4 GiB of states + the
    layer inputs, logits and overhead."""
    out = ask(capsys, q)
    report = out["report"]
    assert (report["feasible"], report["feasible_reason"]) == ("no", "tool_default_ddp")
    note = next(n for n in report["warnings"] if n["code"] == "ddp_does_not_fit")["params"]
    assert note["tool"] == "TRL" and note["stage"] == 2
    assert round(note["ddp_gib"]) == 119 and round(note["per_gpu_gib"], 1) == 53.3
    assert "DDP" in out["reply"].splitlines()[0]


@pytest.mark.parametrize(
    "question",
    [
        "full fine-tune 7B on 4 A100 80G",
        "LoRA fine-tune Llama-3-8B on one A100 80GB, seq 2048",
        "full fine-tune 7B, ZeRO-3, 4 A100 80GB, seq 2048",
    ],
)
def test_yes_only_when_the_high_end_fits(capsys, question):
    """Every training 'yes' has its band's high end within the card."""
    out = ask(capsys, question)
    m = out["report"]["memory"]
    assert out["report"]["feasible"] == "yes"
    assert m["per_gpu_bytes_high"] <= m["usable_bytes"]


def test_the_plan_raises_the_zero_stage_when_that_makes_the_high_end_fit(capsys):
    """7B full fine-tuning on 4 × A100 80G: ZeRO-1 fits at the likely figure only; ZeRO-2 (same split,
    same recompute) fits at both ends, so the plan shown is ZeRO-2 (fit_change.with_high_edge_plan)."""
    m = ask(capsys, "full fine-tune 7B on 4 A100 80G")["report"]["memory"]
    assert (m["plan"]["zero_stage"], m["plan"]["recompute"]) == (2, "selective")
    assert m["per_gpu_bytes_high"] <= m["usable_bytes"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_plan_that_needs_checkpointing_at_the_high_end_is_borderline(capsys, lang):
    """Baichuan2-13B full on 4 × A800: the plan fits at the likely figure only and the answer says what to
    change. s36 left #1: the plan is ZeRO-3 over DP 4 with gradient checkpointing (the layout LLaMA-Factory
    and DeepSpeed run; it was Megatron's TP 2 × DP 2 with ZeRO-3 and selective recompute, whose change was
    checkpointing): its high end, 80.35 GiB of 80, fits with a loss that never holds the whole fp32 logits."""
    q = {
        "en": "Full fine-tune Baichuan2-13B on 4 A800 80GB: will it fit?",
        "zh": "百川2-13B想做全量微调，4张A800撑得住吗？",
    }
    out = ask(capsys, q[lang])
    report, m = out["report"], out["report"]["memory"]
    assert (report["feasible"], report["feasible_reason"]) == ("borderline", "high_edge")
    assert (m["plan"]["tp"], m["plan"]["dp"], m["plan"]["zero_stage"], m["plan"]["recompute"]) == (
        1,
        4,
        3,
        "full",
    )
    assert [(c["setting"], c["value"]) for c in m["fit_change"]] == [("chunked_loss", True)]
    assert m["fit_change"][0]["per_gpu_bytes_high"] <= m["usable_bytes"]
    line = next(x for x in out["reply"].splitlines() if CHANGE_LINE[lang] in x)
    assert "use_liger_kernel" in line


def _llama_long() -> tuple:
    spec = catalog.model("Llama-3.1-8B")
    setup = TrainingSetup(method=Method.lora, seq_len=15000, zero_stage=3, recompute="full")
    return spec, spec.params_total, catalog.gpu("L20"), setup


def test_chunked_loss_term_from_its_source():
    """The change's memory term: the fp32 loss keeps 10 / 12 / 16 bytes per logit (bf16 logits, their
    fp32 upcast in transformers' ForCausalLMLoss, log-softmax, gradients); a chunked loss (Liger's fused
    linear cross-entropy, torchtune's chunked CE) 2 + 4/8 (bf16 logits, one fp32 chunk of 8). On
    15,000 tokens × 128,256 entries the likely loss goes from 23.1 GB to 5.8 GB."""
    spec, params, _, setup = _llama_long()
    assert spec.vocab == 128256
    layout = Layout(tp=1, pp=1, dp=4, zero_stage=3, recompute="full", micro_batch=1, offload=False)
    fp32 = breakdown_within(spec, params, setup, layout, float("inf"))["logits"]
    chunked = breakdown_within(spec, params, replace(setup, chunked_loss=True), layout, float("inf"))[
        "logits"
    ]
    logits = 15000 * 128256
    assert FP32_LOSS_BYTES_PER_LOGIT[1] == 12.0 and CHUNKED_LOSS_BYTES_PER_LOGIT[1] == 2.5
    assert fp32 == pytest.approx(12.0 * logits, rel=1e-9)
    assert chunked <= 2.5 * logits * (1 + 1e-9)


def test_what_to_change_is_the_cheapest_setting_whose_high_end_fits():
    """No layout of the stated setup fits 4 × L20 at the high end; with the chunked loss one does, and
    the reported high end is that layout's band."""
    spec, params, gpu, setup = _llama_long()
    assert high_edge_fit(spec, params, gpu, 4, setup) is None
    plan = Plan(tp=1, pp=1, dp=4, zero_stage=3, recompute="full")
    change = what_to_change(spec, params, gpu, 4, setup, plan)
    assert [(c.setting, c.value) for c in change] == [("chunked_loss", True)]
    fit_plan, high = high_edge_fit(spec, params, gpu, 4, replace(setup, chunked_loss=True))
    parts = breakdown_within(spec, params, replace(setup, chunked_loss=True), fit_plan, float("inf"))
    assert high == per_gpu_band(spec, replace(setup, chunked_loss=True), fit_plan, parts, params)[1]
    assert change[0].per_gpu_bytes_high == high <= gpu.addressable_bytes


def test_ddp_keeps_the_whole_base_on_every_gpu():
    """PyTorch DDP (ZeRO-0) replicates the model: each of 8 GPUs holds the 72.7B base in bf16
    (2 B/param = 145 GB > 80 GiB) — why a data-parallel tool without a ZeRO setting is only borderline."""
    spec = catalog.model("Qwen2-72B")
    setup = TrainingSetup(method=Method.lora, data_parallel_only=True)
    ddp = Layout(tp=1, pp=1, dp=8, zero_stage=0, recompute="full", micro_batch=1, offload=False)
    parts = breakdown_within(spec, spec.params_total, setup, ddp, float("inf"))
    assert parts["weights"] == pytest.approx(2.0 * spec.params_total, rel=1e-9)
    assert parts["weights"] > catalog.gpu("A100-SXM4-80GB").addressable_bytes
    zero3 = Plan(tp=1, pp=1, dp=8, zero_stage=3, recompute="full")
    mem = Memory(per_gpu_bytes=1.0, gpu_memory_bytes=1.0, usable_bytes=1.0, min_gpus=1, breakdown={},
                 total_bytes=1.0, plan=zero3)  # fmt: skip
    req = SizingRequest(training_tool="LLaMA-Factory")
    assert tool_runs_ddp(req, setup, mem)
    assert not tool_runs_ddp(req, replace(setup, zero_stage=3), mem)  # the user set ZeRO-3
    assert not tool_runs_ddp(SizingRequest(), setup, mem)  # no tool named: the common stack is not a claim
    assert not tool_runs_ddp(SizingRequest(training_tool="Megatron-LM"), setup, mem)


def test_dpo_puts_chosen_and_rejected_through_the_model_at_once():
    """DPO's micro-batch of b pairs is 2·b sequences in one forward (TRL ``concatenated_forward``,
    LLaMA-Factory's ``PairwiseDataCollatorWithPadding``): activations and logits twice those of SFT at
    the same micro-batch — 2 × 2,048 × 128,256 logits × 12 bytes = 6.3 GB likely for Llama-3-8B."""
    spec = catalog.model("Llama-3-8B")
    sft = TrainingSetup(method=Method.lora, seq_len=2048)
    dpo = replace(sft, algorithm=Algorithm.dpo)
    layout = Layout(tp=1, pp=1, dp=1, zero_stage=0, recompute="selective", micro_batch=1, offload=False)
    one = breakdown_within(spec, spec.params_total, sft, layout, float("inf"))
    pair = breakdown_within(spec, spec.params_total, dpo, layout, float("inf"))
    assert PAIRED_SEQUENCES == 2
    assert pair["logits"] == pytest.approx(2 * 2048 * 128256 * 12.0, rel=1e-9) == 2 * one["logits"]
    assert pair["activations"] == pytest.approx(2 * one["activations"], rel=1e-9)
    assert pair["weights"] == one["weights"]  # a LoRA reference is the base with the adapters off
