"""s36 fixh (issue 24): readers a design review found misreading.

1. A count is never a rent: a bare 万 after a count noun ('用户每天5万', '数据一个月1万') counts things,
   and 块 before a digit ('租2块4090') counts cards; a rent out of the price bounds is named as typed;
   '$50 per day each' after '2 GPUs' is a rent per GPU-day ($50 ÷ 24 = $2.0833).
"""

from __future__ import annotations

import io
from contextlib import redirect_stdout

import pytest

from bot.cli import main
from bot.parse.message import parse_one


def ask_text(question: str) -> str:
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["ask", "--format", "text", question]) == 0
    return buf.getvalue()


@pytest.mark.parametrize(
    "text",
    [
        "用户每天5万，用 Qwen2-7B 推理",
        "数据一个月1万，4张A100 训练 llama 7b",
        "请求每天2万，用 Qwen2-7B 推理",
        "每个月租2块4090，跑 Qwen2-7B 推理",
    ],
)
def test_a_count_is_no_rent(text: str) -> None:
    assert parse_one(text).request.price_per_gpu_hour is None


def test_two_cards_rented_keep_their_count() -> None:
    r = parse_one("每个月租2块4090，跑 Qwen2-7B 推理").request
    assert (r.gpu, r.gpu_count) == ("RTX-4090", 2)


def test_a_count_noun_keeps_its_number() -> None:
    r = parse_one("数据一个月1万，4张A100 训练 llama 7b").request
    assert (r.gpu, r.gpu_count) == ("A100-SXM4-80GB", 4)


@pytest.mark.parametrize(
    ("text", "price"),
    [
        ("3090一天50块，跑 Qwen2-7B 推理", 2.083),  # 50 ÷ 24 = 2.0833
        ("8卡A100服务器一个月3万，跑 Qwen2-72B 推理", 5.137),  # 30000 ÷ 8 ÷ 730 = 5.1370
        ("A100 每个月 3000 块钱，跑 Qwen2-7B 推理", 4.11),  # 3000 ÷ 730 = 4.1096
        ("I rent 2 GPUs for $50 per day each to serve Llama-3-8B", 2.083),  # 50 ÷ 24
        ("$1500 per GPU per month to serve Llama-3-8B", 2.055),  # 1500 ÷ 730 = 2.0548
    ],
)
def test_a_rent_with_a_money_word_is_read(text: str, price: float) -> None:
    assert parse_one(text).request.price_per_gpu_hour == pytest.approx(price, abs=1e-3)


def test_each_rent_keeps_the_gpus() -> None:
    r = parse_one("I rent 2 GPUs for $50 per day each to serve Llama-3-8B").request
    assert r.gpu_count == 2


def test_each_without_a_device_is_no_rent() -> None:
    assert (
        parse_one("we pay $50 per day each for two people to serve Llama-3-8B").request.price_per_gpu_hour
        is None
    )


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("4090每个月租金1块，跑 Qwen2-7B 推理", "每个月租金1块"),  # ¥1 ÷ 730 = 0.00137 < 0.01
        ("I rent GPUs at $0.1 per GPU per month to serve Llama-3-8B", "$0.1 per GPU per month"),
    ],
)
def test_a_rent_out_of_bounds_is_named_as_typed(text: str, typed: str) -> None:
    r = parse_one(text)
    assert r.request.price_per_gpu_hour is None
    assert r.unusable_numbers == [typed]


# 2. The typo reader never changes a right word: a singular or plural of the word, a name (capitalised
#    mid-sentence), a real word near the vocabulary; a real typo is still read.


def _typos(text: str) -> list[tuple[str, str]]:
    return [(t, w) for t, w, why in parse_one(text).bounds_read if why == "typo_read"]


@pytest.mark.parametrize(
    "text",
    [
        "serve a 7B parameter model for 100 users",
        "I'm at Emory, how much memory to serve Llama-3-8B",
        "We are at Emory and serve Llama-3-8B",
        "our server has 4 A100s: serve Llama-3-8B",
        "train Llama-3-8B, it trains on 1 token per step",
        "infer with Llama-3-8B, 1 user, 1 sample, 1 request",
        "a contest: serve Llama-3-8B with 8k context",
        "it was raining; retrain Llama-3-8B, the budge is small",
        "10 billon tokens to pretrain Llama-3-8B",
        "7B parameter 的模型推理，100 个用户",
        "在 Emory 部署 Llama-3-8B 推理",
    ],
)
def test_a_right_word_is_never_a_typo(text: str) -> None:
    assert _typos(text) == []


