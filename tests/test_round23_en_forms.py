"""Round 23 English (tests/data/real_questions/en_r23.json): the ways of writing its working records showed,
each read by a reader for its kind — checked on sentences of their own, not the records' (README.md there)."""

from __future__ import annotations

from bot.core.pipeline import answer
from bot.parse import parse
from tests.named_keys import field_keys


def _ignored(text: str) -> list[tuple[str, str]]:
    return [(i.text, i.reason) for i in answer(text).interpretation.ignored]


def test_edge_engines_tinychat_and_local_llm_are_named_not_modelled() -> None:
    for text, name in (
        ("Can a Jetson Orin Nano 8GB run Mistral-7B in int4 with TinyChat?", "TinyChat"),
        ("Running Llama-3-8B through TinyChatEngine on my Orin NX 16GB gets killed.", "TinyChat"),
        ("Qwen2.5-3B with the local_llm container on a Jetson AGX Orin 32GB: memory?", "local_llm"),
    ):
        assert (f"runtime: {name}", "runtime_not_modelled") in _ignored(text), text
    # the words alone are no engine: a tiny chat window, a local LLM
    for text in (
        "I want a tiny chat window for Llama-3-8B on one L4, how much memory?",
        "Running a local LLM, Llama-3-8B, on one RTX 4090: memory?",
    ):
        assert not [u for u in _ignored(text) if u[0].startswith("runtime")], text


def test_ludwig_is_a_training_tool_named_as_typed() -> None:
    text = "Fine-tuning Mistral-7B with Ludwig's 4-bit LoRA config on a 16GB T4 runs out of memory."
    assert ("training_tool: Ludwig", "no_field") in _ignored(text)
    text = "Ludwig van Beethoven playlists aside, fine-tune Mistral-7B with LoRA on a T4: memory?"
    assert not [u for u in _ignored(text) if "Ludwig" in u[0]]


def test_a_colossalai_strategy_names_colossalai() -> None:
    text = (
        "torchrun --nproc_per_node=4 train_sft.py --pretrain meta-llama/Llama-2-7b-hf "
        "--strategy colossalai_zero2 --batch_size 2 --max_len 512. How much memory per GPU?"
    )
    assert ("training_tool: ColossalAI", "no_field") in _ignored(text)
    # prose that names the library still does; another strategy value names no ColossalAI
    text = "PPO of Llama-2-7b with ColossalAI on 8 A100"
    assert ("training_tool: ColossalAI", "no_field") in _ignored(text)
    text = "torchrun --nproc_per_node=4 train.py --strategy ddp --model_name_or_path meta-llama/Llama-2-7b-hf"
    assert not [u for u in _ignored(text) if "ColossalAI" in u[0]]


def test_torchrun_nodes_and_processes_give_the_nodes_of_the_run() -> None:
    text = (
        "torchrun --nnodes=2 --nproc_per_node=4 train.py --model_name_or_path Qwen/Qwen2.5-7B "
        "--per_device_train_batch_size 1. Memory per GPU?"
    )
    r = answer(text).request
    assert (r.gpu_count, r.gpus_per_node) == (8, 4)
    assert not [u for u in _ignored(text) if u == ("2", "unread")]  # --nnodes=2 is read, not left behind
    # one node: no per-node layout is set
    text = "torchrun --nproc_per_node=4 train.py --model_name_or_path Qwen/Qwen2.5-7B. Memory per GPU?"
    r = answer(text).request
    assert (r.gpu_count, r.gpus_per_node) == (4, None)


def test_a_prompt_length_flag_named_as_not_sized_names_the_prompt_length() -> None:
    text = (
        "torchrun --nproc_per_node=8 train_prompts.py --pretrain bigscience/bloom-560m "
        "--strategy colossalai_gemini --max_input_len 96 --max_seq_len 256. Memory?"
    )
    assert ("max_input_len: 96", "no_field") in _ignored(text)
    # the scorer reads such a field as the stated prompt length (tests/named_keys.py), as 'output' names
    # the completion's; a plain length stays a sequence length
    assert {"max_prompt_length", "prompt_tokens"} <= field_keys("max_input_len")
    assert "max_prompt_length" in field_keys("--max-input-length")
    assert "max_prompt_length" not in field_keys("max_seq_len")


def test_bitsandbytes_four_bit_modes_are_four_bit_weights() -> None:
    for text in (
        "Serving Llama-2-13b-chat-hf with TGI on 2 A10G using --quantize bitsandbytes-fp4: memory?",
        "Serving Llama-2-13b-chat-hf with TGI on 2 A10G using --quantize bitsandbytes-nf4: memory?",
        "Llama-2-13b-chat-hf in bitsandbytes-fp4 on one T4: does it fit?",
    ):
        r = parse(text).request
        assert r.precision == "int4", text
        assert not [u for u in _ignored(text) if u[0] == "precision: fp4"], text
    # bitsandbytes alone is its 8-bit mode; a release's FP8 / FP4 suffix is still the release's format
    assert parse("TGI --quantize bitsandbytes, Llama-2-13b-chat-hf on 2 A10G").request.precision == "int8"
    assert parse("Serving Qwen3-30B-A3B-FP8 on 2 L40S, memory?").request.precision == "fp8"


def test_a_release_s_own_training_asked_in_the_past_is_a_pre_training() -> None:
    for text in (
        "How many tokens was Mistral-7B trained on, and how many H100 days did it take?",
        "For the Pythia 6.9B model, how many GPUs, how many tokens and how many days did training take?",
    ):
        assert parse(text).request.stage == "pretrain", text
    # the asker's own run, a rate, or a plan stays a fine-tuning of the release
    for text in (
        "I fine-tuned Qwen2.5-7B on 4 A100; how many tokens did my run see in an hour?",
        "Train Qwen2.5-7B on 8 A100: how many tokens per second?",
        "Train Llama-3.1-8B on 8 H100: how many tokens can I get through in a day?",
    ):
        assert parse(text).request.stage == "finetune", text


def test_a_memory_total_takes_the_unit_its_sentence_said_before() -> None:
    text = "Mixtral-8x7B in 4-bit is about 26GB, and the GPUs have 96 in total. Serve it on 4 A10G?"
    assert ("96 GB", "cards_total") in _ignored(text)
    assert not [u for u in _ignored(text) if u == ("96", "unread")]
    # no memory unit in the sentence: the number is no memory (left to the count rules)
    text = "Serve Mixtral-8x7B on A10G cards, the cards have 16 in total. Memory?"
    r = parse(text).request
    assert r.total_memory_gib is None and r.gpu_memory_gib is None


def test_kauldron_is_a_training_tool_named_as_typed() -> None:
    text = "Fine-tuning Gemma 2B with kauldron on a TPU v4-8 runs out of host memory. What does it need?"
    assert ("training_tool: kauldron", "no_field") in _ignored(text)
    text = "Fine-tuning Gemma 2B with cauldron sauce on one L4"
    assert not [u for u in _ignored(text) if "kauldron" in u[0]]
