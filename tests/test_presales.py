"""Pre-sales config: the example loads; every error names the file and the field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.settings.presales import PresalesError, load_presales, presales_from_env
from estimator.catalog import family_of as resolve_gpu_family
from estimator.models import Currency

REPO = Path(__file__).resolve().parent.parent


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "presales.toml"
    p.write_text(text, encoding="utf-8")
    return p


def test_example_file_loads() -> None:
    cfg = load_presales(REPO / "presales.example.toml")
    assert cfg.provider and cfg.currency == Currency.CNY and cfg.contact
    assert cfg.preferred == ["H800", "A800", "H20"]
    assert cfg.price("H20", Currency.USD) == 1.4 and cfg.price("H800", Currency.USD) is None
    assert cfg.price("RTX 4090", Currency.CNY) == 2.2
    assert cfg.price("B200", Currency.CNY) is None


def test_minimal_file_and_family_aliases(tmp_path: Path) -> None:
    text = 'provider = "X"\n[[gpu]]\nfamily = "4090"\nprice_usd_per_gpu_hour = 0.4\n'
    cfg = load_presales(write(tmp_path, text))
    assert cfg.currency == Currency.CNY and cfg.contact is None and cfg.preferred == []
    assert cfg.gpu[0].family == "RTX 4090"
    assert resolve_gpu_family("a100 80g") == "A100" and resolve_gpu_family("H300") is None


def test_unknown_gpu_names_the_file_field_and_suggestions(tmp_path: Path) -> None:
    p = write(
        tmp_path,
        'provider = "X"\n[[gpu]]\nfamily = "A100"\nprice_cny_per_gpu_hour = 12\n'
        '[[gpu]]\nfamily = "H300"\nprice_cny_per_gpu_hour = 20\n',
    )
    with pytest.raises(PresalesError) as e:
        load_presales(p)
    msg = str(e.value)
    # B300 (a catalog card since s30-fixd) is as close by spelling as H100 and H200
    assert msg.startswith(f"{p}: gpu[1].family: unknown GPU 'H300' (did you mean B300, H100, H200")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('provider = "X"\n[[gpu]]\nfamily = "A100"\n', "gpu[0]: needs price_cny_per_gpu_hour"),
        (
            'provider = "X"\n[[gpu]]\nfamily = "A100"\nprice_cny_per_gpu_hour = -3\n',
            "gpu[0].price_cny_per_gpu_hour: ",
        ),
        (
            'provider = "X"\n[[gpu]]\nfamily = "A100"\npirce_cny_per_gpu_hour = 3\n',
            "gpu[0].pirce_cny_per_gpu_hour: unknown field",
        ),
        ('provider = "X"\ncurrency = "EUR"\n', "currency: "),
        ('provider = "X"\npreferred = ["H100", "A1000"]\n', "preferred[1]: unknown GPU 'A1000'"),
        ('currency = "CNY"\n', "provider: "),
        ('provider = ""\n', "provider: "),
        ('provider = "X"\ncontakt = "me"\n', "contakt: unknown field"),
        (
            'provider = "X"\n[[gpu]]\nfamily = "A100"\nprice_cny_per_gpu_hour = 1\n'
            '[[gpu]]\nfamily = "a100"\nprice_cny_per_gpu_hour = 2\n',
            "A100 is listed twice",
        ),
        ('provider = "X\n', "not valid TOML"),
    ],
)
def test_errors_name_the_field(tmp_path: Path, text: str, expected: str) -> None:
    p = write(tmp_path, text)
    with pytest.raises(PresalesError) as e:
        load_presales(p)
    assert str(e.value).startswith(f"{p}: ")
    assert expected in str(e.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(PresalesError, match="cannot read"):
        load_presales(tmp_path / "nope.toml")


def test_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SIZING_BOT_PRESALES", raising=False)
    assert presales_from_env() is None
    monkeypatch.setenv("SIZING_BOT_PRESALES", str(REPO / "presales.example.toml"))
    assert presales_from_env().provider == "Example GPU Cloud"


def test_example_file_shows_every_option() -> None:
    """Every field of the schema appears in presales.example.toml (uncommented)."""
    from bot.settings.presales import Commitment, ExchangeRate, OfferedGpu, PresalesConfig

    text = (REPO / "presales.example.toml").read_text(encoding="utf-8")
    live = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    fields = set(PresalesConfig.model_fields) | set(ExchangeRate.model_fields) | set(Commitment.model_fields)
    fields |= {f for f in OfferedGpu.model_fields if "usd" not in f} - {"memory_gib"}
    missing = sorted(f for f in fields if not re.search(rf"^\s*\[*{f}\b", live, re.M))
    assert not missing, missing
    assert "memory_gib" in text and "price_usd_per_gpu_hour" in live  # documented / used


def test_richer_offer_prices() -> None:
    cfg = load_presales(REPO / "presales.example.toml")
    h800 = cfg.offered("H800")
    assert h800 is not None and h800.min_nodes == 1 and h800.gpus_per_node == 8
    assert h800.gpu_hour(Currency.CNY) == 168 / 8  # whole-node orders: the node price per GPU
    assert h800.gpu_month(Currency.CNY) == 12_800
    assert cfg.offered("A800").gpu_hour(Currency.CNY) == 12.5  # single GPUs: the GPU-hour price
    assert cfg.converted_price("H800", Currency.USD) == pytest.approx((21 / 7.2, 21))
    assert cfg.converted_price("H20", Currency.USD) is None  # it has its own USD price
    assert [c.months for c in cfg.commitments_for("H800")] == [1, 3, 12]
    assert [c.months for c in cfg.commitments_for("RTX 4090")] == [1, 3]  # the 12-month term names its GPUs
    assert cfg.families() == ["H800", "A800", "H20", "RTX 4090"]
    assert cfg.offered("H800").availability.text("en") == "32 nodes in stock, ready in 3 working days"
    only_month = load_presales_text(
        'provider = "X"\n[[gpu]]\nfamily = "A100"\nprice_usd_per_gpu_month = 730\n'
    )
    assert only_month.price("A100", Currency.USD) == 1.0  # 730 ÷ 730 hours


def load_presales_text(text: str):
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        return load_presales(write(Path(d), text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            'provider = "X"\n[[gpu]]\nfamily = "A100"\nprice_cny_per_gpu_hour = 12\nmemory_gib = 48\n',
            "gpu[0]: memory_gib: A100 comes with 40, 80 GiB, not 48",
        ),
        (
            'provider = "X"\n[[gpu]]\nfamily = "A100"\nprice_cny_per_node_hour = 0\n',
            "gpu[0].price_cny_per_node_hour: ",
        ),
        (
            'provider = "X"\n[[gpu]]\nfamily = "H800"\nprice_cny_per_gpu_hour = 20\nmin_nodes = 0\n',
            "gpu[0].min_nodes: ",
        ),
        (
            'provider = "X"\n[[gpu]]\nfamily = "H800"\nprice_cny_per_gpu_hour = 20\navailability = ""\n',
            "gpu[0].availability: ",
        ),
        (
            'provider = "X"\n[[gpu]]\nfamily = "H800"\nprice_cny_per_gpu_hour = 20\n'
            'availability = { zh = "现货", fr = "en stock" }\n',
            "gpu[0].availability.fr: unknown field",
        ),
        ('provider = "X"\n[exchange_rate]\ncny_per_usd = 7.2\n', "exchange_rate.as_of: "),
        (
            'provider = "X"\n[exchange_rate]\ncny_per_usd = -1\nas_of = 2025-06-01\n',
            "exchange_rate.cny_per_usd: ",
        ),
        (
            'provider = "X"\n[[commitment]]\nmonths = 3\ndiscount_percent = 120\n',
            "commitment[0].discount_percent: ",
        ),
        (
            'provider = "X"\n[[commitment]]\nmonths = 3\ndiscount_percent = 10\ngpus = ["H300"]\n',
            "commitment[0].gpus[0]: unknown GPU 'H300'",
        ),
        (
            'provider = "X"\n[[commitment]]\nmonths = 3\ndiscount_percent = 10\n[[commitment]]\nmonths = 3\n'
            "discount_percent = 12\n",
            "commitment[1]: a 3-month term is listed twice",
        ),
        (
            'provider = "X"\n[[commitment]]\nmonth = 3\ndiscount_percent = 10\n',
            "commitment[0].month: unknown field",
        ),
        ('provider = "X"\nquote_valid_days = 0\n', "quote_valid_days: "),
    ],
)
def test_richer_offer_errors_name_the_field(tmp_path: Path, text: str, expected: str) -> None:
    p = write(tmp_path, text)
    with pytest.raises(PresalesError) as e:
        load_presales(p)
    assert str(e.value).startswith(f"{p}: ")
    assert expected in str(e.value), str(e.value)
