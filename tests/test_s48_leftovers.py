"""Session 48 part leftovers (issue 24 items 2–4): session 47's named reader and review leftovers.

1. A reference setup beside the asker's own ('论文用 8 张 A100，我们想用 4 张 H800，够吗', 'the paper used 8
   A100s, we want to use 4 H800s'): the setup the asker will run is sized; the paper's / authors' / official
   one is another setup (bot.parse.structure's tried cues), its count and card named ``other_setup``.
"""

from __future__ import annotations

import pytest

from bot.parse import parse


@pytest.mark.parametrize(
    "question",
    [
        "论文用 8 张 A100，我们想用 4 张 H800，够吗",
        "原文用 8 张 A100 训练，我们有 4 张 H800，能复现吗",
        "官方用 8 张 A100 全参微调 Qwen2.5-7B，我们想用 4 张 H800，够吗",
        "论文里说 8 张 A100 训练了 3 天，我们用 4 张 H800 要多久",
        "the paper used 8 A100s, we want to use 4 H800s to fine-tune Llama 3 8B",
        "They used 8 A100s. We have 4 H800s, is that enough to fine-tune Qwen2.5-7B?",
        "The authors trained on 8 A100s; we want to use 4 H800s for Qwen2.5-7B LoRA",
    ],
)
def test_the_askers_own_setup_is_sized_and_the_papers_named(question: str) -> None:
    p = parse(question)
    assert (p.request.gpu, p.request.gpu_count) == ("H800-SXM5-80GB", 4)
    assert ("8", "other_setup") in p.unused_numbers
    assert ("A100", "other_setup") in p.unused_numbers
    assert p.gpu_alternatives == []


@pytest.mark.parametrize(
    "question",
    [
        "论文用 8 张 A100 全参微调 Qwen2.5-7B，要多久",
        "按论文的配置 8 张 A100 全参微调 Qwen2.5-7B 需要几天",
        "The paper used 8 A100s to fine-tune Llama 3 8B, how long would that take?",
        "I want to reproduce the paper with 8 A100s fine-tuning Llama 3 8B",
    ],
)
def test_the_papers_setup_alone_is_the_one_asked_about(question: str) -> None:
    p = parse(question)
    assert (p.request.gpu, p.request.gpu_count) == ("A100-SXM4-80GB", 8)
    assert not [n for n in p.unused_numbers if n[1] == "other_setup"]
