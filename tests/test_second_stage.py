"""Two stages asked at once (s20 #7): the answer sizes the training it reads and names the serving as a
second question with its exact follow-up (model, load and card as stated), never dropping it silently;
the follow-up, asked, is read as the serving question it names."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.parse import parse
from bot.parse.second_stage import THEN_SERVE
from bot.render.renderer import render


@pytest.mark.parametrize(
    ("question", "follow"),
    [
        (
            "fine-tune Qwen2.5-7B with LoRA and then serve it to 50 users — how many A100s for each?",
            "Ask next: “Serve Qwen2.5 7B to 50 concurrent users on A100 80G: how many GPUs?”",
        ),
        (
            "先LoRA微调Qwen2.5-7B再部署给100人用，用A100，各要几张卡",
            "接着问：“部署 Qwen2.5 7B，100 个并发用户，用 A100 80G，要几张卡？”",
        ),
        (
            "LoRA fine-tune Llama-3.1-8B, then deploy it for 200 concurrent users. GPUs?",
            "Ask next: “Serve Meta Llama 3.1 8B to 200 concurrent users: how many GPUs?”",
        ),
    ],
)
def test_the_serving_is_named_with_its_follow_up(question: str, follow: str) -> None:
    a = answer(question)
    assert a.report is not None and a.report.request.stage == "finetune"  # the training sized
    assert THEN_SERVE in a.parsed.notes
    text = render(a, "text")
    paragraphs = text.split("\n\n")
    assert follow in paragraphs[1]  # right after the headline's paragraph


@pytest.mark.parametrize(
    ("follow", "concurrency"),
    [
        ("Serve Qwen2.5 7B to 50 concurrent users on A100 80G: how many GPUs?", 50),
        ("部署 Qwen2.5 7B，100 个并发用户，用 A100 80G，要几张卡？", 100),
    ],
)
def test_the_follow_up_is_the_serving_question(follow: str, concurrency: int) -> None:
    req = parse(follow).request
    assert req.stage == "inference" and req.model == "Qwen2.5-7B" and req.concurrency == concurrency


@pytest.mark.parametrize(
    "question",
    ["serve Qwen2.5-7B to 50 users on A100", "LoRA 微调 Qwen2.5-7B，数据 1亿 token，用 A100 要几张"],
)
def test_one_stage_has_no_second_question(question: str) -> None:
    assert THEN_SERVE not in parse(question).notes
