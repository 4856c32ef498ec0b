"""Round 25 English (tests/data/real_questions/en_r25.json): the ways of writing its working records showed,
each read by a reader for its kind — checked on sentences of their own, not the records' (README.md there)."""

from __future__ import annotations

from bot.core.pipeline import answer


def _ignored(text: str) -> list[tuple[str, str]]:
    return [(i.text, i.reason) for i in answer(text).interpretation.ignored]


def test_an_unknown_joined_name_after_an_english_run_verb_is_named_as_typed() -> None:
    for text, name in (
        ("Running Zorb-M3.1 FP8 evaluations with vLLM on 4 H100: will it fit?", "Zorb-M3.1"),
        ("We ran Quill-LM-2 on two A100 80GB and it was slow. Why?", "Quill-LM-2"),
        ("I run the Pico-X1 in bf16 on an L40S: how many users can it serve?", "Pico-X1"),
    ):
        assert answer(text).interpretation.unknown_model == name, text
    # software, settings and cards after the verb are no model
    for text in (
        "Running multi-node training of Llama-3-8B on 4 nodes of H100: time for 10B tokens?",
        "I run out of memory serving Qwen2.5-7B on one T4.",
        "Running vllm-0.6.3 with Llama-3-8B on an A10G: how many concurrent users?",
    ):
        assert answer(text).interpretation.unknown_model is None, text


def test_a_length_written_as_a_product_is_the_product() -> None:
    text = "LoRA on Qwen2.5-7B with max_seq_length 32 * 1024 on one H100: does it fit?"
    assert answer(text).request.seq_len == 32768
    text = "Full fine-tuning of Llama-3.2-1B at a sequence length of 1024*16 on one A100 80GB: memory?"
    assert answer(text).request.seq_len == 16384
    text = "Fine-tuning Mistral-7B on a single L40S at 4096*4 tokens per step: how long for 1 epoch?"
    request = answer(text).request
    assert request.gpu_count == 1 and request.seq_len != 4  # the 4 is a factor of the tokens, not cards
    # cards and memories written as products stay the count rules' ('2 * 8 H100' is 16 cards)
    assert answer("Pre-training a 7B on 2 * 8 H100 for 100B tokens: how many days?").request.gpu_count == 16
    assert answer("Serving Llama-3-70B on 4×80GB cards: memory per card?").request.gpu_memory_gib == 80


def test_one_dgx_spark_or_station_is_one_device() -> None:
    for text in (
        "What tokens/s should Qwen3-8B reach on one DGX Spark with vLLM?",
        "Full fine-tuning of Qwen2.5-1.5B on a DGX Spark: what speed should it reach on one DGX Spark?",
        "Can a DGX Station serve Llama-3-70B in FP8 for 20 users?",
    ):
        assert answer(text).request.gpu_count == 1, text
    # a DGX of an 8-GPU generation is still eight cards
    assert answer("Pre-training a 7B on one DGX H100 for 50B tokens: how long?").request.gpu_count == 8


def test_lora_on_a_base_quantized_to_four_bits_is_qlora() -> None:
    for text in (
        "LoRA of Llama-2-13b with --precision bf16-true --quantize bnb.nf4 on one RTX 4090: memory?",
        "LoRA on Mistral-7B in bf16 with quantize: int4 for the base, one T4: does it fit?",
    ):
        assert answer(text).request.method == "qlora", text
    # a quantization said of the serving afterwards leaves the LoRA as it is
    text = "LoRA fine-tuning of Mistral-7B in bf16 on one A100, then quantize to 4-bit for serving: memory?"
    assert answer(text).request.method == "lora"


def test_litgpt_is_inferred_from_its_quantize_choice() -> None:
    text = "python finetune/lora.py --quantize bnb.nf4-dq --checkpoint_dir phi-2 on one T4: memory?"
    assert ("training_tool: litgpt", "tool_inferred") in _ignored(text)
    text = "LoRA on Llama-2-7b with bitsandbytes nf4 on one T4: memory?"  # no litgpt flag
    assert not [u for u in _ignored(text) if "litgpt" in u[0]]


def test_devices_and_world_size_are_the_gpu_count() -> None:
    assert (
        answer("LoRA on Llama-3-8B with Fabric, devices 4, micro batch 2: memory per GPU?").request.gpu_count
        == 4
    )
    assert (
        answer(
            "Pre-training a 13B on A800 with world_size 64 and TP 4: time for 300B tokens?"
        ).request.gpu_count
        == 64
    )


def test_tabby_is_named_as_a_runtime_not_modelled() -> None:
    text = "Running StarCoder2-7B in Tabby on an RTX 3060 12GB: does it fit?"
    assert ("runtime: Tabby", "runtime_not_modelled") in _ignored(text)
    text = "Serving a 70B EXL2 with TabbyAPI on two 3090s: memory?"
    assert not [u for u in _ignored(text) if u[0] == "runtime: Tabby"]
