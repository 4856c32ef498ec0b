"""Session 36 fixa: prices, numbers and noise a fresh-user trial found (issue 24).

#1 A price per hour glued to the card's model number ('4090一小时2块钱') stays the card and the price.
#2 A price per hour in words ('每小时8块钱', '8块一小时', '$2 an hour per GPU', '2 USD/GPU-hr') is read.
#3 A rent per day is the price per GPU-hour × 24; a month is 730 hours (8,760 h a year ÷ 12); a server's
   monthly rent is shared by its cards (÷ N × 730): read as a price, said in the reply, never a count or a
   budget.
#5 A network port ('-p 8080:80', '--port 8000', '端口 8080') is named as not used: 'network_port'.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from typing import Any

import pytest

from bot.cli import main
from bot.parse import parse
from bot.parse.network_ports import network_ports
from bot.parse.period_prices import period_prices


def ask_text(question: str) -> str:
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["ask", "--format", "text", question]) == 0
    return buf.getvalue()


def ask_json(question: str) -> dict[str, Any]:
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["ask", "--format", "json", question]) == 0
    return json.loads(buf.getvalue())


# ---- #1 and #2: a price per hour, glued to the card or in words -------------------------------------


@pytest.mark.parametrize(
    ("question", "gpu", "price"),
    [
        ("4090一小时2块钱，qwen2.5-7b qlora 5万条 多少钱", "RTX-4090", 2.0),
        ("4090每小时2元，qwen2.5-7b qlora 5万条 多少钱", "RTX-4090", 2.0),
        ("A100每小时8块钱，qwen2.5-7b lora 10万条数据多少钱", "A100-SXM4-80GB", 8.0),
        ("H100一小时20块，qwen2.5-7b lora 10万条", "H100-SXM5-80GB", 20.0),
        ("qwen2.5-7b lora 10万条数据 A100 8块一小时 多少钱", "A100-SXM4-80GB", 8.0),
        ("qlora qwen2.5-7b 50k samples on A100, $2 an hour per GPU, cost?", "A100-SXM4-80GB", 2.0),
        ("qlora qwen2.5-7b 50k samples on A100, 2 USD/GPU-hr, cost?", "A100-SXM4-80GB", 2.0),
        ("qlora qwen2.5-7b 50k samples on 4090, 2 dollars an hour, cost?", "RTX-4090", 2.0),
    ],
)
def test_price_per_hour_is_the_cards_price(question: str, gpu: str, price: float) -> None:
    r = parse(question).request
    assert r.gpu == gpu
    assert r.price_per_gpu_hour == price
    assert r.gpu_count in (None, 1)  # the price is never a count


def test_glued_price_sizes_on_the_card_and_bills_at_the_price() -> None:
    text = ask_text("4090一小时2块钱，qwen2.5-7b qlora 5万条 多少钱")
    assert "RTX 4090" in text.splitlines()[0]
    assert "40902" not in text
    # 9.1 card-hours billed as 10 whole hours × ¥2.00 = ¥20.00 (the spaced form's answer)
    assert "费用：¥20.00" in text
    assert "10 卡·时 × ¥2.00/卡·时" in text


def test_price_in_words_is_used_not_the_default_range() -> None:
    d = ask_json("A100每小时8块钱，qwen2.5-7b lora 10万条数据多少钱")
    assert d["request"]["price_per_gpu_hour"] == 8.0
    assert d["request"]["currency"] == "CNY"
    text = ask_text("A100每小时8块钱，qwen2.5-7b lora 10万条数据多少钱")
    assert "费用：¥32.00" in text  # 3.5 GPU-hours billed as 4 × ¥8.00


def test_budget_per_hour_stays_a_budget() -> None:
    # a budget word before the amount: not a price (bot.parse.budget_period)
    assert parse("预算每小时100元，A100 训练 7b 1T token").request.price_per_gpu_hour is None


# ---- #3: a rent per day or per month -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "price", "reason"),
    [
        ("3090一天50块，qwen2.5-7b lora 10万条 多少钱", 2.083, "price_per_day"),  # 50 ÷ 24 = 2.0833
        ("3090 每天 50 元，qwen2.5-7b lora 10万条 多少钱", 2.083, "price_per_day"),
        ("3090 50元/天 qwen2.5-7b lora 10万条", 2.083, "price_per_day"),
        ("A100 一个月3000块 7b lora 10万条", 4.11, "price_per_month"),  # 3000 ÷ 730 = 4.1096
        ("8卡A100服务器一个月3万，部署qwen2.5-72b", 5.137, "price_per_server_month"),  # 30000 ÷ 5840
        ("qwen2.5-7b lora on A100 at $48 per GPU per day, cost?", 2.0, "price_per_day"),  # 48 ÷ 24
        ("qwen2.5-7b lora on A100 at $1460/GPU/month, cost?", 2.0, "price_per_month"),  # 1460 ÷ 730
    ],
)
def test_rent_per_period_is_a_price_per_gpu_hour(question: str, price: float, reason: str) -> None:
    p = parse(question)
    assert p.request.price_per_gpu_hour == price
    assert reason in [r for _, _, r in p.bounds_read]


def test_rent_per_day_is_never_a_count_or_a_budget() -> None:
    p = parse("3090一天50块，qwen2.5-7b lora 10万条 多少钱").request
    assert p.gpu == "RTX-3090"
    assert p.gpu_count is None  # before: 50 张 RTX 3090
    assert p.budget is None  # before: a ¥50 budget ('3090 每天 50 元')
    assert parse("3090 每天 50 元，qwen2.5-7b lora 10万条").request.budget is None


def test_rent_conversion_is_said_in_both_languages() -> None:
    zh = ask_text("3090一天50块，qwen2.5-7b lora 10万条 多少钱")
    assert "把“一天50块”理解为每卡每天的租金：按 ¥2.08/卡·时计（÷ 24 小时）。" in zh
    server = ask_text("8卡A100服务器一个月3万，部署qwen2.5-72b")
    assert "按 ¥5.14/卡·时计（÷ 卡数 × 730 小时" in server
    assert "8卡A100服务器一个月3万" in server  # as typed, not lower-cased
    en = ask_text("qwen2.5-7b lora 100k samples on A100 at $48 per GPU per day, cost?")
    assert "Read “$48 per GPU per day” as a rent per GPU per day: $2.00 per GPU-hour (÷ 24 hours)." in en
    d = ask_json("3090一天50块，qwen2.5-7b lora 10万条 多少钱")
    read = {"typed": "一天50块", "used": "¥2.08", "reason": "price_per_day"}
    assert read in d["interpretation"]["substitutions"]


@pytest.mark.parametrize(
    "text",
    [
        "一个月3万条数据 微调 7b",  # a count of samples in a month: no money word
        "每天 50 条请求",  # a volume
        "训练 3 天，8 张 a100",  # a deadline
        "预算每天50元",  # a budget per day (bot.parse.budget_period)
        "每天处理 5万 token",
        "rent 8 h100 for a month",
    ],
)
def test_not_a_rent(text: str) -> None:
    assert period_prices(text) == text


# ---- #5: network ports --------------------------------------------------------------------------------


def test_ports_read() -> None:
    assert network_ports("docker run -p 8080:80 vllm") == {"8080": "network_port", "80": "network_port"}
    assert network_ports("vllm serve x --port 8000") == {"8000": "network_port"}
    assert network_ports("serve on port 8000 with 2 gpus") == {"8000": "network_port"}
    assert network_ports("端口 8080, 部署") == {"8080": "network_port"}
    assert network_ports("端口号是9000") == {"9000": "network_port"}


@pytest.mark.parametrize(
    "text", ["-p 8 gpus", "8 张卡, 端口 2 张卡", "support 8 gpus", "export 8000 tokens", "report 8000 steps"]
)
def test_not_a_port(text: str) -> None:
    assert network_ports(text) == {}


@pytest.mark.parametrize(
    ("question", "ports"),
    [
        (
            "docker run --gpus all -p 8080:80 --ipc=host vllm/vllm-openai --model Qwen/Qwen2.5-7B-Instruct "
            "on 1 H100 how many users",
            ["8080", "80"],
        ),
        ("serve qwen2.5-7b on port 8000 with 2 A100, how many users", ["8000"]),
        ("端口 8080，部署 qwen2.5-7b 在 1 张 4090，多少并发", ["8080"]),
        ("用 vllm 部署 qwen2.5-7b，--port 8000 --host 0.0.0.0，1 张 4090 能撑多少并发", ["8000"]),
    ],
)
def test_port_named_as_not_used(question: str, ports: list[str]) -> None:
    d = ask_json(question)
    ignored = {i["text"]: i["reason"] for i in d["interpretation"]["ignored"]}
    assert all(ignored.get(p) == "network_port" for p in ports), ignored
    text = ask_text(question)
    assert ("a network port: it does not change the GPUs, memory or time" in text) or (
        "网络端口：不影响卡数、显存和时长" in text
    )


# ---- #4: typos of the words that decide the answer ---------------------------------------------------


def test_typo_of_users_gives_the_users_answer() -> None:
    typo = ask_text("lamma3 70b infrence on 4 a100 how many usres")
    right = ask_text("llama3 70b inference on 4 a100 how many users")
    # the same first line: 119 concurrent sequences at 4K (before: 16 users assumed)
    assert typo.splitlines()[0] == right.splitlines()[0]
    assert "up to 119 concurrent sequences" in typo.splitlines()[0]
    assert "Read “usres” as “users”." in typo
    assert "Read “infrence” as “inference”." in typo
    d = ask_json("lamma3 70b infrence on 4 a100 how many usres")
    assert {"typed": "usres", "used": "users", "reason": "typo_read"} in d["interpretation"]["substitutions"]


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("how many usres", [("usres", "users")]),  # two letters swapped
        ("how many concurent users?", [("concurent", "concurrent")]),  # a letter left out
        ("contxt 32k", [("contxt", "context")]),
        ("trainning 7b", [("trainning", "training")]),  # a letter doubled
        ("infrence, on 2 gpus", [("infrence", "inference")]),
        ("thorughput of llama 8b", [("thorughput", "throughput")]),
    ],
)
def test_typos_read(text: str, read: list[tuple[str, str]]) -> None:
    from bot.parse.typo_words import typos_in

    assert typos_in(text) == read


@pytest.mark.parametrize(
    "text",
    [
        "how many users, usres",  # the word itself is there: the other is left as typed
        "retrain a 7b model",  # a word of its own, one letter from 'pretrain'
        "it was raining",  # 'training' less a letter: a word
        "uses 4 gpus",  # under 5 letters
        "a token budget",  # words themselves
        "throughtput",  # two edits: not read
        "served at 8 rps",
    ],
)
def test_near_words_not_changed(text: str) -> None:
    from bot.parse.typo_words import typos_in, without_typos

    assert typos_in(text) == []
    assert without_typos(text) == text


# ---- #6: absurd sizes in scientific form -------------------------------------------------------------


def test_huge_figures_in_scientific_form() -> None:
    from bot.render.fmt import fmt_for

    en = fmt_for("en")
    assert en.hours(601_615_216_533_349) == "6.02×10¹⁴"
    assert en.hours(999_999_999_999) == "999,999,999,999"  # under a trillion: grouped, as before
    assert en.money(902_422_824_800_024, "USD") == "$9.02×10¹⁴"
    assert en.money(1_402_245, "USD") == "$1,402,245"
    assert fmt_for("zh").money(9.02e15, "CNY") == "¥9.02×10¹⁵"


def test_absurd_job_no_fifteen_digit_figures() -> None:
    text = ask_text("train a 100T model on 1e18 tokens with 3 H100s")
    # C = 6ND = 6 × 1e14 × 1e18 = 6×10³²; GPU-hours 6.02×10¹⁴ at 28 % MFU
    assert "C = 6ND = 6×10³² FLOPs" in text
    assert "6.02×10¹⁴ H100-hours" in text
    assert "$902,422,824,800,024" not in text
    assert "$9.02×10¹⁴" in text


def test_beyond_a_sane_range_is_said_after_the_headline() -> None:
    # s36 fixe #2: on the headline's own line (line one), after the headline's sentence
    head = ask_text("train a 100T model on 1e18 tokens with 3 H100s").splitlines()[0]
    model_at = head.index(" A model of 100T parameters is far beyond any real one")
    assert 0 < model_at < head.index(" 1×10¹⁸ tokens is far beyond any real dataset")
    zh = ask_text("训练 100T 模型，1e18 token，3 张 H100，多少钱")
    assert "100T 参数的模型远超任何真实模型" in zh
    # a real job says nothing of the kind: 70B (< 10T parameters) on 15T tokens (< 10¹⁵)
    real = ask_text("train a 70B model on 15T tokens with 2048 H100s")
    assert "far beyond" not in real
