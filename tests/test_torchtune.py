"""torchtune's published single-device peaks for Llama 3.1 8B against our memory band.

Source of the figures: pytorch/torchtune README.md, "Memory and training speed" (stored versions at
commits 0031bfb080bd35ec533c412df883cf2bf7bf7fe4, Sept. 2024, and
a9ea6d5bf023ebebca7a8ec7981099b03696c67a, 2025 — the same figures): "all the below numbers are
provided for batch size 2 (without gradient accumulation), a dataset packed to sequence length
2048, and torch compile enabled"; Llama 3.1 8B on 1× RTX 4090: full fine-tune 18.9 GiB, LoRA
16.2 GiB, QLoRA 7.4 GiB ("Peak Memory per GPU"). torchtune logs peak memory in GiB (1024³ bytes)
from ``torch.cuda.max_memory_allocated`` / ``max_memory_reserved`` / ``active_bytes.all.peak``,
reset at every log (torchtune/training/memory.py ``get_memory_stats``, commit
033177875786d2530912185c5c7ceccaadd1d615); paged bitsandbytes states live in CUDA unified memory
outside PyTorch's allocator, so they are not in it.

The other settings are the recipes' configs (the table names no others):
- recipes/configs/llama3_1/8B_full_single_device.yaml (commit 02d7035509a2cdfa8fc608c542b3d802b57a73ac):
  ``dtype: bf16`` (no fp32 master copy), ``optimizer: bitsandbytes.optim.PagedAdamW8bit``,
  ``optimizer_in_bwd: True``, ``enable_activation_checkpointing: True``,
  ``enable_activation_offloading: False``.
- recipes/configs/llama3_1/8B_lora_single_device.yaml (commit 2943c61e7e4b73b1823e1518a32a24390446099f):
  bf16, ``torch.optim.AdamW`` (states in the parameters' bf16), LoRA rank 8 on q, v, output_proj and
  the MLP, activation checkpointing on.
- recipes/configs/llama3_1/8B_qlora_single_device.yaml (commit 0b3e04adcc9acc7ba7e78cdf9bac541714dfe1dd):
  the same on an NF4 base, LoRA also on k_proj; activation checkpointing on.
- Loss: ``CEWithChunkedOutputLoss`` (8 chunks), torchtune's loss since PR #1390 (2024-08-22), before
  the table; today's configs use ``LinearCrossEntropyLoss`` but the README figures are unchanged.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from estimator import catalog, estimate
from estimator.memory import breakdown
from estimator.memory_band import LOSS_HIGH_FACTOR, layer_activation_coefficients, per_gpu_band
from estimator.model_states import largest_param, state_parts
from estimator.models import Method, Plan, SizingRequest, Stage
from estimator.plan import training_memory
from estimator.setup import TrainingSetup
from estimator.transients import layer_workspace, loss_bytes

GIB = 2**30
SPEC = catalog.model("Llama-3.1-8B")
RTX_4090 = catalog.gpu("RTX-4090")
TORCHTUNE = {"seq_len": 2048, "micro_batch": 2, "master_weights": False, "chunked_loss": True}
FULL = TrainingSetup(
    method=Method.full, optimizer="adamw8bit", paged_optimizer=True, optimizer_in_backward=True, **TORCHTUNE
)
LORA = TrainingSetup(method=Method.lora, lora_rank=8, **TORCHTUNE)
QLORA = TrainingSetup(method=Method.qlora, lora_rank=8, **TORCHTUNE)
MAX_BAND_RATIO = 1.5
"""The band must stay informative: high / low at most 1.5."""


def _band_on_one_4090(setup: TrainingSetup) -> tuple[float, float, float]:
    """(low, likely, high) in GiB on one RTX 4090, checking the layout is torchtune's: one GPU, full
    activation checkpointing, micro-batch 2."""
    mem = training_memory(SPEC, SPEC.params_total, RTX_4090, setup, requested_gpus=1, with_alternatives=False)
    assert mem.fits_requested is True
    assert mem.plan == Plan(tp=1, pp=1, dp=1, zero_stage=0, recompute="full", micro_batch=2)
    return mem.per_gpu_bytes_low / GIB, mem.per_gpu_bytes / GIB, mem.per_gpu_bytes_high / GIB


def test_torchtune_llama31_8b_full_finetune_on_one_4090_within_band():
    """torchtune README (commit 0031bfb0…): Llama 3.1 8B full fine-tune, 1× 4090, 18.9 GiB peak, with
    8B_full_single_device.yaml's pure bf16, PagedAdamW8bit, optimizer_in_bwd and activation
    checkpointing, batch 2 × packed 2,048, chunked CE. Ours: bf16 weights 14.96 GiB + the output
    head's gradient 0.98 + layer inputs 1.00 + logits; 8-bit states paged (only their absmax, 0.23,
    on the GPU)."""
    low, likely, high = _band_on_one_4090(FULL)
    assert low <= 18.9 <= high
    assert high / low <= MAX_BAND_RATIO
    assert likely <= 24  # "runnable on 1x 4090"


def test_torchtune_llama31_8b_qlora_on_one_4090_within_band():
    """torchtune README (commit 0031bfb0…): Llama 3.1 8B QLoRA, 1× 4090, 7.4 GiB peak, with
    8B_qlora_single_device.yaml (NF4 base, rank 8, AdamW, activation checkpointing), batch 2 ×
    packed 2,048, chunked CE. Printed to one decimal, so 7.35–7.45 GiB. At our floor: low ≈ 7.44 GiB
    = NF4 base 5.31 + adapters 0.16 + layer inputs 1.00 + bf16 logits 0.98."""
    low, _, high = _band_on_one_4090(QLORA)
    assert low <= 7.4 + 0.05
    assert high >= 7.4 - 0.05
    assert high / low <= MAX_BAND_RATIO


@pytest.mark.xfail(
    strict=True,
    reason="torchtune's LoRA 16.2 GiB is 0.9 GiB below our floor of 17.09 GiB (bf16 base 14.96 + adapters "
    "0.16 + layer inputs 1.00 + bf16 logits 0.98); its QLoRA row, same settings, leaves 2.1 GiB above the "
    "base where LoRA leaves 1.2, so the LoRA row looks measured under other settings (e.g. 2,048 tokens "
    "per step). Not tuned away.",
)
def test_torchtune_llama31_8b_lora_on_one_4090_within_band():
    """torchtune README (commit 0031bfb0…): Llama 3.1 8B LoRA, 1× 4090, 16.2 GiB peak, with
    8B_lora_single_device.yaml (bf16, rank 8, AdamW, activation checkpointing), batch 2 × packed
    2,048, chunked CE. Known gap, see the xfail reason: the test fails (xpass) if it ever fits."""
    low, _, high = _band_on_one_4090(LORA)
    assert low <= 16.2 <= high
    assert high / low <= MAX_BAND_RATIO


def test_lora_gap_is_the_documented_one():
    """The LoRA miss stays what the xfail above states: our floor 17.09 GiB, 0.9 GiB above 16.2."""
    low, _, _ = _band_on_one_4090(LORA)
    assert low == pytest.approx(17.09, abs=0.01)


def test_layer_activation_count_reproduces_korthikanti_and_spans_llama():
    """Counting as Korthikanti et al. 2022 §4.1 for GPT-3 175B (MHA, 4h GeLU MLP, dropout) gives their
    Table 2's 34·s·b·h per layer; for Llama 3.1 8B (SwiGLU 14,336 = 3.5h, 8 of 32 KV heads) eager 41,
    compiled SwiGLU 27 — the band's activation range around the 34 we use."""
    assert layer_activation_coefficients(catalog.model("GPT-3-175B"), dropout=True)[1] == 34
    assert layer_activation_coefficients(SPEC) == (27, 41)


