"""s36 fixh (issue 24): readers a design review found misreading.

1. A count is never a rent: a bare 万 after a count noun ('用户每天5万', '数据一个月1万') counts things,
   and 块 before a digit ('租2块4090') counts cards; a rent out of the price bounds is named as typed;
   '$50 per day each' after '2 GPUs' is a rent per GPU-day ($50 ÷ 24 = $2.0833).
"""

from __future__ import annotations

import pytest

from bot.parse.message import parse_one


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
