"""Monotonicity of the memory verdicts (issue 14): for fixed settings, memory never falls as the
sequence, the micro-batch or the serving context and load grow, and the KV cache never holds more
tokens for a longer ``max_model_len``. Properties over the catalog's shapes and every option."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from estimator import catalog
from estimator.inference import (
    LOCAL,
    SGLANG,
    TRANSFORMERS,
    VLLM,
    Layout,
    Load,
    kv_bytes_per_sequence,
    kv_capacity_tokens,
    required_bytes,
    sequences_per_replica,
    weight_bytes,
)
from estimator.memory import breakdown
from estimator.memory_band import per_gpu_band
from estimator.models import Method, Plan, Precision
from estimator.plan import training_memory
from estimator.setup import TrainingSetup

MODELS = ["Llama-3.1-8B", "Qwen-14B", "Mixtral-8x7B", "DeepSeek-V3", "ChatGLM2-6B", "GPT-3-175B"]

setups = st.builds(
    TrainingSetup,
    method=st.sampled_from(list(Method)),
    micro_batch=st.integers(1, 4),
    optimizer=st.sampled_from(["adamw", "adamw8bit", "sgd"]),
    master_weights=st.booleans(),
    optimizer_in_backward=st.booleans(),
    paged_optimizer=st.booleans(),
    chunked_loss=st.booleans(),
    lora_dropout=st.sampled_from([0.0, 0.05]),
    fp32_loss=st.booleans(),
    base_bits=st.sampled_from([None, 4.127, 8.0]),
)
plans = st.builds(
    Plan,
    tp=st.sampled_from([1, 2, 8]),
    pp=st.sampled_from([1, 4]),
    dp=st.sampled_from([1, 4]),
    zero_stage=st.sampled_from([0, 1, 2, 3]),
    recompute=st.sampled_from(["none", "selective", "full"]),
    micro_batch=st.integers(1, 4),
    offload=st.booleans(),
)


def _total_and_band(spec, setup, plan):
    parts = breakdown(spec, spec.params_total, setup, plan)
    low, high = per_gpu_band(spec, setup, plan, parts)
    return low, sum(parts.values()), high


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    model=st.sampled_from(MODELS),
    setup=setups,
    plan=plans,
    s=st.integers(128, 16384),
    more=st.integers(1, 16384),
)
def test_training_memory_never_falls_as_the_sequence_grows(model, setup, plan, s, more):
    spec = catalog.model(model)
    short = _total_and_band(spec, setup.__class__(**{**setup.__dict__, "seq_len": s}), plan)
    long = _total_and_band(spec, setup.__class__(**{**setup.__dict__, "seq_len": s + more}), plan)
    assert all(a <= b * (1 + 1e-12) for a, b in zip(short, long, strict=True))
    assert short[0] <= short[1] <= short[2]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(model=st.sampled_from(MODELS), setup=setups, plan=plans, b=st.integers(1, 8), more=st.integers(1, 8))
def test_training_memory_never_falls_as_the_micro_batch_grows(model, setup, plan, b, more):
    spec = catalog.model(model)
    small = _total_and_band(spec, setup, plan.model_copy(update={"micro_batch": b}))
    large = _total_and_band(spec, setup, plan.model_copy(update={"micro_batch": b + more}))
    assert all(a <= c * (1 + 1e-12) for a, c in zip(small, large, strict=True))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    method=st.sampled_from([Method.full, Method.lora, Method.qlora]),
    zero=st.sampled_from([0, 2, 3]),
    recompute=st.sampled_from(["selective", "full"]),
    gpus=st.sampled_from([1, 2, 8]),
    s=st.sampled_from([256, 1024, 4096]),
)
def test_stated_settings_give_a_figure_that_grows_with_the_sequence(method, zero, recompute, gpus, s):
    """The user's ZeRO stage and recompute mode on their GPU count: one layout, so the per-GPU figure
    grows with the sequence (the plan may not trade recompute for length behind the user's back)."""
    spec = catalog.model("Qwen-14B")
    gpu = catalog.gpu("A100-SXM4-80GB")

    def per_gpu(seq):
        setup = TrainingSetup(method=method, zero_stage=zero, recompute=recompute, seq_len=seq)
        mem = training_memory(
            spec, spec.params_total, gpu, setup, requested_gpus=gpus, with_alternatives=False
        )
        assert mem.plan is not None and mem.plan.recompute == recompute and mem.plan.zero_stage == zero
        return mem.per_gpu_bytes

    assert per_gpu(s) <= per_gpu(2 * s)


runtimes = st.sampled_from([VLLM, SGLANG, TRANSFORMERS, LOCAL])


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    model=st.sampled_from(MODELS),
    gpu_id=st.sampled_from(["H100-SXM5-80GB", "A100-SXM4-80GB", "RTX-4090", "H20-96GB"]),
    runtime=runtimes,
    tp=st.sampled_from([1, 2, 4, 8]),
    context=st.integers(512, 65536),
    more=st.integers(1, 65536),
    concurrency=st.integers(1, 64),
    extra=st.integers(1, 64),
)
def test_serving_memory_grows_and_capacity_shrinks_with_context_and_load(
    model, gpu_id, runtime, tp, context, more, concurrency, extra
):
    """On a fixed layout: the KV cache a copy holds (vLLM's V0 profile grows with max_model_len) and the
    sequences that fit never grow with the context; the memory the load needs never falls as the context
    or the concurrency grows."""
    spec = catalog.model(model)
    gpu = catalog.gpu(gpu_id)
    weights = weight_bytes(spec, spec.params_total, Precision.bf16)
    layout = Layout(tp, 1, 1)

    def need(ctx, conc):
        load = Load(ctx, None, conc if runtime is TRANSFORMERS else 1, Precision.bf16)
        return required_bytes(
            spec, gpu, layout, weights, kv_bytes_per_sequence(spec, ctx) * conc, runtime, load
        )

    def capacity(ctx):
        return kv_capacity_tokens(spec, gpu, weights, tp, 1, runtime, Load(ctx))

    def sequences(ctx):
        return sequences_per_replica(
            weights, kv_bytes_per_sequence(spec, ctx), spec, gpu, tp, 1, runtime, Load(ctx)
        )

    assert need(context, concurrency) <= need(context + more, concurrency)
    assert need(context, concurrency) <= need(context, concurrency + extra)
    assert capacity(context + more) <= capacity(context)
    assert sequences(context + more) <= sequences(context)