def test_pure_bf16_optimizer_states_follow_the_parameter_dtype():
    """torch.optim.AdamW makes m and v with zeros_like(param): bf16 weights → 2 + 2 bytes of states;
    8-bit AdamW 1 + 1 + two fp32 absmax per 256 values (bitsandbytes Optimizer2State.init_state), of
    which only the absmax stays on the GPU when paged. Weights and gradients stay 2 + 2; no fp32
    master copy (4 B) and no fp32 states."""
    plan = Plan(recompute="full")
    n = SPEC.params_total
    pure = state_parts(SPEC, n, TrainingSetup(master_weights=False), plan)
    assert (pure["weights"], pure["gradients"], pure["optimizer"]) == (2 * n, 2 * n, 4 * n)
    # s25 acts2: no grads at the forward-end peak on one GPU (torchtune zero_grad(set_to_none=True)): the
    # breakdown holds what the peak does. Under full recompute the loss's phase (kept + loss, no gradient)
    # is below one layer's rebuild with every gradient (kept + workspace + 2n): 2n − (loss − workspace)
    setup = TrainingSetup(master_weights=False)
    at_peak = breakdown(SPEC, n, setup, plan)
    work = layer_workspace(SPEC, n, setup, plan).likely
    assert at_peak["gradients"] == pytest.approx(2 * n - (at_peak["logits"] - work))
    eight_bit = breakdown(SPEC, n, TrainingSetup(master_weights=False, optimizer="adamw8bit"), plan)
    assert eight_bit["optimizer"] == (2 + 8 / 256) * n
    paged = breakdown(SPEC, n, TrainingSetup(master_weights=False, paged_optimizer=True), plan)
    assert paged["optimizer"] == 0
    paged_8bit = TrainingSetup(master_weights=False, optimizer="adamw8bit", paged_optimizer=True)
    assert breakdown(SPEC, n, paged_8bit, plan)["optimizer"] == 8 / 256 * n


