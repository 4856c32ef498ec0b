"""Issue 17, failure 6: no secret in any log line; a start-up failure is one line (a try, FIX2).

One redaction (:mod:`bot.chat.secrets`) for every log record -- message, arguments, traceback
with chained exceptions -- and every one-line error ``run`` prints: the token, the webhook secret,
and proxy credentials in any URL form, malformed ones included. ``sizing-bot run`` with no network
prints one line (the traceback only at LOG_LEVEL=DEBUG). No network: loopback, closed ports only.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.chat.secrets import REDACTOR, protect_token, proxy_passwords

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "987654321:PROBEsecretTOKEN_xyz0123456789abcdef"
PASSWORD = "s3cretPass"

URL_FORMS = [
    f"http://user:{PASSWORD}@proxy.example:3128",
    f"http://user:{PASSWORD}@[bad",
    f"socks5://user:{PASSWORD}@[::1",
    f"https://user:{PASSWORD}@host:99999/path",
    f"user:{PASSWORD}@proxy:8080",
    f"http://user:{PASSWORD}@x@host",
    f"URL('http://user:{PASSWORD}@h')",
    f'"http://:{PASSWORD}@h"',
]


@pytest.mark.parametrize("text", URL_FORMS)
def test_credentials_in_any_url_form_are_redacted(text: str) -> None:
    clean = REDACTOR.redact(f"proxy failed: {text} (see log)")
    assert PASSWORD not in clean and "<credentials>@" in clean
    assert clean.startswith("proxy failed: ") and clean.endswith(" (see log)")


def test_ordinary_text_is_left_alone() -> None:
    for text in (
        "mail ada@example.com",
        "at 12:30 @home",
        "    @functools.wraps(handler)",
        "7B 1T tokens A100 @sizing_bot",
        "http://user@host/x",
    ):
        assert REDACTOR.redact(text) == text


def test_every_record_is_redacted_message_arguments_and_chained_tracebacks(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTPS_PROXY", f"http://user:{PASSWORD}@[bad")
    protect_token(TOKEN)
    caplog.set_level(logging.DEBUG)
    log = logging.getLogger("some.library")  # not one of ours: every logger is covered
    log.info("calling https://api.telegram.org/bot%s/getMe via %s", TOKEN, os.environ["HTTPS_PROXY"])
    try:
        try:
            raise ValueError(f"Invalid URL 'http://user:{PASSWORD}@[bad': invalid IPv6 address")
        except ValueError as inner:
            raise ConnectionError(f"proxy {PASSWORD} refused, token {TOKEN}") from inner
    except ConnectionError:
        log.exception("start-up failed")
    text = caplog.text + "".join(r.exc_text or "" for r in caplog.records)
    assert "Traceback" in text and "ValueError" in text  # the chain is there …
    assert PASSWORD not in text and TOKEN not in text  # … without the secrets
    assert PASSWORD in proxy_passwords()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "SIZING_BOT_", "LOG_"))}
    base = {k: v for k, v in base.items() if "proxy" not in k.lower()}
    port = closed_port()  # nothing listens: "no network"
    base.update(
        PYTHONPATH=str(ROOT),
        HOME=str(tmp_path),
        NO_PROXY="127.0.0.1,localhost",  # the proxy variables are read, never used: no network
        TELEGRAM_BOT_TOKEN=TOKEN,
        TELEGRAM_BASE_URL=f"http://127.0.0.1:{port}/bot",
        TELEGRAM_BASE_FILE_URL=f"http://127.0.0.1:{port}/file/bot",
        SIZING_BOT_DB=str(tmp_path / "settings.sqlite3"),
    )
    base.update(env)
    # FIX2 item 1: no network at start-up is retried (was: exit 1); stopped with SIGTERM after a try
    log = tmp_path / "run.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "run"], cwd=tmp_path, env=base, stdout=out, stderr=out, text=True
        )
    end = time.monotonic() + 60
    while proc.poll() is None and "retrying in" not in log.read_text() and time.monotonic() < end:
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    code = proc.wait(30)
    return subprocess.CompletedProcess(proc.args, code, log.read_text(), "")


@pytest.mark.parametrize(
    ("proxy", "code", "said"),
    [
        # no network: retried until SIGTERM, one line per try (FIX2 item 1; was: exit 1)
        ({"HTTPS_PROXY": f"http://user:{PASSWORD}@[bad"}, 0, "telegram: cannot reach http://127.0.0.1:"),
        # a proxy URL httpx cannot parse: a bad setting, fatal at once, one line
        ({"ALL_PROXY": f"socks5://user:{PASSWORD}@[::1"}, 1, "sizing-bot: cannot start: Invalid port"),
    ],
    ids=["malformed-http-proxy", "malformed-socks-proxy"],
)
def test_start_up_without_network_prints_one_line_and_no_secret(
    tmp_path: Path, proxy: dict[str, str], code: int, said: str
) -> None:
    done = run_bot(tmp_path, **proxy)
    assert done.returncode == code
    output = done.stdout + done.stderr
    lines = output.strip().splitlines()
    assert lines and all(line.startswith(said) or f" {said}" in line for line in lines), output
    assert "Traceback" not in output
    assert PASSWORD not in output and TOKEN not in output and TOKEN.split(":")[1] not in output


def test_start_up_failure_traceback_only_at_debug(tmp_path: Path) -> None:
    done = run_bot(tmp_path, LOG_LEVEL="DEBUG", HTTPS_PROXY=f"http://user:{PASSWORD}@[bad")
    assert done.returncode == 0  # FIX2 item 1: retried until SIGTERM (was: exit 1)
    output = done.stdout + done.stderr
    assert "Traceback" in output
    assert PASSWORD not in output and TOKEN.split(":")[1] not in output
