"""What every chat platform's test harness shares: the real ``sizing-bot run`` process started
against a loopback fake with only that platform configured, and polling for what it did.

tests/feishu_run.py, tests/wecom_run.py and tests/dingtalk_run.py add the platform's variables and
what its fake records; the process, its environment and its log are handled here once.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
OFFER = REPO / "presales.example.toml"
PROXY_VARS = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")
PLATFORM_PREFIXES = ("TELEGRAM_", "FEISHU_", "WECOM_", "DINGTALK_")
"""Every platform's variables are dropped from the inherited environment: one platform per bot."""
READY_S = 90.0
"""Backstop for a started bot to be ready (its connection open): ~1 s on an idle 2-core machine; once in
CI (stop 74, four workers on two cores beside Chromium and PDF tests) no line in 30 s. A bot not ready in
time dumps every thread's stack (faulthandler on SIGABRT) into its log, printed with the failure."""
QUOTE_S = 120.0
"""Backstop for a quote PDF to arrive (the tests wait for the file itself): a first quote in a fresh
process took 13 s on a loaded 2-core machine (CJK font subsetting), and CI's 20-30 s ran out."""


def wait(predicate: Callable[[], Any], timeout: float = 20.0, what: str = "condition") -> Any:
    """Poll ``predicate`` until it is truthy; fails the test after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not met within {timeout} s")
        time.sleep(0.02)


def platform_env(tmp: Path, platform: dict[str, str], extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a one-platform bot: ``platform``'s variables, no other platform's, no
    proxies, its own settings DB in ``tmp``, DEBUG logs; ``extra`` last (it may override)."""
    env = {k: v for k, v in os.environ.items() if k not in PROXY_VARS and not k.startswith(PLATFORM_PREFIXES)}
    env.update(platform)
    env.update(SIZING_BOT_DB=str(tmp / "settings.sqlite3"), LOG_LEVEL="DEBUG", NO_PROXY="*")
    env.update(PYTHONFAULTHANDLER="1")  # a hung bot's stacks on SIGABRT (running_process)
    for name in ("SIZING_BOT_PRESALES", "SIZING_BOT_HEARTBEAT"):
        env.pop(name, None)
    env.update(extra or {})
    return env


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _print_log_tail(log: Path, *, debug: bool = False) -> None:
    lines = log.read_text().splitlines()
    if debug:  # a bot that never got ready: what it did last, and the stacks faulthandler dumped
        print("bot log, last 80 lines:", *lines[-80:], sep="\n")
        return
    tail = [line for line in lines if " DEBUG " not in line]
    print("bot log (no DEBUG lines), last 40:", *tail[-40:], sep="\n")


class NotReady(AssertionError):
    """A started bot that did not get ready within :data:`READY_S`."""


def _dump_stacks(proc: subprocess.Popen[str]) -> None:
    """SIGABRT a bot that is still running: PYTHONFAULTHANDLER writes every thread's stack to its log."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGABRT)
        with suppress(subprocess.TimeoutExpired):
            proc.wait(5)


@contextmanager
def running_process(
    env: dict[str, str], tmp: Path, ready: Callable[[], bool] | None, what: str, *, offer: bool = False
) -> Iterator[subprocess.Popen[str]]:
    """``python -m bot run`` in ``tmp`` (no .env) with ``env``, logging to ``tmp/bot.log``; yielded
    once ``ready()`` holds (skipped when None), stopped with SIGTERM. A failing test prints the log's
    last lines (DEBUG left out)."""
    if offer:
        env = {**env, "SIZING_BOT_PRESALES": str(OFFER)}
    log_path = tmp / "bot.log"
    log = log_path.open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "run"],
        cwd=tmp,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        if ready is not None:
            _wait_ready(proc, ready, what, log_path)
        yield proc
    except AssertionError as exc:
        log.flush()
        if not isinstance(exc, NotReady):  # its log is printed already, stacks included
            _print_log_tail(log_path)
        raise
    finally:
        _stop(proc)
        log.close()


def _wait_ready(proc: subprocess.Popen[str], ready: Callable[[], bool], what: str, log_path: Path) -> None:
    try:
        wait(lambda: ready() or proc.poll() is not None, READY_S, what)
    except AssertionError:
        _dump_stacks(proc)
        _print_log_tail(log_path, debug=True)
        raise NotReady(f"{what} not met within {READY_S} s (log and stacks above)") from None
    assert proc.poll() is None, log_path.read_text()