def test_optimizer_in_backward_keeps_one_parameters_gradient():
    """torchtune register_optim_in_bwd_hooks: step + zero_grad per parameter as its gradient is ready;
    the largest is Llama 3.1 8B's output head, 128,256 × 4,096, in bf16."""
    assert largest_param(SPEC) == 128_256 * 4096
    setup = TrainingSetup(optimizer_in_backward=True)
    parts = breakdown(SPEC, SPEC.params_total, setup, Plan(recompute="full"))
    assert parts["gradients"] == 2 * 128_256 * 4096


def test_chunked_loss_keeps_bf16_logits_and_one_fp32_chunk():
    """CEWithChunkedOutputLoss(num_output_chunks=8): 2 + 4/8 bytes per logit instead of the 12 of an
    fp32 cross-entropy's backward (saved log-softmax, incoming and outgoing gradient, 4 bytes each)."""
    plan = Plan(micro_batch=2)
    chunked = loss_bytes(SPEC, TrainingSetup(seq_len=2048, chunked_loss=True), plan)
    assert chunked.likely == 2.5 * 2 * 2048 * 128_256
    assert loss_bytes(SPEC, TrainingSetup(seq_len=2048), plan).likely == 12 * 2 * 2048 * 128_256


def test_defaults_are_the_mixed_precision_setup():
    """The new options default to today's behaviour: fp32 master copy, gradients all resident,
    optimizer states on the GPU, an fp32 loss over the whole logits (16 B/param of states, ZeRO §3)."""
    setup = TrainingSetup()
    assert (setup.master_weights, setup.optimizer_in_backward, setup.paged_optimizer, setup.chunked_loss) == (
        True,
        False,
        False,
        False,
    )
    parts = state_parts(SPEC, SPEC.params_total, setup, Plan(recompute="full"))  # the states, not the peak's
    states = parts["weights"] + parts["gradients"] + parts["optimizer"]
    assert states == 16 * SPEC.params_total


@pytest.mark.parametrize(
    "request_",
    [
        SizingRequest(stage=Stage.finetune, method=Method.full, params_total=7e9, gpu="A100-SXM4-80GB"),
        SizingRequest(
            stage=Stage.finetune, method=Method.qlora, model="Llama-3.1-8B", gpu="RTX-4090", gpu_count=1
        ),
        SizingRequest(stage=Stage.pretrain, params_total=70e9, tokens=1e12, gpu="H100-SXM5-80GB"),
        SizingRequest(stage=Stage.finetune, method=Method.lora, model="Llama-3-70B", gpu="RTX-4090"),
    ],
)
def test_band_brackets_the_likely_figure(request_):
    """low ≤ per_gpu_bytes ≤ high on every estimate; low has no runtime overhead at all."""
    mem = estimate(request_).memory
    assert mem.per_gpu_bytes_low <= mem.per_gpu_bytes <= mem.per_gpu_bytes_high
    assert mem.per_gpu_bytes_low <= mem.per_gpu_bytes - mem.breakdown["overhead"]


