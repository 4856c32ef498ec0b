"""Round 35 zh (s39-r35zh, issue 24): the readers built for what r35work missed at its freeze, each a way
people write, tested on sentences of our own in both languages where it applies (must read, must not
misread)."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


def _answer(text: str) -> dict:
    return answer_json(text)


def _request(text: str) -> dict:
    return answer_json(text)["request"]


def _named(text: str) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer_json(text)["interpretation"]["ignored"]]


# 1. '全量模型' / '全量版' / '全量权重' served ('部署 … 的 BF16 全量模型'): the whole, unquantized model,
# not a full fine-tuning (before: '全量' made the question a full fine-tuning of the model it meant to
# serve).
@pytest.mark.parametrize(
    "text",
    [
        "想用 vLLM 在两张 RTX 3090 上部署 Qwen2.5-14B 的 BF16 全量模型，显存够用吗？",
        "部署 DeepSeek-R1 的全量版需要几张 H20？",
        "ollama 跑 qwen2.5 7b 全量模型，不量化，要多大显存",
        "Qwen2.5-32B 全量权重推理要几张 4090",
    ],
)
def test_whole_model_served_is_no_full_finetune(text: str) -> None:
    request = _request(text)
    assert request["stage"] == "inference"
    assert request.get("method") is None


@pytest.mark.parametrize(
    "text",
    [
        "全量微调 Qwen2.5-14B 要几张 A100？",
        "全量模型训练 7B 要多久，8 张 A100",
        "Qwen2.5-7B 全量版本微调要多少显存？",
        "7B 模型全量训练，8 张 A100 要多久",
    ],
)
def test_full_training_keeps_the_full_method(text: str) -> None:
    request = _request(text)
    assert request["stage"] in ("finetune", "pretrain")
    assert request["method"] in (None, "full")
    assert request["stage"] == "pretrain" or request["method"] == "full"


# 2. An RTX 20 card by its bare number before a card word ('我是 2080 的显卡', '2070 8G 的卡'): the card
# named as typed (RTX 2060 / 2070 / 2080 are not in the catalog; the 2080 Ti is), sized at the memory
# said, as a bare GTX 10 / 16 number already was (s38-r34zh).
@pytest.mark.parametrize(
    ("text", "card", "gib"),
    [
        ("训练时报 CUDA out of memory。我是 2080 的显卡，8G 显存，如何调整参数才能运行呢？", "2080", 8.0),
        ("2070 8G 的卡能跑 chatglm-6b 的 int4 吗", "2070", 8.0),
        ("用 2060 6G 显卡跑 qwen2.5 1.5b 推理", "2060", 6.0),
    ],
)
def test_bare_rtx20_number_is_a_card(text: str, card: str, gib: float) -> None:
    answer = _answer(text)
    assert answer["interpretation"]["unknown_gpu"] == card
    assert answer["request"]["gpu_memory_gib"] == gib


@pytest.mark.parametrize(
    "text", ["用 2080 条数据 LoRA 微调 qwen 7b 要多久", "训练 2060 步大概要多久，8 张 A100", "2070 年的模型"]
)
def test_a_bare_20xx_without_a_card_word_is_no_card(text: str) -> None:
    assert _answer(text)["interpretation"]["unknown_gpu"] is None


def test_the_2080_ti_stays_the_catalog_card() -> None:
    assert _request("我是 2080ti 的显卡，能跑 qwen 7b int4 吗")["gpu"] == "RTX-2080-Ti"


# 3. The reply's length with a token word and a limit word between ('输出 token 最长为 512', '输出 tokens
# 数最多 1024 个', 'output tokens at most 512'): each request's output length, as '输出长度 512' already
# was (before: the number left unread).
@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("本地部署 qwen2.5-7b，GPU 是一张 A100 40G，输出 token 最长为 512，推理一次要 10 秒正常吗？", 512),
        ("vllm 部署 qwen2.5-7b，输出 tokens 数最多 1024 个", 1024),
        ("部署 qwen2.5-7b，输出 token 最大 2048，要几张 4090", 2048),
        ("Serving qwen2.5-7b on one A100, output tokens at most 512", 512),
        ("Serving qwen2.5-7b with vLLM, output length up to 1024 tokens", 1024),
    ],
)
def test_reply_length_with_a_limit_word(text: str, n: int) -> None:
    answer = _answer(text)
    got = answer["request"].get("max_completion_length")
    assert got == n or (f"output_tokens: {n:,}", "output_in_context") in _named(text)


def test_a_longest_reply_measured_is_no_length() -> None:
    named = _named("部署 qwen2.5-7b，输出最长的那条请求用了 12 秒")
    assert not any(t.startswith("output_tokens") for t, _ in named)


# 4. 'lenght' for 'length' in a config key or in prose ('--model_max_lenght 4096', 'context lenght 8k'): a
# typo people write in real configs, read as the word (before: the value was left unread).
@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("用 LLaMA-Factory 微调 qwen2.5-7b，--model_max_lenght 4096", 4096),
        ("deepspeed 微调 14b 模型，--model_max_lenght=1638，4 台 8 卡 A800", 1638),
        ("fine-tune llama 3 8b with max_seq_lenght 3072 on 8 A100", 3072),
    ],
)
def test_lenght_is_length(text: str, n: int) -> None:
    assert _request(text)["seq_len"] == n


# 5. A speed asked with a modal and a question particle ('每秒能到 35 个 token 吗',
# '真的能每秒稳定输出超过 100 个 token 吗', 'can it reach 100 tokens/s?'): the rate asked for, a target,
# not a speed observed; an adverb between 每秒 and its verb ('每秒稳定输出') keeps the rate a rate.
@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("单卡 4090 跑 Qwen2.5-14B 每秒能到 35 个 token 吗？", 35),
        ("RTX 3060 上跑 qwen2.5-7b-instruct，真的能每秒稳定输出超过 100 个 token 吗？", 100),
        ("一张 4090 跑 qwen2.5-7b，能不能每秒稳定生成 50 个 token？", 50),
        ("Can one RTX 3060 running qwen2.5-7b reach 100 tokens/s?", 100),
    ],
)
def test_rate_asked_is_a_target(text: str, n: int) -> None:
    assert _request(text)["target_tokens_per_s"] == n


@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("现在每秒稳定输出 30 个 token，单卡 4090 跑 qwen2.5-7b，想提到 60，要几张卡？", "30"),
        ("单卡 4090 跑 Qwen2.5-14B 实测能到每秒 35 个 token，换 A100 呢", "35"),
        ("We get 18 tokens/s on one 3060 with qwen2.5-7b. Can two cards reach 40?", "18"),
    ],
)
def test_rate_measured_stays_observed(text: str, n: str) -> None:
    request = _request(text)
    assert request.get("target_tokens_per_s") != float(n)
    assert any(n in t and r == "observed" for t, r in _named(text))


# 6. Cards kept for serving or evaluation beside a training rig, counted in 台 ('另外买 50 台 RTX 4090
# 做推理', '另有 4 台 A100 做评测'): named as not used with their count, as '4 张 A100 做评测' already was
# (before: the count was left unread, or only part of the card's number was named).
@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("我们 8 张 A100 训 7B，另外买 50 台 RTX 4090 做推理，训练要多久？", "50 台 RTX 4090 做推理"),
        ("13B 全参微调，16 张 H100，另外 2 台 L40S 做推理，20B token 要多久", "2 台 L40S 做推理"),
        ("13B 全参微调，2 台 8 卡 H100，另有 4 台 A100 做评测，20B token 要多久", "4 台 A100 做评测"),
    ],
)
def test_serving_cards_in_tai_are_named(text: str, said: str) -> None:
    assert (said, "eval_cards") in _named(text)
    assert _request(text)["stage"] in ("finetune", "pretrain")


# 7. A finished run, then the job asked in the next clause of the same sentence ('8 块 4090 训练了 46
# 小时，请推测 一下用 3 张 A800 需要训练多久', '8 张 4090 跑了 10 小时，用 4 张 A100 要多久'): the job is
# the later clause's rig, timed from the run (bot.parse.past_then_now), as it was after a full stop or
# '换成'.
@pytest.mark.parametrize(
    ("text", "card", "count"),
    [
        (
            "用 8 块 4090 全参微调 qwen2.5-1.5b 训练了 46 小时，请推测一下用 3 张 A800 80 GB 需要训练多久？",
            "A800-80GB",
            3,
        ),
        ("LoRA 微调 qwen2.5-7b，8 张 4090 跑了 10 小时，用 4 张 A100 要多久？", "A100-SXM4-80GB", 4),
        ("全参微调 qwen2.5-1.5b，4 张 A100 训练了 20 小时，那用 8 张 H100 要多久？", "H100-SXM5-80GB", 8),
    ],
)
def test_job_after_a_run_in_the_same_sentence(text: str, card: str, count: int) -> None:
    request = _request(text)
    assert (request["gpu"], request["gpu_count"]) == (card, count)


@pytest.mark.parametrize(
    "text",
    ["8 张 A100 训练了 3 天，用了多少钱？", "用 8 张 A100 训练了 3 天 7B，用的是 LoRA，正常吗"],
)
def test_a_run_alone_keeps_its_cards(text: str) -> None:
    request = _request(text)
    assert (request["gpu"], request["gpu_count"]) == ("A100-SXM4-80GB", 8)