@pytest.mark.parametrize(
    "word", ["parameter", "emory", "server", "serve", "trains", "train", "token", "infer"]
)
def test_real_words_are_not_in_the_typo_table(word: str) -> None:
    from bot.parse.typo_words import TYPOS

    assert word not in TYPOS or word == "emory"  # 'emory' lower case is still memory; 'Emory' is a name


@pytest.mark.parametrize(
    ("text", "typo", "word"),
    [
        ("Serve Llama-3-8B for 50 usres", "usres", "users"),
        ("Meory: how much for Llama-3-8B inference", "Meory", "memory"),
        ("how much emory for Llama-3-8B inference", "emory", "memory"),
        ("Llama-3-8B 推理，contxt 8k", "contxt", "context"),
    ],
)
def test_a_real_typo_is_still_read(text: str, typo: str, word: str) -> None:
    assert _typos(text) == [(typo, word)]


def test_no_word_of_the_working_texts_is_a_typo() -> None:
    """The words of the working splits and the paraphrases are real words: none is in the typo table."""
    from bot.parse.typo_words import SPACES, TYPOS
    from tests.paraphrases import paraphrases
    from tests.real_questions import HELD_OUT_WHOLE, ROUNDS, records

    texts = [r["text"] for lang in ("en", "zh") for r in paraphrases(lang)]
    for split in ["work", *(f"{t}work" for t in ROUNDS if t not in HELD_OUT_WHOLE)]:
        texts += [r["text"] for r in records(split)]
    words = {w for t in texts for w in t.lower().translate(SPACES).split()}
    assert len(texts) > 1000 and not words & TYPOS.keys()


def test_two_cards_then_a_space_keep_their_count() -> None:
    r = parse_one("每个月租2块 4090，跑 Qwen2-7B 推理").request
    assert (r.price_per_gpu_hour, r.gpu, r.gpu_count) == (None, "RTX-4090", 2)


# 3. Two counts the user says both failed are no range to size within: the tried counts, a lower bound
#    (bot.parse.counts_tried): Qwen2-72B bf16 (145 GB of weights) on A100 80G: 2 cards hold the weights
#    but only 3 sequences of 4K (68.9 GiB of 71.3 GiB per card), so the answer is sized at 4 (TP=4).


@pytest.mark.parametrize(
    "text",
    [
        "单卡 A100 和双卡 A100 都会 OOM，Qwen2-72B 推理",
        "一张和两张 A100 也不行，Qwen2-72B 推理",
        "单卡和双卡都 OOM，A100，Qwen2-72B 推理",
        "one A100 or two both OOM serving Qwen2-72B",
        "I tried one A100 or two, both OOM serving Qwen2-72B",
        "1 A100 or 2 both crash when serving Qwen2-72B",
    ],
)
def test_both_counts_failed_are_tried_counts(text: str) -> None:
    r = parse_one(text)
    assert (r.request.gpu, r.request.gpu_count, r.request.gpu_count_max) == ("A100-SXM4-80GB", 1, 2)
    assert "gpu_counts_failed" in r.notes


@pytest.mark.parametrize(
    "text",
    [
        "单卡 4090 48g 和双卡 4090 48g 都一样，Qwen2-7B 推理",  # no failure: still the range
        "one T4 or two for Llama-3-8B inference",
        "1 A100 or 2, serve Qwen2-72B",
    ],
)
def test_a_choice_without_a_failure_stays_a_range(text: str) -> None:
    r = parse_one(text)
    assert (r.request.gpu_count, r.request.gpu_count_max) == (1, 2)
    assert "gpu_counts_failed" not in r.notes


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("单卡 A100 和双卡 A100 都会 OOM，Qwen2-72B 推理", "zh"),
        ("one A100 or two both OOM serving Qwen2-72B", "en"),
    ],
)
def test_both_failed_is_sized_above_them(text: str, lang: str) -> None:
    first = ask_text(text).splitlines()[0]
    assert ("4 张 A100 80G：放得下（TP=4）" if lang == "zh" else "on 4 × A100 80G: fits (TP=4)") in first
    assert "只有按你给的卡数上限" not in first
