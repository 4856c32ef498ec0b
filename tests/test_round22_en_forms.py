"""Round 22 English (tests/data/real_questions/en_r22.json): the ways of writing its working records showed,
each read by a reader for its kind — checked on sentences of their own, not the records' (README.md there)."""

from __future__ import annotations

from bot.core.pipeline import answer
from bot.parse import parse
from tests.real_questions import answer_json


def _ignored(text: str) -> list[tuple[str, str]]:
    return [(i.text, i.reason) for i in answer(text).interpretation.ignored]


def test_a_unified_memory_system_with_its_chip_in_brackets_keeps_its_memory() -> None:
    r = parse("Can Llama-3.3-70B run on a DGX Spark (GB10, 128 GB unified memory)?").request
    # s31: the DGX Spark is a catalog device (was the unknown 'DGX Spark' sized by the 128 GB said)
    assert (r.gpu, r.gpu_memory_gib) == ("DGX-Spark-GB10-128GB", 128)
    r = parse("Is a Framework Desktop (Strix Halo, 128 GB unified memory) enough for Llama-3.3-70B?").request
    assert (r.gpu, r.gpu_memory_gib) == ("Framework Desktop", 128)
    # the forms read before still read; a card with no memory said stays unknown, never given one
    assert parse("Can Llama-3.3-70B run on a DGX Spark, 128 GB unified memory?").request.gpu_memory_gib == 128
    assert parse("Can Llama-3.3-70B run on a DGX Spark (GB10)?").request.gpu_memory_gib is None


def test_modular_max_and_lorax_are_named_engines() -> None:
    for text in (
        "Serving Qwen2.5-7B with Modular MAX on one H100, how many tokens/s?",
        "I ran max benchmark --backend modular for Llama-3-8B on an L40S, is 900 tok/s right?",
    ):
        assert ("runtime: Modular MAX", "runtime_not_modelled") in _ignored(text), text
    text = "Serving 30 adapters of Mistral-7B with LoRAX on one A10G, how much memory?"
    assert ("runtime: LoRAX", "runtime_not_modelled") in _ignored(text)
    # the words alone are no engine: a modular design, a max throughput, 'Lorax' inside another word
    for text in (
        "The modular design lets max throughput grow for Llama-3-8B on an L4.",
        "Serving Llama-3-8B on an L4 with the floraxis plugin",
    ):
        assert not [u for u in _ignored(text) if u[0].startswith("runtime")], text


def test_adapters_a_server_loads_are_serving_not_a_fine_tuning() -> None:
    for text in (
        "I'm using vLLM's multi-LoRA serving for Mistral-7B. How many adapters fit in GPU memory?",
        "We deploy many adapters on one base Llama-3-8B with TGI. What is the most adapters we can deploy?",
    ):
        assert parse(text).request.stage == "inference", text
    # training them stays a training, before or after the serving words
    for text in (
        "How much memory to train LoRA adapters on Qwen2.5-7B before we deploy?",
        "Train adapters on Mistral-7B with LoRA, then deploy them with TGI. Memory for training?",
        "Fine-tune LoRA adapters for Llama-3-8B and then serve them with vLLM.",
    ):
        assert parse(text).request.stage == "finetune", text


def test_alpaca_lora_batch_flags_give_the_micro_batch_and_the_global_batch() -> None:
    text = (
        "LoRA on Llama-2-7b with one A10G: python finetune.py --micro_batch_size=4 --batch_size=64 "
        "--num_epochs=2. How long?"
    )
    r = parse(text).request
    assert (r.batch_size, r.global_batch, r.epochs) == (4, 64, 2)
    # a script with the trainer's own per-device key is not alpaca-lora's
    text = "Llama-2-7b on 2 A100: torchrun --nproc_per_node=2 train.py --per_device_train_batch_size 4"
    r = parse(text).request
    assert r.batch_size == 4 and r.global_batch is None


def test_a_quoted_list_inside_a_command_is_one_value() -> None:
    text = (
        "LoRA on Llama-2-7b with 1 A10G: python finetune.py --base_model=meta-llama/Llama-2-7b-hf "
        '--lora_target_modules=\'["q_proj", "k_proj", "v_proj"]\' --num_epochs=1. Memory?'
    )
    r = parse(text).request
    assert (r.lora_targets, r.epochs) == (["q_proj", "k_proj", "v_proj"], 1)
    # a comma after a flag outside quotes still ends the command ('…, how much')
    r = parse("vllm serve Qwen/Qwen2.5-7B --max-model-len 8192, how much memory on an L4?").request
    assert (r.max_model_len, r.gpu) == (8192, "L4")


def test_megatron_train_samples_are_the_samples_of_the_run() -> None:
    for text in (
        "Pretraining a 1B model with Megatron-LM on 8 H100: --seq-length 4096 --micro-batch-size 1 "
        "--global-batch-size 256 --train-samples 500000. How long?",
        "Pretraining a 1B model with Megatron-LM on 8 H100, SEQ_LENGTH=4096, GLOBAL_BATCH_SIZE=256, "
        "TRAIN_SAMPLES=500000. How long?",
    ):
        r = parse(text).request
        assert (r.num_samples, r.seq_len) == (500_000, 4096), text
        assert answer_json(text)["request"]["tokens"] == 500_000 * 4096  # each sample one --seq-length
    # max_train_samples (transformers' run_clm.py) keeps its reading
    assert parse("run_clm.py on gpt2 with max_train_samples=2000 on one T4").request.num_samples == 2000


def test_a_name_after_a_pretraining_verb_or_a_measure_is_the_model_named() -> None:
    for text, name in (
        ("How many A100 GPU hours does it take to pretrain DNABERT?", "DNABERT"),
        ("How long to pre-train ProtGPT on 8 A100s?", "ProtGPT"),
        ("Does anyone have tokens/s numbers for olmOCR on a B200?", "olmOCR"),
        ("What is the throughput of MolmoE on an L40S?", "MolmoE"),
    ):
        assert parse(text).unknown_model == name, text
    # a card, an engine, a metric or people after the same words are no model
    for text in (
        "What's the throughput of the H100 for serving a 7B model?",
        "Are there benchmarks for vLLM on an L4 with a 7B model?",
        "We want throughput numbers for our team on a 7B model with one L4.",
        "What latency of TTFT do you see for a 7B model on an L4?",
    ):
        assert parse(text).unknown_model is None, text


def test_a_range_of_observed_rates_is_observed_at_both_ends() -> None:
    text = "vLLM serves Llama-3.1-8B on one L4 at only about 30–35 tok/s end to end. Is that expected?"
    assert parse(text).request.target_tokens_per_s is None
    assert ("35 tok/s", "observed") in _ignored(text)
    # a range asked for stays the target (its upper end, as before)
    text = "We need 3000-3500 tok/s in total for Llama-3.1-8B on L4s, how many?"
    assert parse(text).request.target_tokens_per_s == 3500
