"""Round 18 of the real questions, English half (issue 24; tests/data/real_questions/en_r18.json): readers of
how people write, one per kind of fault seen on the working half — a length written 'N total tokens' read as
the model's total parameters (a 7B served as an 8192-parameter model), a request shape written with equals
signs ('input=512 and output=512', left unread: the cheap gate wanted a space), the machines' size said
alone ('GPUS_PER_NODE=8', '8 GPUs per node' with no node count: dropped), a batch key after 'global'
('global BATCH_SIZE=384': sized as the micro-batch), a training-only word with no 'train' in the message
('grad_cache', 'gradient checkpointing': sized as serving), and a llama.cpp weight file's format
('-m …-MXFP4-….gguf') losing to a format said of another model. Through the CLI (``sizing-bot ask --format
json``, in process); the sentences are written for these tests (none is from the real-question corpus).
Readers: :data:`bot.parse.roles.R_TOTAL`, :data:`bot.parse.request_shape.SHAPE_FORMS` (its gate),
:data:`bot.parse.node_shape.SAID_PER_NODE_RE`, ``bot.parse.inline_keys._GLOBAL_BEFORE_RE``,
:data:`bot.parse.lexicon.TRAIN_RE`, :data:`bot.parse.configs.merge.GGUF_FILE_RE`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


TOTAL_TOKENS = [
    ("Can Llama-3-8B handle 16384 total tokens per request on one A10G with TGI?", 8.03e9),
    ("Qwen2.5-14B on one L40S: is 12000 total context realistic?", 14.7e9),
]


@pytest.mark.parametrize(("text", "params"), TOTAL_TOKENS)
def test_total_tokens_are_no_parameter_count(
    capsys: pytest.CaptureFixture[str], text: str, params: float
) -> None:
    """The catalog model's size (Llama-3-8B: 8.03B, Qwen2.5-14B: 14.7B, their config.json) is sized, never
    the length written before 'total tokens'."""
    assert ask(capsys, text)["request"]["params_total"] == pytest.approx(params, rel=0.01)


def test_a_total_size_is_still_the_total_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    """'46.7B total with 12.9B active' (Mixtral 8x7B, Mistral AI's model card) stays total and active."""
    request = ask(
        capsys, "Mixtral 8x7B is 46.7B total with 12.9B active: how much memory to serve it on H100?"
    )["request"]
    assert (request["params_total"], request["params_active"]) == (46.7e9, 12.9e9)


SHAPES = [
    (
        "Benchmarking Llama-3-70B on 8 H100 with vLLM: input=2048 and output=256, 32 concurrent requests",
        2048,
        2304,
    ),
    ("Serving Qwen2.5-7B on an A10G, input:1000 output:200", 1000, 1200),
]


@pytest.mark.parametrize(("text", "prompt", "seq"), SHAPES)
def test_request_shape_with_equals_signs(
    capsys: pytest.CaptureFixture[str], text: str, prompt: int, seq: int
) -> None:
    """Each request's prompt, and its sequence the prompt plus the reply."""
    request = ask(capsys, text)["request"]
    assert (request["prompt_tokens"], request["seq_len"]) == (prompt, seq)


PER_NODE = [
    ("Pre-training a 13B with Megatron-LM: GPUS_PER_NODE=8, TP_SIZE=4", 8),
    ("Fine-tuning Llama-3-8B on 4 GPUs per node with DeepSpeed", 4),
]


@pytest.mark.parametrize(("text", "per"), PER_NODE)
def test_machines_size_said_without_a_node_count(
    capsys: pytest.CaptureFixture[str], text: str, per: int
) -> None:
    """One machine of that many GPUs: the count and the machine's size both kept (TP stays inside it)."""
    request = ask(capsys, text)["request"]
    assert (request["gpu_count"], request["gpus_per_node"]) == (per, per)


def test_a_count_alone_says_no_machine_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "Fine-tuning a 7B on 6 A100")["request"]["gpus_per_node"] is None


def test_global_batch_key(capsys: pytest.CaptureFixture[str]) -> None:
    """'global BATCH_SIZE=512' is sequences per optimizer step (the global batch); a bare BATCH_SIZE=4 stays
    the micro-batch."""
    text = "Pre-training a 1.3B GPT with Megatron-LM on 16 A100, {}"
    request = ask(capsys, text.format("global BATCH_SIZE=512"))["request"]
    assert request["global_batch"] == 512 and request["batch_size"] != 512
    request = ask(capsys, text.format("BATCH_SIZE=4"))["request"]
    assert (request["global_batch"], request["batch_size"]) == (None, 4)


TRAINING_WORDS = [
    "Qwen2-7B with grad_cache on one A100 80GB OOMs at batch 64",
    "Llama-3-8B with gradient checkpointing on one RTX 4090 OOMs at batch 8",
]


@pytest.mark.parametrize("text", TRAINING_WORDS)
def test_training_only_words_make_a_training_question(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["request"]["stage"] == "finetune"


def test_running_a_model_stays_serving(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "Run Qwen2-7B on one A100 80GB at batch 64")["request"]["stage"] == "inference"


def test_a_gguf_file_names_the_weights_format(capsys: pytest.CaptureFixture[str]) -> None:
    """The pasted command's weight file ('-m …-Q5_K_M.gguf') gives the format sized, over a format said of
    another model in the prose ('Mistral Small 24B at Q3_K_S', named)."""
    text = (
        "On one RTX 4070 I run llama-server -m Qwen2.5-14B-Instruct-Q5_K_M.gguf -c 16384 -ngl 99. "
        "Mistral Small 24B at Q3_K_S loads faster. Does 14B fit?"
    )
    answer = ask(capsys, text)
    assert answer["request"]["precision"] == "q5_k_m"
    assert "q3_k_s" in str(answer["interpretation"]["ignored"]).lower()
