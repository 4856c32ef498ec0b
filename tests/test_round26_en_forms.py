"""Round 26 English (tests/data/real_questions/en_r26.json): the ways of writing its working records showed,
each read by a reader for its kind — checked on sentences of their own, not the records' (README.md there)."""

from __future__ import annotations

from bot.core.pipeline import answer


def _ignored(text: str) -> list[tuple[str, str]]:
    return [(i.text, i.reason) for i in answer(text).interpretation.ignored]


def test_a_grace_superchip_the_catalog_lacks_is_named_as_typed_never_swapped() -> None:
    for text, name in (
        ("We got two GH200 nodes: can one GH200 pre-train a 3B model in a week?", "GH200"),
        ("Serving Qwen2.5-32B on a GH200 with vLLM: how many users?", "GH200"),
        ("Is a GB300 enough to fine-tune Llama-3-70B with LoRA?", "GB300"),
    ):
        assert answer(text).interpretation.unknown_gpu == name, text
    # a catalog superchip stays the catalog's
    reply = answer("Serve Llama-3-70B on 4 GB200 with vLLM: how many users?")
    assert reply.interpretation.unknown_gpu is None and reply.request.gpu == "GB200-186GB"


def test_a_unified_memory_device_with_another_name_in_brackets_keeps_its_memory() -> None:
    text = "An AMD Ryzen AI MAX+ 395 (Strix Halo) with 96 GB of unified memory: can it serve Gemma-3-27B?"
    request = answer(text).request
    assert request.gpu_memory_gib == 96 and request.host_memory_gib is None
    text = "Our Jetson AGX Orin (Jetson Orin) with 64GB of memory runs Llama-3-8B: what tokens/s?"
    assert answer(text).request.gpu_memory_gib == 64
    # a Mac's chip in brackets is its chip, as before: never another chip's variant
    text = "A Mac Studio (M2 Ultra) has 192GB of RAM: can it serve Llama-3-70B?"
    assert answer(text).request.gpu == "Apple-M2-Ultra-192GB"


def test_sequence_parallel_training_is_a_training_run() -> None:
    for text in (
        "How much memory per GPU does Llama-2-13B need at 32K tokens with sequence parallel 8?",
        "DeepSpeed Ulysses on Mistral-7B at 64k sequence length: how many H100 do I need?",
        "Ring attention for Qwen2.5-7B at 128k tokens on 16 A100: memory per card?",
    ):
        assert answer(text).request.stage != "inference", text
    # serving words still say serving
    text = "Serve Llama-3-70B with vLLM using sequence parallelism on 8 H100: how many users?"
    assert answer(text).request.stage == "inference"


def test_embedding_a_corpus_with_a_sentence_transformers_model() -> None:
    text = "I embed about 5 million documents with all-mpnet-base-v2 on two L4: what throughput to expect?"
    reply = answer(text)
    assert reply.request.stage == "inference"
    assert reply.interpretation.unknown_model == "all-mpnet-base-v2"
    text = "Encoding 800k sentences with paraphrase-multilingual-MiniLM-L12-v2 on one T4 takes how long?"
    reply = answer(text)
    assert reply.request.stage == "inference"
    assert reply.interpretation.unknown_model == "paraphrase-multilingual-MiniLM-L12-v2"
    # a count with a decimal point between the verb and its texts ('embedding 1.5 million texts')
    assert answer("How long would embedding 1.5 million texts take on one L4?").request.stage == "inference"
    # the chunks of a corpus are its samples; a rate of them is not
    text = "Re-embedding 90,000 chunks with multilingual-e5-large on an A10G ran at 40 chunks/second."
    assert answer(text).request.num_samples == 90000
    # a Xeon part number is no embedding model, and training an embedding model is training
    assert answer("Xeon e5-2680 with 64GB RAM: run Llama-3-8B on it?").interpretation.unknown_model is None
    assert answer("I fine-tune all-MiniLM-L6-v2 on 1M pairs on one A100.").request.stage == "finetune"


def test_a_batch_said_as_batches_of_n() -> None:
    text = "Full fine-tuning of Qwen2.5-1.5B on 2 A100, in batches of 16 with 4 accumulation steps: time?"
    assert answer(text).request.batch_size == 16


def test_a_hugging_face_id_names_its_model_not_its_organization() -> None:
    for text, name in (
        ("Can I serve OpenOrg7/wizard-chat on two L4 with TGI?", "wizard-chat"),
        ("I have a 15B model, AcmeLabs2/coder-beta, to split across two RTX 4090s.", "coder-beta"),
    ):
        assert answer(text).interpretation.unknown_model == name, text
    # a codebase's folders and files are no model
    text = "Run examples/run-lora.sh to fine-tune Llama-3-8B on 8 A100: how long for 1 epoch?"
    reply = answer(text)
    assert reply.interpretation.unknown_model is None and reply.request.model == "Llama-3-8B"


def test_megatron_bridge_is_named_as_typed_not_megatron_lm() -> None:
    text = "Converting Llama-3-70B to Megatron-Bridge format on 8 H100: enough memory?"
    assert ("training_tool: Megatron-Bridge", "no_field") in _ignored(text)
