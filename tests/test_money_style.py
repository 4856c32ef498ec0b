"""Issue 22 item 9, one money style per reply, through the CLI. The rule (bot.render.fmt.needs_cents):
amounts are whole unless one of the reply's amounts is under 100, and then every amount and every unit
price of the reply has cents; a unit price keeps the cents it has beside whole amounts (it is what the
figures are computed from: ¥8.60 → ¥9 would misstate them by 5 %); both ends of a range share a style."""

from __future__ import annotations

import re
from pathlib import Path

from bot.cli import main

EXAMPLE = Path(__file__).resolve().parent.parent / "presales.example.toml"
MONEY = re.compile(r"(?:CN¥|¥|\$)\d[\d,]*(?:\.\d+)?(?:–\d[\d,]*(?:\.\d+)?)?")


def ask(capsys, *args: str) -> str:
    """The reply's visible part and offer lines: everything above the assumption ledger."""
    assert main(["ask", *args]) == 0
    out = capsys.readouterr().out
    return re.split(r"\n  (?:Assumptions and sources|假设与来源)\n", out)[0]


def test_a_reply_with_cents_writes_every_amount_and_price_with_cents(capsys) -> None:
    reply = ask(capsys, "--presales", str(EXAMPLE), "LoRA fine-tune Llama 3 8B on 10M tokens with H800")
    assert "• Cost: CN¥21.00 (1 GPU-hour × CN¥21.00 per GPU-hour)" in reply  # was "CN¥21.00 (… × CN¥21 …)"
    assert "H800 at CN¥21.00 per GPU-hour, CN¥168.00 per 8-GPU node-hour, CN¥12,800.00 per GPU-month" in reply
    assert "• Minimum order one 8-GPU node: runs on 8 GPUs, ≈ 3 minutes; billed 1 GPU-hour: CN¥21.00" in reply
    money = MONEY.findall(reply)
    assert len(money) >= 6 and all(re.search(r"\.\d\d$", m) for m in money), money


def test_chinese_cents_reply_prices_its_range_with_cents(capsys) -> None:
    reply = ask(capsys, "LoRA微调Qwen2.5-7B，5000万token，2张A100")
    # was "¥15–30" beside ¥60.00; s25 #17: the 3.4 GPU-hours shown above are named beside the 4 billed
    # (2 cards since s35-fixa #1: on 8 each card bills its first hour, 8 card-hours, ¥120 – ¥240, no cents)
    assert (
        "• 费用：¥60.00 – ¥120.00（用 3.4 卡·时，不足一小时按一小时计费：4 卡·时 × ¥15.00–30.00/卡·时）"
        in reply
    )
    assert all(re.search(r"\.\d\d$", m) for m in MONEY.findall(reply)), MONEY.findall(reply)


def test_both_ends_of_a_price_range_in_one_style(capsys) -> None:
    reply = ask(capsys, "LoRA fine-tune Llama 3 70B on 1B tokens on 8 B200")
    assert "× $3.75–6.00 per GPU-hour)" in reply and "$3.75–6 " not in reply  # catalog B200: $3.75–6


def test_whole_amounts_beside_a_unit_price_that_has_cents(capsys) -> None:
    reply = ask(
        capsys,
        "--presales",
        str(EXAMPLE),
        "Qwen2.5-72B 推理部署，200 并发，8K 上下文，要多少卡？每月多少钱？",
    )
    # issue 25 item 3: the TP-8 all-reduce over NVLink is charged (¥8.60 before); the fitted serving
    # efficiencies (MFU 0.675, bandwidth 0.50; ¥10.07 at the old 0.5 / 0.7)
    assert "；每月 ¥204,800；200 条并发时每百万输出 token ¥13.51" in reply.splitlines()[0]
    unit = re.compile(r"(?:/卡·[时月]|每百万输出 token |Price|单价)")  # a price per unit, not an amount

    def is_price(line: str, m: str) -> bool:
        at = line.index(m)
        return bool(
            unit.search(line[at + len(m) : at + len(m) + 5]) or unit.search(line[max(0, at - 16) : at])
        )

    amounts = [m for line in reply.splitlines() for m in MONEY.findall(line) if not is_price(line, m)]
    assert "¥204,800" in amounts and "¥183,960" in amounts
    assert not [m for m in amounts if "." in m], amounts  # every amount whole; ¥8.60 is a price
