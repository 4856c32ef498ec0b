"""Round 27 English (tests/data/real_questions/en_r27.json): the ways of writing its working records showed,
each read by a reader for its kind — checked on sentences of their own, not the records' (README.md there)."""

from __future__ import annotations

from bot.core.pipeline import answer


def _ignored(text: str) -> list[tuple[str, str]]:
    return [(i.text, i.reason) for i in answer(text).interpretation.ignored]


def test_a_repository_owning_the_training_code_is_a_codebase_named_as_typed() -> None:
    for text, name in (
        ("Using Foo-Tuner's training scripts I fine-tune Mistral 7B on one A10G: memory?", "foo-tuner"),
        ("Llama-Z's fine-tuning code runs out of memory for Llama-2-13B on 4 A100 40GB.", "llama-z"),
        ("With acme_lab's sft recipe, how long does Qwen2.5-7B take on 8 H100?", "acme_lab"),
    ):
        assert (f"training_tool: {name}", "no_field") in _ignored(text), text
        assert answer(text).request.stage == "finetune", text
    # a maker's or a model's code is no codebase: a bare word, or a name with a size
    for text in (
        "Meta's training code for Llama 3 8B needs how many H100?",
        "Qwen2.5-7B's fine-tuning code OOMs on a 4090",
    ):
        assert not any(t.startswith("training_tool") for t, _ in _ignored(text)), text


def test_a_lightning_precision_width_is_that_float_format() -> None:
    for text, want in (
        ("With NeMo, precision 16, I train Llama 7B on 8 A800: does it fit?", "fp16"),
        ("I fine-tune Mistral 7B with Lightning, precision=32, on one A100.", "fp32"),
        ("precision: '16-mixed' for Llama 2 13B LoRA on 2 A6000", "fp16"),
    ):
        assert answer(text).request.precision == want, text
    # a memory or a bit width after the word is not a precision key's value
    assert answer("Mixed precision on a 16 GB card: fine-tune Phi-2?").request.precision != "fp32"
    assert answer("Mixed precision on a 16 GB card: fine-tune Phi-2?").request.gpu_memory_gib == 16


def test_vllms_memory_profile_line_gives_the_card_memory_and_the_fraction() -> None:
    text = (
        "Mistral 7B with vLLM on an A10G: the current vLLM instance can use total_gpu_memory (22.19GiB) x "
        "gpu_memory_utilization (0.85) = 18.86GiB, and no KV cache is left."
    )
    request = answer(text).request
    assert request.gpu_memory_utilization == 0.85 and request.gpu_memory_gib == 22.19
    # the fraction set as a flag is read as before
    text = "vllm serve Qwen2.5-7B --gpu-memory-utilization 0.8 on one L4"
    assert answer(text).request.gpu_memory_utilization == 0.8


def test_aphrodites_short_memory_flag_is_the_utilization() -> None:
    text = "aphrodite run Llama-3-70B-GPTQ -tp 2 -gmu .92 on two 3090: how long a context?"
    request = answer(text).request
    assert request.gpu_memory_utilization == 0.92 and request.tp == 2
    # a word that merely ends in '-gmu' is no flag
    assert answer("the foo-gmu 0.5 build serves Llama-3-8B on a 4090").request.gpu_memory_utilization is None


def test_samples_said_to_be_that_long_give_each_samples_length() -> None:
    for text, length in (
        ("Fine-tune Llama 3 8B with LoRA on 3000 rows; some rows are about 20000 tokens. One H100.", 20000),
        ("QLoRA on Mistral 7B: 5k conversations, each example has ~900 tokens, on a 4090", 900),
    ):
        request = answer(text).request
        assert request.tokens_per_sample == length and request.tokens != length, text
    # the corpus's size is no sample's length
    request = answer(
        "Pre-train a 1B model on 20B tokens; the documents are 50B tokens in total on 64 H100"
    ).request
    assert request.tokens == 20e9 and request.tokens_per_sample is None


def test_a_webui_model_folder_names_its_hugging_face_model() -> None:
    text = "text-generation-webui can't load TheBloke_Llama-2-13B-chat-GPTQ on my 3060 12GB"
    assert answer(text).request.model == "Llama-2-13B"
    text = "In oobabooga, someuser_Mistral-Nemo-Instruct-2407-exl2-5bpw says Insufficient VRAM on my 3090"
    assert answer(text).request.model == "Mistral-Nemo-12B"
    # config keys joined by underscores are no folders
    text = "text-generation-webui with lora_rank 8 and per_device_train_batch_size 2 for Llama-2-7B on a 4090"
    request = answer(text).request
    assert request.lora_rank == 8 and request.batch_size == 2 and request.model == "Llama-2-7B"


def test_the_most_an_engine_let_be_set_is_the_context_sized() -> None:
    for text, n in (
        ("With vLLM I can't set max_model_len larger than 8192 for Llama 3 70B on 4 A100.", 8192),
        ("max_model_len can not be larger than 16384 with Qwen2.5-32B on 2 L40S in vLLM", 16384),
    ):
        request = answer(text).request
        assert request.max_model_len == n and ("8192", "unread") not in _ignored(text), text
    # a model's context said to be more than a length, with the length served given, is not that ceiling
    text = "The model's context is more than 8192 tokens; serve Llama 3 8B on an L4 at 4096 context"
    assert answer(text).request.max_model_len != 8192


def test_loras_rank_written_r_space_n_is_the_rank() -> None:
    for text, rank in (
        ("the peft config is r 16, lora_alpha 32 for Llama 3 8B on a 4090", 16),
        ("LoRA with r: 8 and alpha 16 on Mistral 7B on a T4", 8),
    ):
        request = answer(text).request
        assert request.lora_rank == rank and request.method == "lora", text
    # without LoRA in the message, an 'r' before a number is nobody's rank
    assert answer("My R 4 script fine-tunes Llama 2 13B on 2 A100").request.lora_rank is None
