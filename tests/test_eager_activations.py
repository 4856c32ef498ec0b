"""HF eager activations without gradient checkpointing, from source (estimator/eager_activations.py, s25).

The figures were counted on CPU (torch 2.13, transformers 5.25, PEFT 0.21) with
``torch.autograd.graph.saved_tensors_hooks`` on a Qwen2 model of h = 256, 8 heads, 2 KV heads, head_dim 32,
I = 704: the distinct storages a layer saves for backward, per token (3 layers less 2, at 256 less 128
tokens): bf16 11,048 B; fp32 weights under bf16 autocast 13,608 B; LoRA all-linear with bf16 adapters
10,136 B — each the docstring's formula plus 8 B of RMSNorm's two rsqrt values (fp32, one a token), and
LoRA's lora_A outputs (7 × 2r = 112 B at r = 8), which the estimator leaves out.
"""

from __future__ import annotations

from estimator import catalog
from estimator.catalog import ModelSpec
from estimator.eager_activations import eager_layer_bytes, eager_layers, fp32_residual
from estimator.layout_table import DenseTable
from estimator.memory import SearchMemo, breakdown
from estimator.models import Method
from estimator.setup import Layout, TrainingSetup
from estimator.training_tools import tool_limits
from estimator.transients import kept_activations

TINY = ModelSpec(
    id="tiny-qwen2",
    name="tiny",
    family="qwen2",
    params_total=3e6,
    layers=3,
    hidden=256,
    heads=8,
    kv_heads=2,
    head_dim=32,
    ffn_hidden=704,
    vocab=512,
    source="a 3-layer Qwen2 shape counted on CPU (this file's docstring)",
)
RSQRT = 8.0  # two fp32 rsqrt values a token (b, s, 1), not counted by the estimator
LORA_A_OUTPUTS = 7 * 2 * 8  # seven lora_A outputs of r = 8 in bf16, not counted


def test_bf16_full_training_matches_the_counted_saved_tensors() -> None:
    likely, high = eager_layer_bytes(TINY, TrainingSetup(master_weights=False), 0, False)
    assert likely + RSQRT == 11_048
    assert high - likely == 4 * (8 * 32 - 2 * 32)  # repeat_kv with a padding mask


def test_fp32_weights_under_autocast_keep_the_fp32_residual_and_five_casts() -> None:
    setup = TrainingSetup()  # full, master weights; ZeRO-0 = the Trainer without DeepSpeed
    assert fp32_residual(setup, 0) and not fp32_residual(setup, 1)
    likely, _ = eager_layer_bytes(TINY, setup, 0, False)
    assert likely + RSQRT == 13_608
    assert eager_layer_bytes(TINY, setup, 3, False)[0] + RSQRT == 11_048  # DeepSpeed casts to bf16


def test_lora_with_bf16_adapters_saves_the_shared_inputs_once() -> None:
    likely, _ = eager_layer_bytes(TINY, TrainingSetup(method=Method.lora), 3, False)
    assert likely + RSQRT + LORA_A_OUTPUTS == 10_136


def test_qwen25_3b_coefficients_in_units_of_h() -> None:
    """Qwen2.5-3B (h 2048, 16 heads, 2 KV heads, I 11008): bf16 16h + 4q + 4kv + 8I + 4·heads = 130,112 B =
    63.53·h; under autocast 26h + … = 150,592 B = 73.53·h — against Korthikanti's 34·h for a GPT layer."""
    spec = catalog.model("Qwen2.5-3B")
    assert eager_layer_bytes(spec, TrainingSetup(master_weights=False), 0, False)[0] == 130_112
    assert eager_layer_bytes(spec, TrainingSetup(), 0, False)[0] == 150_592


HF, MEGATRON = TrainingSetup(), TrainingSetup(megatron_layers=True)


def test_only_data_parallel_layouts_without_any_recompute_keep_the_eager_count() -> None:
    assert eager_layers(HF, Layout(1, 1, 8, 3, "none", 1, False))
    assert eager_layers(HF, Layout(1, 1, 1, 0, "none", 1, False))
    assert not eager_layers(HF, Layout(1, 1, 8, 3, "selective", 1, False))  # Megatron's selective recompute
    assert not eager_layers(HF, Layout(1, 1, 8, 3, "full", 1, False))
    assert not eager_layers(HF, Layout(2, 1, 4, 1, "none", 1, False))  # Megatron-LM TP: 34·h
    assert not eager_layers(HF, Layout(1, 2, 4, 1, "none", 1, False))
    assert not eager_layers(HF, Layout(1, 1, 8, 1, "none", 1, False, 2))


