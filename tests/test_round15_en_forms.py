"""Round 15 of the real questions, English half (issue 24; tests/data/real_questions/en_r15.json): readers of
how people write, one per kind of fault seen on the working half — 'RL' as a word of its own ('the RL stage':
sized as a pre-training), a card's memory said with the card as subject ('my 4090 has 24GB': the 24 unread), a
request's shape with the word before each number ('batch 64, input 32, output 96': 64 read as the prompt, 96
as the sequence), nodes and the GPUs of each joined by 'and' ('num_nodes=4 and gpus_per_node=8': the 4
unread), a model's family restated without its size ('Gemma 3 27B … Gemma 3's cache': nothing sized), and
tools named only by their place (slime beside Megatron, 'I compared ROLL with verl', 'fine-tuned with
opensloth?': dropped). Each rule in both languages where the form exists in both, through the CLI
(``sizing-bot ask --format json``, in process); the sentences are written for these tests (none is from the
real-question corpus). Readers: :data:`bot.parse.lexicon.FINETUNE_RE`, :mod:`bot.parse.memory_forms`,
:mod:`bot.parse.request_shape`, :mod:`bot.parse.count_forms`, :mod:`bot.parse.asked_model`,
:mod:`bot.parse.lower_tools`, :mod:`bot.parse.more_tools`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process, named


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


RL_WORDS = [
    "How many GPUs does the RL stage of Qwen2.5-7B need?",
    "How long does the RL phase take for Qwen2.5-7B on 8 H100?",
    "We want to do RL on Qwen2.5-7B with 8 A100s, is that enough?",
    "Qwen2.5-7B 的 RL 阶段需要多少张卡？",
]


@pytest.mark.parametrize("text", RL_WORDS)
def test_rl_said_alone_is_a_post_training(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["request"]["stage"] == "finetune"


def test_rl_before_a_model_noun_is_no_training(capsys: pytest.CaptureFixture[str]) -> None:
    request = ask(capsys, "Serve the RL model, a Qwen2.5-7B, with vLLM on one A100.")["request"]
    assert request["stage"] == "inference"


MY_CARD_HAS = [
    ("My 4090 has 24GB, can I fine-tune Qwen2.5-3B with LoRA?", "RTX-4090", 24),
    ("my rtx 3090 has 24 GB, can I serve Qwen3-8B?", "RTX-3090", 24),
    ("My A6000 has 48GB; will Llama-2-13B LoRA fit?", "RTX-A6000", 48),
    ("我的 4090 有 24G，能微调 Qwen2.5-3B 吗？", "RTX-4090", 24),
    ("我的3090只有24G，能部署 Qwen3-14B 吗？", "RTX-3090", 24),
]


@pytest.mark.parametrize(("text", "gpu", "memory"), MY_CARD_HAS)
def test_my_card_has_its_memory(capsys: pytest.CaptureFixture[str], text: str, gpu: str, memory: int) -> None:
    request = ask(capsys, text)["request"]
    assert (request["gpu"], request["gpu_memory_gib"]) == (gpu, memory)


def test_a_models_size_in_gigabytes_is_no_cards_memory(capsys: pytest.CaptureFixture[str]) -> None:
    """'a 70b has 140GB': a model's weights (no 'my', no card), never a card of 140 GB."""
    assert (
        ask(capsys, "A 70b has 140GB of weights; how many H100 to serve it?")["request"]["gpu_memory_gib"]
        is None
    )


SHAPES = [
    ("Serving Llama-2-7B with vLLM, batch 64, input 32, output 96.", 32, 128),
    ("Serving Llama-2-7B on vLLM with input_len=1024 output_len=256 at 16 concurrent requests.", 1024, 1280),
    ("Serve Qwen3-8B on one L4 with prompt 512 / completion 128 at 8 concurrent requests.", 512, 640),
    ("用 vLLM 部署 Llama-2-7B，batch 64，输入 32，输出 96", 32, 128),
]