def test_band_low_end_without_recompute_uses_the_smaller_activation_count():
    """Selective recompute, full fine-tuning on one GPU: likely 34·s·b·h per layer; low min(34, 27) = 27
    for Llama 3.1 8B, with the loss's 10 bytes per logit (bf16 logits, fp32 copy, log-softmax) and no
    foreach temporaries (fused AdamW); high max(34, 41) = 41, 16 bytes per logit, plus torch AdamW's
    foreach copy of the second moments (4 bytes per parameter), CUDA context and 15 % fragmentation."""
    setup = TrainingSetup(seq_len=2048, micro_batch=1)
    # s25 acts2: two GPUs (DDP's buckets hold the gradients through the step, estimator.late_gradients);
    # on one GPU at ZeRO-0 the low end is the backward's end, 16 B/param: 14 + kept + loss is below it
    one = Plan(recompute="selective")
    assert (
        per_gpu_band(SPEC, setup, one, breakdown(SPEC, SPEC.params_total, setup, one))[0]
        == 16 * SPEC.params_total
    )
    plan = Plan(recompute="selective", dp=2)
    parts = breakdown(SPEC, SPEC.params_total, setup, plan)
    low, high = per_gpu_band(SPEC, setup, plan, parts)
    sbh_layers = 2048 * 4096 * 32
    logits = 2048 * 128_256
    states = parts["weights"] + parts["gradients"] + parts["optimizer"]
    assert states == 16 * SPEC.params_total
    assert low == pytest.approx(states + 27 * sbh_layers + 10 * logits)
    # issue 25: the fp32 loss's high end × LOSS_HIGH_FACTOR (fitted on measured memory)
    expected_high = (
        states + 41 * sbh_layers + 16 * LOSS_HIGH_FACTOR * logits + 4 * SPEC.params_total
    ) * 1.15 + GIB
    assert high == pytest.approx(expected_high)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    model=st.sampled_from(["Llama-3.1-8B", "GPT-3-175B", "Mixtral-8x7B", "DeepSeek-V3", "Qwen2.5-7B"]),
    method=st.sampled_from(list(Method)),
    recompute=st.sampled_from(["none", "selective", "full"]),
    tp=st.sampled_from([1, 2, 8]),
    pp=st.sampled_from([1, 4]),
    dp=st.sampled_from([1, 2, 16]),
    zero=st.sampled_from([0, 1, 2, 3]),
    offload=st.booleans(),
    micro_batch=st.integers(1, 8),
    seq_len=st.sampled_from([512, 2048, 8192]),
    options=st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans()),
    optimizer=st.sampled_from(["adamw", "adamw8bit", "sgd"]),
)
def test_band_always_brackets_the_likely_figure(
    model, method, recompute, tp, pp, dp, zero, offload, micro_batch, seq_len, options, optimizer
):
    """For any setup and layout: 0 < low ≤ likely ≤ high."""
    spec = catalog.model(model)
    master, in_backward, paged, chunked = options
    setup = TrainingSetup(
        method=method,
        seq_len=seq_len,
        micro_batch=micro_batch,
        optimizer=optimizer,
        master_weights=master,
        optimizer_in_backward=in_backward,
        paged_optimizer=paged,
        chunked_loss=chunked,
    )
    plan = Plan(
        tp=tp, pp=pp, dp=dp, zero_stage=zero, recompute=recompute, micro_batch=micro_batch, offload=offload
    )
    parts = breakdown(spec, spec.params_total, setup, plan)
    low, high = per_gpu_band(spec, setup, plan, parts)
    assert 0 < low <= sum(parts.values()) <= high
