"""Issue 23 item 7, start-up: ``sizing-bot ask`` no longer imports :mod:`logging` (~4-5 ms CPU) for the
loggers of the modules on its path (bot.lazylog); a lazy logger logs exactly as ``logging.getLogger``."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.lazylog import lazy_logger

ROOT = Path(__file__).resolve().parents[1]


def test_ask_imports_no_logging() -> None:
    probe = (
        "import sys; from bot.cli import main; code = main(['ask', '7B模型1万亿token要多少A100']); "
        "print(code, 'logging' in sys.modules, 'traceback' in sys.modules)"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("SIZING_BOT_")}
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "A100" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "0 False False"


def test_a_lazy_logger_records_as_the_real_one(caplog: pytest.LogCaptureFixture) -> None:
    log = lazy_logger("bot.test_lazylog")
    with caplog.at_level(logging.INFO, logger="bot.test_lazylog"):
        log.info("sized %s", "7B")
        try:
            raise ValueError("boom")
        except ValueError:
            log.exception("failed on %r", "x")
    first, second = caplog.records
    assert (first.name, first.levelname, first.getMessage()) == ("bot.test_lazylog", "INFO", "sized 7B")
    assert first.pathname == __file__ and first.funcName == "test_a_lazy_logger_records_as_the_real_one"
    assert second.levelname == "ERROR" and second.exc_info and second.exc_info[0] is ValueError
    assert log.isEnabledFor(logging.INFO) is logging.getLogger("bot.test_lazylog").isEnabledFor(logging.INFO)


def test_the_render_logger_warns_through_the_lazy_logger(caplog: pytest.LogCaptureFixture) -> None:
    from bot.render import notes

    with caplog.at_level(logging.WARNING, logger="bot.render"):
        notes.log.warning("no ledger text for reason %r", "k")
    [record] = caplog.records
    assert record.name == "bot.render" and record.pathname == __file__
