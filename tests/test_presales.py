"""Pre-sales config: the example loads; every error names the file and the field."""

from __future__ import annotations

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
    p = write(tmp_path, 'provider = "X"\n[[gpu]]\nfamily = "A100"\nprice_cny_per_gpu_hour = 12\n'
                        '[[gpu]]\nfamily = "H300"\nprice_cny_per_gpu_hour = 20\n')
    with pytest.raises(PresalesError) as e:
        load_presales(p)
    msg = str(e.value)
    assert msg.startswith(f"{p}: gpu[1].family: unknown GPU 'H300' (did you mean H100, H200")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('provider = "X"\n[[gpu]]\nfamily = "A100"\n', "gpu[0]: needs price_cny_per_gpu_hour"),
        ('provider = "X"\n[[gpu]]\nfamily = "A100"\nprice_cny_per_gpu_hour = -3\n',
         "gpu[0].price_cny_per_gpu_hour: "),
        ('provider = "X"\n[[gpu]]\nfamily = "A100"\npirce_cny_per_gpu_hour = 3\n',
         "gpu[0].pirce_cny_per_gpu_hour: unknown field"),
        ('provider = "X"\ncurrency = "EUR"\n', "currency: "),
        ('provider = "X"\npreferred = ["H100", "A1000"]\n', "preferred[1]: unknown GPU 'A1000'"),
        ('currency = "CNY"\n', "provider: "),
        ('provider = ""\n', "provider: "),
        ('provider = "X"\ncontakt = "me"\n', "contakt: unknown field"),
        ('provider = "X"\n[[gpu]]\nfamily = "A100"\nprice_cny_per_gpu_hour = 1\n'
         '[[gpu]]\nfamily = "a100"\nprice_cny_per_gpu_hour = 2\n', "A100 is listed twice"),
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
