"""Random CJK characters are not a question (session 14 fresh-user trial #5: 10,000 random ideographs
were answered '100M bf16 推理…' from 十/九/万): the "not understood" reply (exit 2), as for random Latin
letters; a long real Chinese question is still answered."""

from __future__ import annotations

import json
import random

import pytest

from bot.cli import main
from bot.parse.cjk_noise import cjk_random


def _ask(capsys, text: str) -> tuple[int, dict]:
    capsys.readouterr()
    code = main(["ask", "--format", "json", text])
    return code, json.loads(capsys.readouterr().out)


def _ideographs(n: int, seed: int) -> str:
    pick = random.Random(seed)
    return "".join(chr(pick.randint(0x4E00, 0x9FFF)) for _ in range(n))


@pytest.mark.parametrize(("n", "seed"), [(10_000, 1), (10_000, 2), (400, 3), (600, 4)])
def test_random_ideographs_are_not_understood(capsys, n: int, seed: int) -> None:
    code, answer = _ask(capsys, _ideographs(n, seed))
    assert code == 2 and answer["understood"] is False and answer["report"] is None


def test_the_trial_noise_is_not_a_100m_model(capsys) -> None:
    """The trial's exact message (random.seed(1), 10,000 characters) — was '100M bf16 推理', exit 0."""
    random.seed(1)
    noise = "".join(chr(random.randint(0x4E00, 0x9FFF)) for _ in range(10000))
    assert main(["ask", noise]) == 2
    assert "100M" not in capsys.readouterr().out


LONG_ZH = (
    "我们公司现在想在内部上线一个知识库问答的服务，主要是给客服和销售同事用，大家平时会问一些产品参数、价格政策、"
    "合同条款之类的问题。目前的想法是用开源的大模型，比如通义千问的 Qwen2.5-32B，"
    "配合向量检索，把公司的文档都放进去。"
    "每天大概有三百个同事会用，同时在线的人不会太多，估计高峰的时候二三十个人一起问。每个问题加上检索出来的资料，"
    "输入大概四五千字，回答一般几百字就够了。我们手上没有现成的机器，打算去云上租卡，预算不是特别多，"
    "希望尽量省一点。想请教一下：如果用 vLLM 部署，选 L40S 还是 A100 比较合适？大概需要几张卡？每个月的费用"
    "大概是多少？另外如果以后用的人多了，扩容的时候要注意些什么？谢谢！"
)


def test_a_long_chinese_question_is_answered(capsys) -> None:
    assert len(LONG_ZH) >= 200 and not cjk_random(LONG_ZH)
    code, answer = _ask(capsys, LONG_ZH)
    assert code == 0 and answer["understood"] is not False
    assert answer["request"]["model"] == "Qwen2.5-32B" and answer["request"]["stage"] == "inference"


def test_long_chinese_prose_without_a_domain_word_is_not_noise() -> None:
    """Prose is full of common characters (的, 是, 了 …): never read as random whatever its subject."""
    prose = "今天天气很好，我们一家人去公园散步，看到了很多花，孩子们在草地上跑来跑去，大家都很开心。" * 5
    assert not cjk_random(prose)
    assert cjk_random(_ideographs(300, 7))
