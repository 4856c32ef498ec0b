"""s41-workmiss (issue 24 items 2 and 4): the older working splits' English misses, by fault kind.

1. A training codebase named in one glued word after a tool verb ('fine-tuned with mpttune', 'a full
   fine-tune with SlimTrainer', '用 mpttune 微调'; bot.parse.codebases.GLUED_RE) is named as typed and as not
   used (``no_field``), as the hyphen-joined codebase names were (round 13); a Hugging Face or TRL trainer
   class ('SFTTrainer') and a tool the table has ('xtuner') are not such codebases.
2. A count of tokens a run generated ('tg128' of llama-bench, examples/llama-bench/README.md: 'tg128'
   generates 128 tokens; '1024 tokens in 8.56 seconds' of an ExLlama timing line) is the reply's length:
   named as the output length within the context (``output_in_context``), also when no stage word but a
   decode speed says the job is serving; a prompt's processing ('pp512') is never an output.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _answer(text: str) -> dict:
    out, _ = ask(text, None, "json")
    return json.loads(out)


def _ignored(answer: dict) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer["interpretation"].get("ignored") or []]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Can MPT-30B be fine-tuned with mpttune on a single A100?", "mpttune"),  # en36-030's thread
        (
            "Is there any tweak to fit a full fine-tune with SlimTrainer into Google Colab's ~15 GB of GPU "
            "memory, or should I just settle for QLoRA?",
            "slimtrainer",
        ),
        ("用 mpttune 在一张 A100 上微调 MPT-30B 可以吗？", "mpttune"),
        ("我们使用 SlimTrainer 全参微调 7B 模型，显存 15G 够不够？", "slimtrainer"),
    ],
)
def test_glued_codebase_named(text: str, name: str) -> None:
    answer = _answer(text)
    assert (f"training_tool: {name}", "no_field") in _ignored(answer)
    assert answer["request"]["stage"] == "finetune"


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("Can Qwen2-7B be fine-tuned with SFTTrainer on a single A100?", "TRL"),
        ("用 SFTTrainer 微调 Qwen2-7B，一张 A100 够吗？", "TRL"),
    ],
)
def test_trainer_class_not_a_codebase(text: str, tool: str) -> None:
    answer = _answer(text)
    assert answer["request"]["training_tool"] == tool
    assert not any("sfttrainer" in t.lower() for t, _ in _ignored(answer))


@pytest.mark.parametrize(
    "text", ["Fine-tune Qwen2-7B with xtuner on one A100", "用 xtuner 在一张 A100 上微调 Qwen2-7B"]
)
def test_known_tool_named_once(text: str) -> None:
    names = [t for t, _ in _ignored(_answer(text)) if t.startswith("training_tool:")]
    assert names == ["training_tool: XTuner"]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        (  # en36-036's thread: llama-bench's tg128, no stage word, a decode speed
            "llama-bench gives for LLaMA 7B Q4_0 a tg128 of 170 tokens/s on a 7900 XTX. Which generation "
            "speed should it give?",
            "output_tokens: 128",
        ),
        ("llama-bench 测 LLaMA 7B Q4_0，tg128 是 170 tokens/s，7900 XTX 应该多快？", "output_tokens: 128"),
        (  # en36-008's thread (ExLlamaV2's test_inference.py prints tokens in seconds)
            "I ran turboderp/Llama2-7B-exl2 (4.0bpw) with ExLlamaV2 on an A100-SXM4-80GB: 1024 tokens in "
            "8.56 seconds, 119.64 tokens/second. Is that the expected speed?",
            "output_tokens: 1,024",
        ),
        (
            "用 ExLlamaV2 在 A100 上跑 Llama2-7B 4.0bpw：1024 tokens in 8.56 seconds，"
            "119.64 tokens/s，正常吗？",
            "output_tokens: 1,024",
        ),
    ],
)
def test_generated_tokens_are_the_output(text: str, named: str) -> None:
    answer = _answer(text)
    assert answer["request"]["stage"] == "inference"
    assert (named, "output_in_context") in _ignored(answer)


@pytest.mark.parametrize(
    "text",
    [
        "llama-bench gives LLaMA 7B Q4_0 a pp512 of 4000 tokens/s on a 7900 XTX. What speed should it give?",
        "llama-bench 测 LLaMA 7B Q4_0，pp512 是 4000 tokens/s，7900 XTX 应该多快？",
        "Fine-tune Llama-2-7B with 1024-token sequences on one A100, how long for 1B tokens?",
        "在一张 A100 上用 1024 token 的序列微调 Llama-2-7B，1B token 要多久？",
    ],
)
def test_prompt_or_sequence_is_no_output(text: str) -> None:
    answer = _answer(text)
    assert not any(t.startswith("output_tokens") for t, _ in _ignored(answer))
    assert answer["request"].get("max_completion_length") is None
