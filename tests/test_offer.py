"""The provider's offer drives every answer (issue 18): the GPU chosen when none is named, the file's
prices and currency (and its exchange rate, with its date), 'not offered', cheapest among offered
GPUs, buttons, /gpus, the CLI and the JSON. Expected prices are the example file's numbers."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from bot.cli import main
from bot.core.conversation import Conversation
from bot.core.offer import pricing
from bot.core.pipeline import Context, answer
from bot.render.renderer import render
from bot.settings.presales import PresalesConfig, load_presales
from estimator.models import Currency

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "presales.example.toml"
H800 = "H800-SXM5-80GB"


@pytest.fixture(scope="module")
def offer() -> PresalesConfig:
    return load_presales(EXAMPLE)


def ask(text: str, presales: PresalesConfig | None, lang: str | None = None):
    return answer(text, Context(fixed_lang=lang), None, presales)  # type: ignore[arg-type]


def test_no_gpu_named_sizes_on_the_first_preferred_gpu_and_says_so(offer: PresalesConfig) -> None:
    a = ask("7B模型1万亿token要多少卡", offer)
    report = a.report
    assert report is not None and report.request.gpu == H800
    gpu_rows = [x for x in report.assumptions if x.field == "gpu"]
    assert [x.why for x in gpu_rows] == ["presales_gpu"]
    assert gpu_rows[0].params["provider"] == "Example GPU Cloud"
    # H800 is ordered in whole nodes (min_nodes = 1): the node price ¥168 ÷ 8 GPUs = ¥21 per GPU-hour
    assert report.cost.currency == Currency.CNY and report.cost.price_low == report.cost.price_high == 21
    assert report.cost.low == report.cost.billed_gpu_hours * 21
    text = render(a, "text")
    assert "未指定 GPU：按 Example GPU Cloud 报价中第一款放得下这个任务的卡" in text
    assert "Example GPU Cloud 报价：H800 ¥21/卡·时，¥168/台·时（8 卡），¥12,800/卡·月" in text
    assert "A100" not in text.split("假设与来源")[0].replace("3,072 张 A100", "")  # no public A100 figures


def test_the_first_preferred_gpu_that_fits_not_merely_the_first() -> None:
    """QLoRA of a 70B base needs ≈ 40 GB (NF4 weights 0.516 B/param): not one 24 GB RTX 4090, one H800."""
    offer = PresalesConfig.model_validate(
        {
            "provider": "P",
            "preferred": ["RTX 4090", "H800"],
            "gpu": [
                {"family": "RTX 4090", "price_cny_per_gpu_hour": 2},
                {"family": "H800", "price_cny_per_gpu_hour": 20},
            ],
        }
    )
    a = ask("QLoRA fine-tune a 70B model on one GPU", offer)
    assert a.report.request.gpu == H800 and a.offer.chosen and not a.offer.none_fits
    small = ask("QLoRA fine-tune a 7B model on one GPU", offer)
    assert small.report.request.gpu == "RTX-4090"  # the first preferred fits: it is the one
    only_small = PresalesConfig.model_validate(
        {"provider": "P", "gpu": [{"family": "RTX 4090", "price_cny_per_gpu_hour": 2}]}
    )
    none = ask("full fine-tune a 70B model on one GPU", only_small)
    assert none.report.request.gpu == "RTX-4090" and none.offer.none_fits
    assert [x.why for x in none.report.assumptions if x.field == "gpu"] == ["presales_gpu_none_fits"]


def test_the_other_currency_goes_through_the_files_rate_with_its_date(offer: PresalesConfig) -> None:
    a = ask("How many GPUs to pretrain a 7B model on 1T tokens, in USD?", offer)
    cost = a.report.cost
    assert cost.currency == Currency.USD
    assert cost.price_low == pytest.approx(21 / 7.2)  # ¥168 per 8-GPU node-hour at 7.2 CNY per USD
    assert a.sources["price_per_gpu_hour"] == "exchange"
    text = render(a, "text")
    assert "Example GPU Cloud's price of 21 CNY per GPU-hour at 7.2 CNY per USD (rate of 2025-06-01)" in text
    h20 = ask("How many H20 to pretrain a 7B model on 1T tokens, in USD?", offer)
    assert h20.report.cost.price_low == 1.4 and h20.sources["price_per_gpu_hour"] == "presales"  # its own USD


def test_a_named_gpu_not_offered_is_answered_and_marked(offer: PresalesConfig) -> None:
    a = ask("7B模型1万亿token要多少A100", offer)
    assert a.report.request.gpu == "A100-SXM4-80GB" and not a.offer.offered
    assert a.report.cost.price_low == 15 and a.report.cost.price_high == 30  # the public range
    assert (
        "A100 80G 不在 Example GPU Cloud 的报价中，按公开市场价估算。可选：H800，A800，H20，RTX 4090。"
        in render(a, "text")
    )


def test_cheapest_among_offered_and_the_details_follow_it(offer: PresalesConfig) -> None:
    a = ask("A100和H100和H800训练7B 1T token哪个便宜", offer)
    lines = render(a, "text").splitlines()
    # H100 costs less at public prices, but only H800 is offered: its GPU-hours × ¥21
    assert lines[0].startswith(
        f"整个任务总费用最低：H800，¥{a.report.cost.billed_gpu_hours * 21:,}（按 ¥21/卡·时，"
    )
    assert lines[1].startswith("• A100 80G（未提供）：") and lines[2].startswith("• H100 80G（未提供）：")
    assert lines[3].startswith("• H800：")
    assert a.report.request.gpu == H800 and lines[5].startswith("7B 预训练 1万亿 token ≈ ")
    assert "H800·时" in lines[5]


def test_comparisons_continue_with_the_cheapest_without_an_offer() -> None:
    a = ask("A100 vs H100 for 7B 1T tokens", None)
    lines = render(a, "text").splitlines()
    assert re.match(
        r"Lowest cost of the whole job: H100 80G, \$\d{1,3}(,\d{3})+ – \$\d{1,3}(,\d{3})+ "
        r"at \$1\.50–3\.50 per GPU-hour \(\d+ GPUs for ≈ \d+ days\)$",
        lines[0],
    )  # exact money
    assert lines[1].startswith("• A100 80G:") and lines[2].startswith("• H100 80G:")  # as named
    assert a.report.request.gpu.startswith("H100") and "H100-hours" in lines[4]


def test_buttons_offer_only_offered_gpus(offer: PresalesConfig) -> None:
    conv = Conversation(presales=offer)
    t = conv.ask(1, 1, "7B模型1万亿token要多少卡")
    assert conv.alternative_gpus(t) == ["A800-80GB", "H20-96GB", "RTX-4090"]
    named = conv.ask(1, 1, "7B模型1万亿token要多少A100")
    assert conv.alternative_gpus(named) == [H800, "A800-80GB", "H20-96GB"]


def test_serving_on_whole_nodes_bills_the_minimum_order(offer: PresalesConfig) -> None:
    """70B bf16 at the default 16 × 4K is served on 4 H800 (TP 4); H800 is ordered by the 8-GPU node."""
    a = ask("部署70B推理需要几张卡", offer)
    inf = a.report.inference
    assert a.report.request.gpu == H800 and inf.serving_gpus == 4
    p = pricing(a.report, a.offer)
    assert p.gpus == 8 and p.min_order_applied and p.period == "month"
    # issue 22 item 5 (the best price first): a service runs all month, so it is priced by the month —
    # ¥12,800 per GPU-month, below 730 h × ¥21 — and only the terms that beat that are listed
    assert p.subtotal_low == pytest.approx(8 * 12_800)  # was 8 × 730 h × ¥21 = ¥122,640
    assert [d.months for d in p.discounts] == [12] and p.discounts[-1].total == pytest.approx(
        8 * 730 * 21 * 0.75  # the term's discount is off the on-demand price (presales.example.toml)
    )
    assert p.monthly is not None and p.monthly.total == 8 * 12_800
    text = render(a, "text")
    assert "起租 1 台 8 卡：按 8 张计费，每月 ¥102,400" in text
    assert "包期 12 个月（按时价 −25%）：每月 ¥91,980" in text
    assert "包月：8 张 × 1 个月 × ¥12,800/卡·月 = ¥102,400" in text


def test_training_terms_apply_when_the_job_covers_them(offer: PresalesConfig) -> None:
    a = ask("7B模型1万亿token用32张H800要训多久", offer)  # ≈ 45,000–50,000 GPU-hours: 2 months on 32
    p = pricing(a.report, a.offer)
    assert p.days == pytest.approx(a.report.gpu_hours.likely / 32 / 24)
    assert 30 <= p.days < 90
    assert [d.months for d in p.discounts] == [1]  # the job covers a 1-month term, not a 3-month one
    assert p.discounts[0].total == pytest.approx(a.report.cost.low * 0.95)
    months = math.ceil(p.days / 30)
    assert p.monthly.months == months and p.monthly.total == 32 * months * 12_800


def test_cli_reads_the_offer_from_the_flag_or_the_environment(capsys, monkeypatch) -> None:
    code = main(["ask", "--presales", str(EXAMPLE), "--format", "json", "7B模型1万亿token要多少卡"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["request"]["gpu"] == H800
    assert data["offer"]["provider"] == "Example GPU Cloud" and data["offer"]["offered"] is True
    assert data["offer"]["pricing"]["subtotal_low"] == data["report"]["cost"]["low"]
    monkeypatch.setenv("SIZING_BOT_PRESALES", str(EXAMPLE))
    main(["ask", "7B模型1万亿token要多少卡"])
    assert "Example GPU Cloud 报价：H800" in capsys.readouterr().out
    monkeypatch.delenv("SIZING_BOT_PRESALES")
    main(["ask", "--format", "json", "7B模型1万亿token要多少卡"])
    plain = json.loads(capsys.readouterr().out)
    assert plain["offer"] is None and plain["request"]["gpu"] == "A100-SXM4-80GB"  # the seed, unchanged


def test_cli_stops_on_a_bad_offer_file_naming_the_field(capsys, tmp_path) -> None:
    bad = tmp_path / "offer.toml"
    bad.write_text('provider = "X"\n[[gpu]]\nfamily = "H800"\nprice_cny_per_gpu_hour = 20\nmin_nodes = 0\n')
    assert main(["ask", "--presales", str(bad), "7B 1T tokens"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {bad}: gpu[0].min_nodes: ")


def test_gpus_lists_the_offer_in_preferred_order_with_units(offer: PresalesConfig) -> None:
    from bot.chat.commands import gpus_text

    zh = gpus_text("zh", "CNY", presales=offer)
    order = [zh.index(f"<b>{name}</b>") for name in ("H800", "A800", "H20", "RTX 4090")]
    assert order == sorted(order)
    assert "¥21/卡·时 · ¥168/台·时（8 卡） · ¥12,800/卡·月" in zh and "¥12.50/卡·时" in zh
    assert "H100" not in zh and "per GPU-hour" not in zh
    en = gpus_text("en", "USD", presales=offer)
    assert "$2.92 per GPU-hour" in en and "Converted at 7.2 CNY per USD (rate of 2025-06-01)." in en
    catalog = gpus_text("en", "USD")
    first = [line.split()[0] for line in catalog.split("<pre>")[1].splitlines()[:2]]
    # issue 22 item 13: cards with a price in the currency first (then data-centre cards, fastest first)
    assert first == ["B200", "MI300X"]
