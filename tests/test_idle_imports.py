"""Issue 23 item 7, the idle bot's memory: the Telegram application is built without PTB's tornado
webhook server (the bot serves its webhook with bot.telegram.webhook) and without httpx's command line
(click, rich, pygments), ~4.3 MiB of the idle RSS together; PTB's own server comes back on request."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BUILT = """
import sys
import bot.telegram.app as tg
from bot.telegram.config import BotSettings
from telegram.ext import _updater
tg.build_application(BotSettings(telegram_bot_token="1:x", _env_file=None))
left_out = {"tornado", "click", "rich", "pygments", "multiprocessing"}
loaded = sorted({m.split(".")[0] for m in sys.modules} & left_out)
print(",".join(loaded) or "-", _updater.WEBHOOKS_AVAILABLE, "httpx" in sys.modules)
from bot.telegram import enable_ptb_webhook_server
print(enable_ptb_webhook_server(), _updater.WEBHOOKS_AVAILABLE, "tornado" in sys.modules)
"""


def test_the_idle_application_loads_no_tornado_and_no_httpx_command_line() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SIZING_BOT_", "TELEGRAM_", "FEISHU_"))}
    done = subprocess.run(
        [sys.executable, "-c", BUILT],
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    built, enabled = done.stdout.splitlines()
    assert built == "- False True"  # httpx itself is there (PTB's client), its CLI and tornado are not
    assert enabled == "True True True"  # PTB's start_webhook works again once asked for


def test_the_settings_and_the_heartbeat_import_no_telegram() -> None:
    """bot.telegram's package imports nothing of PTB: the settings and the heartbeat (which every platform's
    run imports) stay free of it, as they were."""
    code = "import sys, bot.config.model, bot.telegram.heartbeat; print('telegram' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and done.stdout.strip() == "False", done.stderr[-2000:]
