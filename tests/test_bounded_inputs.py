"""Issue 30, item 2: every file the product reads is size-capped before it is read, and every setting
has a sane range; a bad one ends with one line naming it (exit non-zero), never a traceback.

Through the CLI (``python -m bot …`` as a child process where the process itself matters: /dev/zero,
a closed standard output; ``bot.cli.main`` in-process otherwise)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import EXIT_WRITE_FAILED, main
from bot.settings.presales import PresalesError, load_presales

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "7B 1T tokens A100"
OFFER = 'provider = "P"\n[[gpu]]\nfamily = "A100"\nprice_cny_per_gpu_hour = 12\n'
ZERO = Path("/dev/zero")
needs_dev_zero = pytest.mark.skipif(not ZERO.exists(), reason="needs /dev/zero")


def sizing_bot(
    args: list[str], tmp_path: Path, *, close_stdout: bool = False, **env: str
) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("SIZING_BOT_", "TELEGRAM_"))}
    clean.update(PYTHONPATH=str(ROOT), HOME=str(tmp_path), **env)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=not close_stdout,
        stderr=subprocess.PIPE if close_stdout else None,
        preexec_fn=(lambda: os.close(1)) if close_stdout else None,  # `>&-`
        env=clean,
        cwd=tmp_path,
        text=True,
        timeout=120,
    )


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr, done.stderr
    [line] = done.stderr.strip().splitlines()
    return line


# -- files read with a cap -----------------------------------------------------------------------
@needs_dev_zero
@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        (
            ["ask", "--presales", "/dev/zero", QUESTION],
            {},
            "error: /dev/zero: too large: over 1,000,000 bytes",
        ),
        (["health"], {"SIZING_BOT_PRESALES": "/dev/zero"}, "unhealthy: /dev/zero: too large"),
        (["validate", "--runs", "/dev/zero"], {}, "/dev/zero: too large: over 10,000,000 bytes"),
        (["ask", "--config", "/dev/zero", QUESTION], {}, None),
    ],
    ids=["ask--presales", "health-env", "validate--runs", "ask--config"],
)
def test_dev_zero_is_refused_before_it_is_read(
    tmp_path: Path, args: list[str], env: dict[str, str], expected: str | None
) -> None:
    done = sizing_bot(args, tmp_path, **env)
    assert done.returncode != 0 or expected is None
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr
    if expected is None:  # --config: the answer says the file is too large (the reply, not stderr)
        assert "too large" in done.stdout.lower() or "太大" in done.stdout, done.stdout[:500]
    else:
        assert expected in one_line(done)


def test_a_non_utf8_offer_file_is_one_line_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "offer.toml"
    bad.write_bytes(b'provider = "\xc4\xe3\xba\xc3"\n')  # "你好" in GBK
    done = sizing_bot(["ask", "--presales", str(bad), QUESTION], tmp_path)
    assert done.returncode == 2
    assert one_line(done) == f"error: {bad}: not UTF-8 text (byte 12); save it as UTF-8"


def test_validate_runs_with_the_wrong_shape_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = tmp_path / "runs.json"
    runs.write_text(json.dumps({"runs": "nope"}), encoding="utf-8")
    assert main(["validate", "--runs", str(runs)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: cannot read runs from {runs}: ") and err.count("\n") == 1


def test_ask_with_stdout_closed_is_one_line_and_exit_1(tmp_path: Path) -> None:
    done = sizing_bot(["ask", QUESTION], tmp_path, close_stdout=True)
    assert done.returncode == EXIT_WRITE_FAILED
    assert one_line(done) == "error: cannot write the answer: standard output is closed"


# -- .env and environment variables: `sizing-bot run` stops with one line ------------------------
@pytest.fixture
def run_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in list(os.environ):
        if name.startswith(("SIZING_BOT_", "TELEGRAM_")) or name == "LOG_LEVEL":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "123456:FAKE-TOKEN-abc")
    monkeypatch.setenv("TELEGRAM_BASE_URL", "http://127.0.0.1:9/bot")  # never reached
    monkeypatch.setenv("SIZING_BOT_DB", str(tmp_path / "settings.sqlite3"))
    return tmp_path


def run_line(capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    [line] = err.strip().splitlines()
    return line


def test_a_binary_env_file_stops_run_with_one_line(run_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (run_env / ".env").write_bytes(bytes(range(256)) * 4)
    assert run_line(capsys) == "error: .env: not UTF-8 text (byte 128); save it as UTF-8"


def test_a_huge_env_file_is_refused_before_it_is_read(
    run_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (run_env / ".env").write_text("# comment\n" * 20_000, encoding="utf-8")  # 200 kB
    assert run_line(capsys) == "error: .env: too large: over 100,000 bytes"


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("LOG_LEVEL", "LOUD", "error: LOG_LEVEL='LOUD': unknown log level 'LOUD'"),
        ("TELEGRAM_WEBHOOK_PORT", "99999", "error: TELEGRAM_WEBHOOK_PORT='99999': Input should be less than"),
        (
            "TELEGRAM_WEBHOOK_PORT",
            "eighty",
            "error: TELEGRAM_WEBHOOK_PORT='eighty': Input should be a valid integer",
        ),
        (
            "SIZING_BOT_USER_RATE",
            "fast",
            "error: SIZING_BOT_USER_RATE='fast': rate 'fast': write events/seconds",
        ),
        (
            "SIZING_BOT_CHAT_RATE",
            "999999999/1s",
            "rate '999999999/1s': at most 100,000 events in at most 24 hours",
        ),
        (
            "SIZING_BOT_INLINE_RATE",
            "5/0s",
            "error: SIZING_BOT_INLINE_RATE='5/0s': a rate needs at least 1 event",
        ),
    ],
)
def test_a_bad_variable_stops_run_with_one_line_naming_it(
    run_env: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    value: str,
    expected: str,
) -> None:
    monkeypatch.setenv(name, value)
    assert expected in run_line(capsys)


def test_a_bad_value_in_env_file_is_named_too(run_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (run_env / ".env").write_text("LOG_LEVEL=chatty\n", encoding="utf-8")
    assert run_line(capsys).startswith("error: LOG_LEVEL='chatty': unknown log level")


def test_health_with_a_bad_webhook_port_is_one_line(tmp_path: Path) -> None:
    done = sizing_bot(
        ["health"], tmp_path, TELEGRAM_WEBHOOK_URL="https://x.example/hook", TELEGRAM_WEBHOOK_PORT="eighty"
    )
    assert done.returncode == 1
    assert one_line(done) == "unhealthy: TELEGRAM_WEBHOOK_PORT='eighty': not a port (1-65535)"


# -- offer values have sane ranges -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            OFFER.replace("= 12", "= 1e308"),
            "gpu[0].price_cny_per_gpu_hour: Input should be less than or equal to 10000",  # one bound (NC 4)
        ),
        (
            OFFER + "price_usd_per_gpu_month = 1e300\n",
            "gpu[0].price_usd_per_gpu_month: Input should be less than",
        ),
        (
            OFFER + "price_cny_per_node_hour = 1e20\n",
            "gpu[0].price_cny_per_node_hour: Input should be less than",
        ),
        (OFFER + "min_nodes = 10000000000\n", "gpu[0].min_nodes: Input should be less than"),
        (
            OFFER.replace("= 12", "= 1e-300"),
            "gpu[0].price_cny_per_gpu_hour: Input should be greater than or equal to 0.01",
        ),
        (
            OFFER + "[exchange_rate]\ncny_per_usd = 1e-300\nas_of = 2025-06-01\n",
            "exchange_rate.cny_per_usd: Input should be greater than or equal to 0.01",
        ),
        (
            OFFER + "[exchange_rate]\ncny_per_usd = 1e300\nas_of = 2025-06-01\n",
            "exchange_rate.cny_per_usd: Input should be less than or equal to 1000",
        ),
    ],
    ids=[
        "gpu-hour-1e308",
        "gpu-month-1e300",
        "node-hour-1e20",
        "min-nodes",
        "gpu-hour-1e-300",
        "rate-1e-300",
        "rate-1e300",
    ],
)
def test_absurd_offer_values_are_refused_naming_the_field(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "offer.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PresalesError) as e:
        load_presales(path)
    assert f"{path}: {expected}" in str(e.value)
    done = sizing_bot(["ask", "--presales", str(path), QUESTION], tmp_path) if "1e308" in text else None
    if done is not None:  # and through the CLI: one line, exit 2
        assert done.returncode == 2 and one_line(done).startswith(
            f"error: {path}: gpu[0].price_cny_per_gpu_hour"
        )


def test_preferred_gpu_not_offered_is_ignored_with_a_warning_and_never_recommended(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "offer.toml"
    path.write_text('preferred = ["B200", "A100"]\n' + OFFER, encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        offer = load_presales(path)
    assert offer.preferred == ["A100"] and offer.families() == ["A100"]
    assert "preferred[0]: B200 is not offered" in caplog.text
    done = sizing_bot(["ask", "--presales", str(path), "--format", "json", "7B 1T tokens"], tmp_path)
    assert done.returncode == 0
    data = json.loads(done.stdout)
    assert data["request"]["gpu"].startswith("A100")
    assert "B200" not in done.stdout
    assert "B200 is not offered" in done.stderr


# -- item 1 (second half): offer text fields capped at validation ---------------------------------
@pytest.mark.parametrize(
    ("line", "field", "cap"),
    [
        ('contact = "{x}"', "contact", 500),
        ('provider = "{x}"', "provider", 200),
        ('website = "{x}"', "website", 200),
        ('quote_note = "{x}"', "quote_note.zh", 500),
    ],
)
def test_a_huge_offer_text_field_is_refused_naming_it(
    tmp_path: Path, line: str, field: str, cap: int
) -> None:
    """A 1,000,000-character contact made a PDF quote run for over 120 s (issue 30, item 1)."""
    text = OFFER.replace('provider = "P"\n', "") if field == "provider" else OFFER
    path = tmp_path / "offer.toml"
    path.write_text(line.format(x="x" * 900_000) + "\n" + text, encoding="utf-8")  # under the file cap
    with pytest.raises(PresalesError) as e:
        load_presales(path)
    assert f"{path}: {field}: String should have at most {cap} characters" in str(e.value)
    ok = tmp_path / "ok.toml"
    ok.write_text(line.format(x="x" * cap) + "\n" + text, encoding="utf-8")
    assert load_presales(ok)  # the cap itself is accepted


def test_a_million_character_contact_is_refused_when_built_in_code_too() -> None:
    from pydantic import ValidationError

    from bot.settings.presales import PresalesConfig

    with pytest.raises(ValidationError, match="contact"):
        PresalesConfig.model_validate({"provider": "P", "contact": "x" * 1_000_000})
