"""s33 fixd: a company's or team's head count is the people a serving question is for (trial s33, HIGH).

'200 人的公司用', '给 300 人的团队用', '全公司 300 人', 'a 200-person company', 'a team of 200', '200 users in
our company' were left unread (or sized as 200 at once); now they are ``users`` as '公司大概200人用' is (load
⌈users × 10 %⌉). Never a count of data ('200 人标注的数据') and never a training team ('3 人团队训练 7B')."""

from __future__ import annotations

import pytest

from bot.parse import parse

HEAD_COUNTS = [
    ("部署 Qwen2.5-32B，240 人的公司用，上下文 8k，用 L20 要几张", 240),
    ("vllm 部署 Qwen2.5-14B，给 350 人的团队用，要几张 A100", 350),
    ("部署 Llama-3.1-8B，120 人的部门使用，需要几张 L40S", 120),
    ("全公司 600 人，部署 Qwen2.5-72B 要几张 H100", 600),
    ("部署 Qwen2.5-7B 供 90 人使用，要几张 4090", 90),
    ("serve Llama-3.1-70B for a 450-person company, 8k context, how many H100", 450),
    ("deploy Qwen2.5-32B for a team of 1,200, how many A100?", 1200),
    ("we have 180 users in our company, serve Qwen2.5-14B on L40S, how many cards", 180),
    ("serve Mistral-7B for 75 employees, how many L4", 75),
]


@pytest.mark.parametrize(("q", "people"), HEAD_COUNTS)
def test_a_head_count_is_the_users(q, people):
    r = parse(q)
    assert r.request.users == people
    assert r.request.concurrency is None
    assert all(why != "unread" for _, why in r.unused_numbers)


def test_a_small_team_is_the_load_as_said():
    r = parse("部署 Qwen2.5-32B，给 20 人的团队用，要几张 A100")
    assert (r.request.users, r.request.concurrency) == (None, 20)
    r = parse("serve Qwen2.5-32B for a 12-person team, how many A100")
    assert (r.request.users, r.request.concurrency) == (None, 12)


@pytest.mark.parametrize(
    "q",
    [
        "用 300 人标注的数据微调 Qwen2.5-7B，要几张 A100",
        "4 人团队训练 7B 模型，2000 亿 token，要多少 H100",
        "公司有 16 张 A100，部署 Qwen2.5-72B 够吗",
        "our 6-person team wants to fine-tune Qwen2.5-7B with LoRA, how many A100",
    ],
)
def test_not_a_head_count(q):
    r = parse(q)
    assert r.request.users is None
    assert r.request.concurrency is None


def test_training_team_keeps_its_stage():
    assert parse("4 人团队训练 7B 模型，2000 亿 token，要多少 H100").request.stage.value == "pretrain"
