"""Session 49 workmiss (issue 24 item 3, the stack named and neither used nor mentioned): a package written
with its pip extras ('bigdl-llm[xpu]', 'unsloth[colab-new]') is software the job runs, named as typed when
no table knows it (bot.parse.pip_extras); a name another reader has, a key indexed with brackets and a list
in brackets are not. Both languages, must-read and must-not-misread, on sentences of our own."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import ask
from bot.parse.pip_extras import extras_tools


def _answer(text: str) -> dict[str, Any]:
    out, _ = ask(text, None, "json")
    return json.loads(out)


def _ignored(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


NAMED = [
    # (question, stage sized, the item naming the package)
    (
        "Mistral-7B with transformers INT4 (fastquant-llm[xpu]) on an RTX 4090: how fast is decoding?",
        "inference",
        ("runtime: fastquant-llm", "runtime_not_modelled"),
    ),
    (
        "Qwen2-7B 用 transformers INT4（fastquant-llm[xpu]）在一张 RTX 4090 上推理，每秒多少 token？",
        "inference",
        ("runtime: fastquant-llm", "runtime_not_modelled"),
    ),
    (
        "LoRA fine-tuning Llama-3-8B on one A100 with tinytune-lm[cuda,flash]: how long for 1B tokens?",
        "finetune",
        ("training_tool: tinytune-lm", "no_field"),
    ),
    (
        "在一张 A100 上用 tinytune-lm[cuda] 做 Llama-3-8B 的 LoRA 微调，1B token 要多久？",
        "finetune",
        ("training_tool: tinytune-lm", "no_field"),
    ),
]


@pytest.mark.parametrize(("text", "stage", "item"), NAMED)
def test_package_with_extras_named(text: str, stage: str, item: tuple[str, str]) -> None:
    answer = _answer(text)
    assert answer["request"]["stage"] == stage
    assert item in _ignored(answer)


NOT_NAMED = [
    # a package a table knows: used, not named as unknown
    ("Serving Qwen2-7B with vllm[tpu] on one A100, 16 concurrent users", "vLLM", None),
    ("用 vllm[tpu] 在一张 A100 上部署 Qwen2-7B，16 并发", "vLLM", None),
    # a config key indexed with brackets, a list of cards in brackets: no package
    ("LoRA fine-tuning Llama-3-8B on one RTX 4090, layers[-1] frozen", None, None),
    ("部署 Qwen2-7B，GPUs [A100, H100] 选哪个？", None, None),
]


@pytest.mark.parametrize(("text", "runtime", "_"), NOT_NAMED)
def test_no_package_misread(text: str, runtime: str | None, _: None) -> None:
    answer = _answer(text)
    items = _ignored(answer)
    assert not any(
        t.startswith(("runtime: ", "training_tool: ")) and "[" not in t
        for t, r in items
        if r
        in (
            "runtime_not_modelled",
            "no_field",
        )
    )
    if runtime:
        assert answer["request"]["runtime"] == runtime


def test_extras_reader_alone() -> None:
    def never_known(name: str, tools_only: bool) -> bool:
        return False

    assert extras_tools("pip install ipex-llm[xpu] then run", False, never_known) == [
        ("runtime: ipex-llm", "runtime_not_modelled")
    ]
    assert extras_tools("target_modules[0] and weights[2]", True, never_known) == []
    assert extras_tools("GPUs [A100, H100]", False, never_known) == []
    assert extras_tools("用 fastquant-llm[xpu] 和 fastquant-llm[cpu]", True, never_known) == [
        ("training_tool: fastquant-llm", "no_field")
    ]


# One card asked for beside the cards a setup has (bot.parse.asked_single): one card sized, the other count
# named as the other setup's; a per-card figure ('单卡 24G', '单卡显存', '单卡 batch') asks nothing of it.
ONE_ASKED = [
    "Qwen2-7B 服务用了两张卡，fp16，显存爆了。有办法指定单卡运行吗？",
    "Qwen2-7B 服务用了两张卡，fp16，能不能用单卡跑？",
    "两张 4090 部署 Qwen2-7B。单卡运行行不行？",
    "Serving Qwen2-7B on two GPUs, fp16, and memory blows up. Is there a way to run it on a single GPU?",
]


@pytest.mark.parametrize("text", ONE_ASKED)
def test_one_card_asked(text: str) -> None:
    answer = _answer(text)
    assert answer["request"]["gpu_count"] == 1
    assert any(t in ("2", "two") for t, _ in _ignored(answer))


COUNT_KEPT = [
    ("4 张 4090，单卡 24G，够跑 Qwen2-7B 吗？", 4),
    ("两张卡部署 Qwen2-7B，单卡显存占用多少？", 2),
    ("8 张 A100 全参微调 Qwen2-7B，单卡 batch 4，要多久？", 8),
    ("Serving Qwen2-7B on two GPUs with 24 GB each: how much memory does each card use?", 2),
]


@pytest.mark.parametrize(("text", "count"), COUNT_KEPT)
def test_count_kept_beside_a_per_card_figure(text: str, count: int) -> None:
    assert _answer(text)["request"]["gpu_count"] == count


# A tokens cap lowered or raised, and 'max_token' as people type it (bot.parse.written_units.MAX_TOKENS_KEY,
# bot.parse.output_forms): the length of a sample in training, a request's output served; the earlier value
# named as replaced. Another key's lowered value is not read as the cap.
CAP_READ = [
    ("LoRA 微调 GLM-4-9B，把 max_token 从 1024 降到 512 能行吗", "seq_len", 512, "1024"),
    (
        "LoRA fine-tuning Llama-3-8B, I lowered max_tokens from 1024 to 512, will it fit on a 3090?",
        "seq_len",
        512,
        "1024",
    ),
    ("部署 Qwen2-7B，一张 4090，16 并发，max_tokens 从 2048 改成 512 能快多少", None, 512, "2048"),
    (
        "Serving Qwen2-7B on one 4090, 16 concurrent users, max_new_tokens from 2048 down to 512",
        None,
        512,
        "2048",
    ),
]


@pytest.mark.parametrize(("text", "field", "value", "earlier"), CAP_READ)
def test_tokens_cap_lowered(text: str, field: str | None, value: int, earlier: str) -> None:
    answer = _answer(text)
    items = _ignored(answer)
    if field:
        assert answer["request"][field] == value
    else:
        assert ("output_tokens: 512", "output_in_context") in items
    assert (earlier, "replaced_by_later_value") in items


@pytest.mark.parametrize(
    "text",
    [
        "部署 Qwen2-7B，一张 4090，max_token 512，16 并发",
        "Serving Qwen2-7B on one 4090, max_token 512, 16 concurrent users",
    ],
)
def test_max_token_singular_read(text: str) -> None:
    assert ("output_tokens: 512", "output_in_context") in _ignored(_answer(text))


@pytest.mark.parametrize(
    ("text", "seq"),
    [
        ("LoRA 微调 Llama-3-8B，max token count 4096，batch 从 8 降到 2", 4096),
        ("LoRA fine-tuning Llama-3-8B, cutoff_len 4096, batch size from 8 down to 2", 4096),
    ],
)
def test_other_key_lowered_not_the_cap(text: str, seq: int) -> None:
    answer = _answer(text)
    assert answer["request"]["seq_len"] == seq
    assert answer["request"]["batch_size"] == 2


# Machines and cards listed side by side (bot.parse.node_words.listed_count): cards above what one machine
# holds, shared evenly, are the total ('4 nodes, 32x H200 GPUs' was read as 128); a word saying each machine
# has them, or a count one machine holds, keeps the product.
NODE_COUNTS = [
    ("Full fine-tune of Llama-3-70B needs 4 nodes, 32x H200 GPUs: how long for 1B tokens?", 32),
    ("全参微调 Llama-3-70B 需要 4 个节点，32 张 H200，1B token 要训多久？", 32),
    ("Full fine-tune of Llama-3-70B on 4 nodes, 32 H100 each, how long for 1B tokens?", 128),
    ("Full fine-tune of Llama-3-70B on 2 nodes, 8 H100, how long for 1B tokens?", 16),
    ("全参微调 Llama-3-70B，2 台服务器，每台 8 张 H100，1B token 要训多久？", 16),
]


@pytest.mark.parametrize(("text", "count"), NODE_COUNTS)
def test_listed_nodes_and_cards(text: str, count: int) -> None:
    assert _answer(text)["request"]["gpu_count"] == count