@pytest.mark.parametrize(("text", "prompt", "sequence"), SHAPES)
def test_the_word_before_each_length_names_it(
    capsys: pytest.CaptureFixture[str], text: str, prompt: int, sequence: int
) -> None:
    request = ask(capsys, text)["request"]
    assert (request["prompt_tokens"], request["seq_len"]) == (prompt, sequence)


def test_a_comma_after_a_number_is_not_part_of_it(capsys: pytest.CaptureFixture[str]) -> None:
    """'batch 64, input 32': the 64 is the batch, never the prompt ('64,' was read as a number)."""
    request = ask(capsys, "Serving Llama-2-7B with vLLM, batch 64, input 32, output 96.")["request"]
    assert request["concurrency"] == 64


NODES_AND = [
    ("Fine-tune Qwen3-32B on 4 nodes and 8 GPUs per node.", 32, 8),
    ("The script uses num_nodes=4 and gpus_per_node=8 to fine-tune Qwen3-32B.", 32, 8),
    ("Fine-tune Qwen3-32B on 2 nodes and 8 H100 each.", 16, 8),
]


@pytest.mark.parametrize(("text", "count", "per_node"), NODES_AND)
def test_nodes_and_the_gpus_of_each(
    capsys: pytest.CaptureFixture[str], text: str, count: int, per_node: int
) -> None:
    request = ask(capsys, text)["request"]
    assert (request["gpu_count"], request["gpus_per_node"]) == (count, per_node)


def test_nodes_and_a_total_stay_a_total(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "Fine-tune Qwen3-32B on 2 nodes and 16 GPUs.")["request"]["gpu_count"] == 16


FAMILY_AGAIN = [
    "I'm using Gemma 3 27B in Ollama on a 4090 at 20k context. Is Gemma 3's context cache less efficient?",
    "Gemma 3 27B 在 4090 上 20k 上下文只剩 1G 显存，Gemma 3 的 KV cache 是不是效率低？",
]


@pytest.mark.parametrize("text", FAMILY_AGAIN)
def test_a_family_restated_is_the_model_sized(capsys: pytest.CaptureFixture[str], text: str) -> None:
    answer = ask(capsys, text)
    assert answer["request"]["model"] == "Gemma-3-27B"
    assert "model: Gemma 3" not in named(answer)


TOOLS_BY_PLACE = [
    ("I compared ROLL with verl on 4 GPUs with a 3B model; why is ROLL faster?", "ROLL"),
    ("我对比了 ROLL 和 verl，在 4 张卡上训练 3B 模型", "ROLL"),
    ("Can Qwen3-8B be fine-tuned with opensloth? One 4090.", "opensloth"),
    ("With lolcats I could train Llama-3-8B at 1024 tokens on 24GB GPUs.", "lolcats"),
    ("GRPO of Qwen3-30B-A3B with slime on 8 H100, does it fit?", "slime"),
    ("用 slime 在 8 张 H100 上做 Qwen3-30B-A3B 的 GRPO", "slime"),
    ("Running the TinyZero recipe for Qwen2.5-3B on one 4090, enough?", "TinyZero"),
]


@pytest.mark.parametrize(("text", "tool"), TOOLS_BY_PLACE)
def test_a_tool_named_by_its_place(capsys: pytest.CaptureFixture[str], text: str, tool: str) -> None:
    answer = ask(capsys, text)
    assert named(answer).get(f"training_tool: {tool}") == "no_field"


NOT_TOOLS = [
    "I compared Qwen2.5-7B with Llama-3-8B on vLLM; which is faster on one A100?",
    "Can Llama-2-7B be fine-tuned with lora? One 4090.",
    "I compared A100 with H100 for vLLM serving of Llama-3-8B.",
]


@pytest.mark.parametrize("text", NOT_TOOLS)
def test_models_cards_and_methods_compared_are_no_tools(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    assert not [t for t in named(ask(capsys, text)) if t.startswith(("training_tool:", "runtime:"))]