def test_a_recompute_switch_is_said_with_the_figure_without_it():
    """Issue 14: Qwen-14B LoRA on one A100 80G keeps its activations at 2,048 tokens but needs full
    recompute at 4,096, so the per-GPU figure drops; the reply says the plan switched and gives the
    figure without recompute on the same GPU (above 90 % of the card: no headroom, plan.HEADROOM)."""
    from bot.core.pipeline import answer
    from bot.render.renderer import render

    short = answer("LoRA fine-tune Qwen-14B on one A100 80G, sequence length 2048")
    long = answer("LoRA fine-tune Qwen-14B on one A100 80G, sequence length 4096")
    assert short.report.memory.plan.recompute == "selective"
    assert "recompute_chosen" not in {n.code for n in short.report.warnings}
    assert long.report.memory.plan.recompute == "full"
    assert long.report.memory.per_gpu_bytes < short.report.memory.per_gpu_bytes
    [note] = [n for n in long.report.warnings if n.code == "recompute_chosen"]
    assert note.params["per_gpu_gib"] * 2**30 == long.report.memory.per_gpu_bytes
    assert note.params["without_gib"] * 2**30 > short.report.memory.per_gpu_bytes > 0
    assert note.params["without_gib"] > 0.9 * 80
    text = render(long, "text")
    # s36 left #1: on a memory answer whose headline names the cost ('≈ 1/2 more compute to save memory')
    # the switch and the figure without it are said once, in the plan's reason line (the warning repeated
    # them above the fold: a ZeRO-3 breakdown's extra parts then pushed the first screen past 20 lines)
    without = f"{note.params['without_gib']:.1f} GiB"
    assert "more compute to save memory" in text.splitlines()[0]
    why = "full recompute, chosen so that the band's high end fits: keeping the activations would need"
    assert f"{why} ≈ {without}" in text
    zh = render(answer("Qwen-14B LoRA微调，序列长度4096，1张A100 80G"), "text")
    assert f"开全量重计算，是为了让显存区间的上限也放得下：不开时保留激活需要约 {without}" in zh
    stated = answer(
        "LoRA fine-tune Qwen-14B on one A100 80G, sequence length 4096, with gradient checkpointing"
    )
    assert stated.report.request.recompute == "full"
    assert "recompute_chosen" not in {n.code for n in stated.report.warnings}  # the user's own choice
