"""Part NC item 1: a price per million tokens is at the load the GPUs hold (issue 22 item 7) while the
speed lines show the assumed 16 sequences, so the price line names the throughput it assumes --
sequences and output tokens/s -- in every dialect, in Chinese and English, in the JSON report
(``priced_tokens_per_s``, an added field) and on the PDF quote, which prints the reply's headline.

The expected tokens/s is rebuilt from the estimator's decode roofline
(:func:`estimator.inference.decode_speed` at ``priced_concurrency`` sequences) and checked against the
price it must explain: per million = GPUs × price per GPU-hour / (tokens/s × 3600) × 10⁶."""

from __future__ import annotations

import io
import json
import re

import pytest
from pypdf import PdfReader

from bot.cli import main
from estimator import catalog
from estimator.inference import decode_speed
from estimator.ledger import Ledger, price_range
from estimator.models import Currency, SizingRequest

HEADLINE = {"en": " (≈ {tps} tokens/s in total)", "zh": "（合计约 {tps} token/s）"}
SUBLINE = {
    "en": "  priced at ≈ {tps} tokens/s in total ({batch} sequences)",
    "zh": "  计价按合计约 {tps} token/s（{batch} 条并发）",
}


def ask(capsys: pytest.CaptureFixture[str], question: str, fmt: str = "json", *extra: str) -> str:
    assert main(["ask", "--format", fmt, *extra, question]) == 0
    return capsys.readouterr().out


def bare(line: str) -> str:
    """A reply line without its dialect's markup (Telegram HTML tags, Markdown bold, hard breaks)."""
    return re.sub(r"<[^>]+>|\*\*|\\$", "", line)


def expected_tps(inf: dict, model: str, gpu_id: str, currency: Currency) -> float:
    """Output tokens/s at the priced load, from the roofline; asserts it explains the reply's price."""
    spec, gpu = catalog.model(model), catalog.gpu(gpu_id)
    params, batch = spec.params_total, inf["priced_concurrency"]
    assert inf["replicas"] == 1
    speed = decode_speed(
        spec, params, spec.params_active or params, gpu, inf["tp"], inf["bytes_per_param"],
        inf["kv_bytes_per_sequence"], batch, comm=True,
    )  # fmt: skip
    low, _, _, _ = price_range(SizingRequest(currency=currency), gpu, Ledger())
    per_million = inf["serving_gpus"] * low / (speed.aggregate * 3600.0) * 1e6
    assert inf["cost_per_million_tokens"]["low"] == pytest.approx(per_million, rel=1e-9)
    return speed.aggregate


@pytest.mark.parametrize(
    ("question", "lang", "currency"),
    [
        ("What does it cost per million tokens to serve Qwen2.5-72B on H100?", "en", Currency.USD),
        ("用H100部署Qwen2.5-72B，每百万token多少钱？", "zh", Currency.CNY),
    ],
)
def test_a_cost_headline_names_the_throughput_its_price_assumes(
    capsys: pytest.CaptureFixture[str], question: str, lang: str, currency: Currency
) -> None:
    d = json.loads(ask(capsys, question))
    inf = d["report"]["inference"]
    assert inf["concurrency"] == 16 and inf["priced_concurrency"] == inf["max_concurrency"] == 106
    tps = expected_tps(inf, "Qwen2.5-72B", d["request"]["gpu"], currency)
    assert inf["priced_tokens_per_s"] == pytest.approx(tps, rel=1e-9)
    assert inf["priced_tokens_per_s"] > 3 * inf["decode_tokens_per_s"]["aggregate"]  # not the 16's
    shown = HEADLINE[lang].format(tps=f"{round(tps):,}")
    assert shown == HEADLINE[lang].format(tps="2,311")
    head = d["reply"].splitlines()[0]
    assert "106" in head and head.endswith(shown)
    for fmt in ("text", "markdown", "telegram_html", "plain"):
        assert bare(ask(capsys, question, fmt).splitlines()[0]).endswith(shown), fmt


@pytest.mark.parametrize(
    ("question", "lang", "currency"),
    [("serve Qwen2.5-72B on 4 H100", "en", Currency.USD), ("4张H100部署Qwen2.5-72B", "zh", Currency.CNY)],
)
def test_the_cost_line_is_followed_by_the_load_it_is_priced_at(
    capsys: pytest.CaptureFixture[str], question: str, lang: str, currency: Currency
) -> None:
    d = json.loads(ask(capsys, question))
    inf = d["report"]["inference"]
    tps = expected_tps(inf, "Qwen2.5-72B", d["request"]["gpu"], currency)
    sub = SUBLINE[lang].format(tps=f"{round(tps):,}", batch=inf["priced_concurrency"])
    assert sub == SUBLINE[lang].format(tps="2,311", batch=106)
    for fmt in ("text", "markdown", "telegram_html", "plain"):
        lines = [bare(line) for line in ask(capsys, question, fmt).splitlines()]
        at = next(i for i, line in enumerate(lines) if line.startswith(("• Cost:", "• 费用：")))
        assert lines[at + 1] == sub, (fmt, lines[at : at + 2])


def test_a_stated_load_is_priced_at_its_own_throughput(capsys: pytest.CaptureFixture[str]) -> None:
    d = json.loads(ask(capsys, "serve Qwen2.5-72B on 4 H100 with 40 concurrent users"))
    inf = d["report"]["inference"]
    assert inf["priced_concurrency"] == 40
    assert inf["priced_tokens_per_s"] == inf["decode_tokens_per_s"]["aggregate"]  # the speed line's load
    tps = f"{round(expected_tps(inf, 'Qwen2.5-72B', d['request']['gpu'], Currency.USD)):,}"
    assert SUBLINE["en"].format(tps=tps, batch=40) in d["reply"].splitlines()


def test_the_pdf_quote_prints_the_throughput_with_the_price(
    capsys: pytest.CaptureFixture[str], tmp_path
) -> None:
    out = tmp_path / "quote.pdf"
    question = "What does it cost per million tokens to serve Qwen2.5-72B on H800?"
    reply = ask(capsys, question, "text", "--presales", "presales.example.toml", "--quote", str(out))
    shown = re.search(r"\(≈ [\d,]+ tokens/s in total\)$", reply.splitlines()[0])
    assert shown, reply.splitlines()[0]
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    page = re.sub(r"\s+", "", "\n".join(p.extract_text() for p in reader.pages))
    assert re.sub(r"\s+", "", f"at 106 concurrent, the most these GPUs hold {shown.group(0)}") in page


def test_comparison_rows_price_at_the_throughput_they_name(capsys: pytest.CaptureFixture[str]) -> None:
    question = "serve Qwen2.5-72B on H100 vs A100, cost per million tokens"
    rows = json.loads(ask(capsys, question))["reply"].splitlines()[1:3]
    assert rows[0].endswith("with 106, the most they hold (≈ 2,311 tokens/s in total)"), rows[0]
    # s26 trfix #3: A100 116 (V1's profile, one more sequence of room than V0's 115)
    assert rows[1].endswith("with 116, the most they hold (≈ 1,495 tokens/s in total)"), rows[1]
    zh = ask(capsys, "H100和A100部署Qwen2.5-72B对比，每百万token多少钱", "text").splitlines()[1]
    assert zh.endswith("（合计约 2,311 token/s）"), zh
