"""Round 21 English (tests/data/real_questions/en_r21.json): the ways of writing its working records showed,
each read by a reader for its kind — checked on sentences of their own, not the records' (README.md there)."""

from __future__ import annotations

from bot.core.pipeline import answer
from bot.parse import parse
from tests.real_questions import cards_match


def _ignored(text: str) -> list[tuple[str, str]]:
    return [(i.text, i.reason) for i in answer(text).interpretation.ignored]


def test_cpt_inside_a_hyphenated_model_name_is_no_continued_pretraining() -> None:
    r = parse("LoRA SFT of acme/mistral-7b-cpt-legal-v2 on one A100 80GB, how much memory?").request
    assert r.stage == "finetune"
    # the stage word itself still reads
    assert parse("CPT of Llama-3-8B on 20B tokens with 8 H100").request.stage == "continued_pretrain"
    assert parse("continued pretraining (cpt) of Qwen2.5-7B on 8 A100").request.stage == "continued_pretrain"


def test_a_variant_measured_against_sft_is_sized_as_its_family_and_sft_named() -> None:
    text = "ORPO with LoRA on Qwen2.5-7B on one 4090: does it need more memory than SFT?"
    assert parse(text).request.algorithm == "dpo"
    assert ("algorithm: SFT", "other_setup") in _ignored(text)
    assert ("algorithm: ORPO", "algorithm_family") in _ignored(text)
    # SFT as a run of its own (a pipeline 'SFT then KTO', or SFT alone) is not a yardstick
    assert parse("SFT of Qwen2.5-7B on one 4090 with LoRA, then KTO").request.algorithm == "sft"
    assert parse("SFT of Qwen2.5-7B on one 4090, same memory as before?").request.algorithm == "sft"


def test_an_arc_card_with_two_digits_is_named_as_typed_never_an_a100() -> None:
    assert parse("Serving Llama-3.1-8B on an Intel Arc B60 with vLLM").unknown_gpu == "Intel Arc B60"
    assert parse("Qwen3-14B on an Arc Pro B50, does it fit?").unknown_gpu == "Arc Pro B50"
    assert parse("Qwen3-14B on an Arc A770 16GB").unknown_gpu == "Arc A770"
    assert parse("an arc b600x? Qwen3-14B on 2 A100").unknown_gpu is None  # no such card: a word


def test_a_generation_tp_in_a_training_script_is_the_rollout_tp() -> None:
    r = parse("GRPO of Qwen2.5-7B with verl on 8 H100: gen_tp=4, sp_size=2").request
    assert (r.rollout_tp, r.tp) == (4, None)
    assert parse("pretraining a 7B on 16 A100 with tp=4").request.tp == 4  # a training TP stays TP


def test_a_lower_case_package_run_with_python_dash_m_is_named() -> None:
    # s29 (round 23 en): TinyChat is now a named engine (bot.parse.more_engines: MIT Han Lab's TinyChat,
    # the llm-awq package 'tinychat'), so the package run is named by the engine's own spelling
    assert ("runtime: TinyChat", "runtime_not_modelled") in _ignored(
        "python -m tinychat.serve --model Llama-3-8B on an RTX 4090 gives 20 tok/s, is that slow?"
    )
    for text in (
        "python -m scripts.train --model Qwen2.5-7B on 2 A100",
        "python -m torch.distributed.run --nproc_per_node 8 train.py for Llama-2-7B",
    ):
        assert not [u for u in _ignored(text) if u[0].startswith(("training_tool", "runtime"))], text


def test_triton_by_its_backend_and_llm_scaler_are_named_engines() -> None:
    text = "Serving Llama-3-8B on 2 L40S with the Triton vLLM backend: what batch fits?"
    assert ("runtime: Triton Inference Server", "runtime_not_modelled") in _ignored(text)
    text = "Qwen3-8B on an Arc B60 with llm-scaler runs out of memory at 32k context"
    assert ("runtime: llm-scaler", "runtime_not_modelled") in _ignored(text)
    # Triton the kernel language is no server
    text = "fine-tuning Llama-3-8B with triton kernels on one A100"
    assert not [u for u in _ignored(text) if "Triton" in u[0]]


def test_scorer_a_bare_apple_chip_label_is_apples_chip() -> None:
    assert cards_match("M2", "Apple-M2-16GB") and cards_match("M1", "Apple-M1-8GB")
    assert not cards_match("M2", "Apple-M1-16GB")
    assert cards_match("M2", "M2")  # named as typed still matches as typed


def test_a_makers_agent_noun_tool_is_named_and_no_model() -> None:
    text = "Fine-tuning e5-small-v2 with Acme's embedtuner on one T4: batch 256 runs out of memory"
    assert ("training_tool: embedtuner", "no_field") in _ignored(text)
    assert parse(text).unknown_model != "Acme"
    assert parse("Fine-tuning with Zeta's finetuner on an A10 at batch 64, OOM").unknown_model is None
    for text in (  # a maker's common noun is no tool
        "Fine-tuning Llama-3-8B with Meta's paper settings on one A100",
        "Training a 7B with Acme's trainer on 8 H100",
    ):
        assert not [u for u in _ignored(text) if u[0].startswith("training_tool")], text
    # a model's own fine-tuning is still its job ("FooNet's fine-tuning")
    assert parse("What does FooNet's fine-tuning need on 4 A100?").unknown_model == "FooNet"


def test_a_cloud_tpu_slice_is_its_chips_at_their_count() -> None:
    """v2/v3/v4/v5p accelerator types count TensorCores (two a chip), v5e and v6e count chips."""
    for text, gpu, count in (
        ("Pre-training a 1B on a TPU v4-32 slice, how long for 20B tokens?", "TPUv4", 16),
        ("Serving Llama-3.1-8B on a v5e-16 TPU pod", "TPUv5e", 16),
        ("LoRA of Gemma 2 9B on a v5litepod-4", "TPUv5e", 4),
        ("Pre-training a 7B on a TPU v5p-256", "TPUv5p", 128),
    ):
        r = parse(text).request
        assert (r.gpu, r.gpu_count) == (gpu, count), text
    assert parse("Fine-tuning Gemma 7B on a TPU v4").request.gpu_count in (None, 1)  # no slice: one chip
    assert parse("Llama-2-7B with v4-8 settings on 2 A100").request.gpu == "A100-SXM4-80GB"  # no TPU word


def test_scorer_a_tpu_slice_label_is_its_chip_family() -> None:
    assert cards_match("TPU v5e-64", "TPUv5e") and cards_match("TPU v5litepod-8", "TPUv5e")
    assert not cards_match("TPU v4-8", "TPUv5e")
