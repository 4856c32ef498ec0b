"""Round 20 English (tests/data/real_questions/en_r20.json): the ways of writing its working records showed,
each read by a reader for its kind — checked on sentences of their own, not the records' (README.md there)."""

from __future__ import annotations

from bot.core.pipeline import answer
from bot.parse import parse


def _unused(text: str) -> list[tuple[str, str]]:
    return list(parse(text).unused_numbers)


def test_a_package_run_with_dash_m_in_a_pasted_command_is_named_as_typed() -> None:
    """'torchrun … -m Pkg.module': Python's -m runs a module of that package, the tool (was '-m: True')."""
    text = (
        "Fine-tuning Qwen2.5-7B on 2 A100 OOMs: torchrun --nproc_per_node 2 -m ReRankKit.finetune.run "
        "--per_device_train_batch_size 2 --gradient_accumulation_steps 8 --bf16"
    )
    ignored = [(i.text, i.reason) for i in answer(text).interpretation.ignored]
    assert ("training_tool: ReRankKit", "no_field") in ignored


def test_a_hyphenated_name_with_its_version_or_owning_scripts_is_a_tool() -> None:
    assert ("training_tool: fast-tuner", "no_field") in _unused(
        "Fine-tuning Llama-3.1-8B on 8 H100 with fast-tuner v0.3.1 runs out of memory"
    )
    assert ("training_tool: tiny-lab", "no_field") in _unused(
        "We fine-tune Qwen2.5-7B on one A100 with tiny-lab's scripts/train.py and it OOMs"
    )


def test_no_tool_from_a_directory_module_a_setting_or_a_known_engine() -> None:
    for text in (
        "python -m src.train --model Qwen2.5-7B on 2 A100",
        "fine-tuning Qwen2.5-7B with full-parameter 1.5 epochs on 2 A100",
        "serving Qwen3-8B with vllm-ascend 0.17.0 on 2 910B",
    ):
        assert not [u for u in _unused(text) if u[0].startswith(("training_tool", "runtime"))], text


def test_huawei_generation_is_named_as_typed_never_an_a100() -> None:
    assert parse("Serving Qwen3-8B on an Ascend A3 box with vllm-ascend").unknown_gpu == "Ascend A3"
    assert parse("Qwen3-8B on an A3 with MindIE runs out of memory").unknown_gpu == "A3"
    assert parse("serve qwen3-8b on an A2 instance on GCP").unknown_gpu is None  # no Ascend cue: not Huawei's


def test_a_count_glued_to_a_card_is_read() -> None:
    r = parse("GRPO on Qwen2.5-1.5B on H100x4 takes 300 s per step").request
    assert (r.gpu, r.gpu_count) == ("H100-SXM5-80GB", 4)
    p = parse("serve Qwen3-8B on 2xMI50")
    assert (p.request.gpu, p.request.gpu_count) == ("MI50-32GB", 2)  # s48 cat: was the MI50 named as typed
    assert parse("serve Mixtral-8x7B on 2 H100").request.model == "Mixtral-8x7B"  # a name, no count


def test_accumulation_beside_a_global_batch_and_its_caikit_spelling() -> None:
    r = parse("fine-tuning Llama 8B on 4 A100, total batch size 64, gradient accumulation steps 4").request
    assert (r.global_batch, r.gradient_accumulation) == (64, 4)
    assert parse("fine-tuning Llama 8B on 1 A100 --accumulate_steps 8").request.gradient_accumulation == 8


def test_awq_with_its_bits_is_that_width() -> None:
    assert parse("serve Qwen2.5-32B-Instruct-AWQ-8bit on 2 A100").request.precision == "int8"
    assert parse("serve Qwen2.5-32B AWQ int8 on 2 A100").request.precision == "int8"
    assert parse("serve Qwen2.5-32B-Instruct-AWQ on 2 A100").request.precision == "int4"


def test_zero_infinity_is_the_zero3_nvme_offload() -> None:
    r = parse("pre-training a 10B model with ZeRO-Infinity on 2 A100 40GB").request
    assert (r.zero_stage, r.offload) == (3, True)


def test_tflops_effective_per_gpu_is_the_measured_throughput() -> None:
    r = parse("pre-training a 7B on 8 H100, we measure about 350 TFLOPS effective per GPU").request
    assert r.achieved_tflops_per_gpu == 350


def test_a_family_and_size_without_version_is_said_as_the_release_sized() -> None:
    p = parse("fine-tune llama 1b on 1 A100")
    assert (p.request.model, p.model_substitution) == ("Llama-3.2-1B", "no_version")
