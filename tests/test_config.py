"""Issue 23 item 6: one settings model (bot/config.py) read by the CLI, the bot and ``health``.

Every variable the README documents is a field of the model and every field is in the README's
table; the names documented before the model keep working, as do the ``SIZING_BOT_<SECTION>_*``
names; no other module in ``bot/`` or ``estimator/`` reads ``os.environ``; a bad value ends with one
line naming the variable, through ``sizing-bot ask``, ``health`` and ``run``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.chat.ratelimit import Rate
from bot.cli import main
from bot.config import AppSettings, FeishuSettings, TelegramSettings, load_settings, readme_table, variables
from bot.settings.store import default_db_path
from bot.telegram.config import BotSettings
from tests.test_bounded_inputs import one_line, sizing_bot

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _table() -> str:
    return README.split("<!-- env-table:start -->\n", 1)[1].split("<!-- env-table:end -->", 1)[0]


def test_the_readme_table_is_the_models_table_both_ways() -> None:
    assert _table() == readme_table()
    documented = set(re.findall(r"^\| `([A-Z_]+)`", _table(), re.M))
    declared = {name for name, _, _, _ in variables()}
    assert documented == declared
    # every variable named anywhere in the README (outside the JSON contract) is declared
    named = set(re.findall(r"\b((?:SIZING_BOT|TELEGRAM|FEISHU)_[A-Z_]*[A-Z])\b", README))
    every_name = declared | {o for _, others, _, _ in variables() for o in others}
    assert named - every_name == set()
    assert {"TELEGRAM_BOT_TOKEN", "SIZING_BOT_DB", "SIZING_BOT_PRESALES", "LOG_LEVEL"} <= declared


def test_scripts_env_table_check_passes() -> None:
    done = subprocess.run([sys.executable, "scripts/env_table.py", "--check"], cwd=ROOT, check=False)
    assert done.returncode == 0


@pytest.mark.parametrize(
    ("name", "value", "read"),
    [
        ("TELEGRAM_BOT_TOKEN", "1:abc", lambda s: s.token()),
        ("SIZING_BOT_TELEGRAM_BOT_TOKEN", "1:abc", lambda s: s.token()),
        ("TELEGRAM_WEBHOOK_PORT", "8080", lambda s: str(s.webhook_port)),
        ("SIZING_BOT_TELEGRAM_WEBHOOK_PORT", "8080", lambda s: str(s.telegram.webhook_port)),
        ("SIZING_BOT_DB", "/tmp/x.sqlite3", lambda s: str(s.db_path)),
        ("SIZING_BOT_PRESALES", "p.toml", lambda s: str(s.presales_path)),
        ("SIZING_BOT_CJK_FONT", "/f.ttc", lambda s: s.cjk_font),
        ("LOG_LEVEL", "debug", lambda s: s.log_level.lower()),
        ("SIZING_BOT_LOG_LEVEL", "debug", lambda s: s.log_level.lower()),
        ("FEISHU_APP_ID", "cli_a1", lambda s: s.feishu.app_id),
        ("FEISHU_APP_SECRET", "1:abc", lambda s: s.feishu.app_secret.get_secret_value()),
        (
            "FEISHU_DOMAIN",
            "https://open.larksuite.com",
            lambda s: s.feishu.domain.removeprefix("https://open."),
        ),
    ],
)
def test_each_name_is_read(monkeypatch: pytest.MonkeyPatch, name: str, value: str, read) -> None:
    monkeypatch.setenv(name, value)
    got = read(load_settings(None))
    assert got in (value, value.removeprefix("https://open."))


def test_defaults_and_sections(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, others, _, _ in variables():
        for n in (name, *others):
            monkeypatch.delenv(n, raising=False)
    s = load_settings(None)
    assert BotSettings is AppSettings
    assert isinstance(s.telegram, TelegramSettings) and isinstance(s.feishu, FeishuSettings)
    assert (s.feishu.app_id, s.feishu.app_secret, s.feishu.domain) == (None, None, "https://open.feishu.cn")
    assert (s.token(), s.telegram_base_url, s.webhook_port) == (None, "https://api.telegram.org/bot", 8443)
    assert (s.user_rate, s.chat_rate, s.inline_rate) == (Rate(30, 60), Rate(20, 60), Rate(30, 30))
    assert "tok-42" not in repr(AppSettings(telegram_bot_token="tok-42", _env_file=None))


def test_a_setting_is_read_when_used_not_at_import(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SIZING_BOT_DB", str(tmp_path / "a.sqlite3"))
    assert default_db_path() == tmp_path / "a.sqlite3"
    monkeypatch.setenv("SIZING_BOT_DB", str(tmp_path / "b.sqlite3"))
    assert default_db_path() == tmp_path / "b.sqlite3"


def test_no_other_module_reads_the_environment() -> None:
    readers = []
    for folder in ("bot", "estimator"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.parent == ROOT / "bot" / "config":
                continue
            text = path.read_text(encoding="utf-8")
            if re.search(r"os\.environ|os\.getenv|getenv\(|environ\.get", text):
                readers.append(str(path.relative_to(ROOT)))
    assert readers == []


def test_ask_with_a_bad_variable_is_one_line_naming_it(tmp_path: Path) -> None:
    done = sizing_bot(["ask", "7B 1T tokens A100"], tmp_path, SIZING_BOT_TELEGRAM_WEBHOOK_PORT="eighty")
    assert done.returncode == 2
    assert one_line(done).startswith("error: SIZING_BOT_TELEGRAM_WEBHOOK_PORT='eighty': Input should be")


def test_ask_reads_the_presales_file_through_the_model(tmp_path: Path) -> None:
    offer = tmp_path / "offer.toml"
    offer.write_text('provider = "Acme GPU"\n[[gpu]]\nfamily = "A100"\nprice_cny_per_gpu_hour = 12\n')
    done = sizing_bot(
        ["ask", "--format", "json", "7B 1T tokens A100"], tmp_path, SIZING_BOT_PRESALES=str(offer)
    )
    assert done.returncode == 0, done.stderr
    assert '"provider": "Acme GPU"' in done.stdout


def test_health_names_a_bad_log_level(tmp_path: Path) -> None:
    done = sizing_bot(["health"], tmp_path, LOG_LEVEL="LOUD")
    assert done.returncode == 1
    assert one_line(done).startswith("unhealthy: LOG_LEVEL='LOUD': unknown log level 'LOUD'")


def test_run_names_a_bad_feishu_variable_without_the_secret(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SIZING_BOT_USER_RATE", "fast")
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "123:not-to-be-shown")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: SIZING_BOT_USER_RATE='fast': rate 'fast'")
    assert "not-to-be-shown" not in err


def test_every_declared_name_is_in_a_namespace_the_cheap_check_sees() -> None:
    from bot.config import NAMESPACES

    names = [n for name, others, _, _ in variables() for n in (name, *others)]
    assert names and all(n.upper().startswith(NAMESPACES) for n in names)


def test_ask_without_our_variables_does_not_load_pydantic_settings(tmp_path: Path) -> None:
    """Start-up (issue 23 item 7): pydantic-settings pulls in asyncio and dotenv; ``ask`` with none of
    our variables set never needs it, and with one set reads it through the model."""
    probe = (
        "import sys; from bot.cli import main; main(['ask', '7B 1T tokens A100']); "
        "print(sorted(m for m in ('pydantic_settings', 'asyncio', 'bot.config.model') if m in sys.modules))"
    )
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.upper().startswith(("SIZING_BOT_", "TELEGRAM_", "FEISHU_", "LOG_LEVEL"))
    }
    run = subprocess.run(
        [sys.executable, "-c", probe],
        env={**clean, "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert run.stdout.strip().splitlines()[-1] == "[]", run.stderr
    offer = tmp_path / "offer.toml"
    offer.write_text('provider = "P"\n[[gpu]]\nfamily = "A100"\nprice_cny_per_gpu_hour = 12\n')
    run = subprocess.run(
        [sys.executable, "-c", probe],
        env={**clean, "PYTHONPATH": str(ROOT), "SIZING_BOT_PRESALES": str(offer)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert "'bot.config.model'" in run.stdout.strip().splitlines()[-1], run.stderr


def test_sections_read_the_env_file_too(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in (
        "TELEGRAM_BOT_TOKEN",
        "FEISHU_APP_ID",
        "TELEGRAM_WEBHOOK_PORT",
        "SIZING_BOT_TELEGRAM_WEBHOOK_PORT",
    ):
        monkeypatch.delenv(name, raising=False)
    env = tmp_path / ".env"
    env.write_text("TELEGRAM_BOT_TOKEN=9:from-file\nFEISHU_APP_ID=cli_x\nSIZING_BOT_DB=/tmp/d.sqlite3\n")
    s = load_settings(env)
    assert (s.token(), s.feishu.app_id, str(s.db_path)) == ("9:from-file", "cli_x", "/tmp/d.sqlite3")
    env.write_text("SIZING_BOT_TELEGRAM_WEBHOOK_PORT=99999\n")
    with pytest.raises(ValueError, match=r"^TELEGRAM_WEBHOOK_PORT='99999': Input should be less than"):
        load_settings(env)