def test_megatron_layers_keep_korthikanti_s_count_at_every_layout() -> None:
    """Megatron-LM and NeMo run their own fused layers at TP = PP = 1 too (review s25 #1)."""
    assert not eager_layers(MEGATRON, Layout(1, 1, 64, 1, "none", 1, False))
    assert not eager_layers(MEGATRON, Layout(1, 1, 1, 0, "none", 1, False))


def test_megatron_lm_and_nemo_run_megatron_layers_the_hf_stacks_do_not() -> None:
    megatron = {"Megatron-LM": True, "NeMo": True, "HF Trainer": False, "TRL": False, "LLaMA-Factory": False}
    megatron |= {"axolotl": False, "Unsloth": False, "ms-swift": False, "verl": False, None: False}
    for tool, expected in megatron.items():
        limits = tool_limits(tool)
        assert bool(limits and limits.megatron_layers) is expected, tool


# Llama-2-7B (h 4096, 32 heads = 32 KV heads of 128, I 11008, 32 layers), s = 4096, b = 1, bf16 states
# (ZeRO ≥ 1: no fp32 residual): HF eager 16h + 4q + 4kv + 8I + 4·heads = 186,496 B per token per layer;
# Korthikanti's 34·h = 139,264 B per token per layer at TP 1, 34·h/2 at TP 2.
HF_7B = 186_496 * 4096 * 32  # 24,444,403,712 B = 22.77 GiB
KORTHIKANTI_7B = 34 * 4096 * 4096 * 32  # 18,253,611,008 B = 17.0 GiB


def test_kept_activations_at_tp_1_and_2_for_hf_and_megatron() -> None:
    spec = catalog.model("Llama-2-7B")
    tp1, tp2 = Layout(1, 1, 64, 1, "none", 1, False), Layout(2, 1, 32, 1, "none", 1, False)
    hf, megatron = (TrainingSetup(seq_len=4096, megatron_layers=m) for m in (False, True))
    assert kept_activations(spec, hf, tp1).likely == HF_7B
    assert kept_activations(spec, megatron, tp1).likely == KORTHIKANTI_7B
    assert kept_activations(spec, hf, tp2).likely == kept_activations(spec, megatron, tp2).likely
    assert kept_activations(spec, megatron, tp2).likely == KORTHIKANTI_7B / 2
    memo = SearchMemo()  # the search's cache answers the same
    assert memo.kept(spec, megatron, tp1).likely == KORTHIKANTI_7B


def test_the_search_table_at_tp_1_and_2_for_hf_and_megatron() -> None:
    spec = catalog.model("Llama-2-7B")
    tp1, tp2 = Layout(1, 1, 64, 1, "none", 1, False), Layout(2, 1, 32, 1, "none", 1, False)
    for megatron, at_tp1 in [(False, HF_7B), (True, KORTHIKANTI_7B)]:
        setup = TrainingSetup(seq_len=4096, megatron_layers=megatron)
        table = DenseTable(spec, spec.params_total, setup)
        for plan, acts in [(tp1, at_tp1), (tp2, KORTHIKANTI_7B / 2)]:
            total = table.total(plan)
            assert table.parts(plan)["activations"] == acts, (megatron, plan)
            assert total == sum(breakdown(spec, spec.params_total, setup, plan).values())


def test_megatron_lm_without_recompute_is_sized_with_korthikanti_s_count() -> None:
    """Review s25 #1: 'Pretrain a 7B model on 1T tokens on 64 A100 80GB with Megatron-LM, no activation
    recompute' kept 23.7 GiB of HF eager activations; Megatron-LM's count is 17.0 GiB (Llama-2-7B, s 4096)."""
    from estimator import estimate
    from estimator.request import SizingRequest

    kept = {}
    for tool in ("Megatron-LM", "HF Trainer"):
        r = SizingRequest(stage="pretrain", model="Llama-2-7B", tokens=1e12, gpu="A100-SXM4-80GB",
                          gpu_count=64, recompute="none", training_tool=tool)  # fmt: skip
        memory = estimate(r).memory
        assert memory.plan.tp == memory.plan.pp == 1, tool
        kept[tool] = memory.breakdown["activations"]
    assert kept == {"Megatron-LM": KORTHIKANTI_7B, "HF Trainer": HF_7B}
