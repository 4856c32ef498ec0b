"""Faults at the door, through the real ``sizing-bot run`` against the fake Feishu: a refused secret
(code 514 on the endpoint, 10014 on the token), too many connections (handshake 514 / 1000040350) and
rate limits (HTTP 429 / 99991400 with ``x-ogw-ratelimit-reset``). Each gets a clear log line and a
retry after a growing delay or the server's reset; the process never exits (no crash loop) and answers
once the fault is gone."""

from __future__ import annotations

import signal
import socket
import time
from pathlib import Path

import pytest
from fake_feishu import FakeFeishu
from feishu_run import cards, running_bot, wait

from bot.feishu.client import REFUSED_BACKOFF_S

ENDPOINT = "/callback/ws/endpoint"
TOKEN = "/open-apis/auth/v3/tenant_access_token/internal"


@pytest.fixture
def fake():
    with FakeFeishu() as server:
        yield server


def _times(fake: FakeFeishu, path: str) -> list[float]:
    return [c.at for c in fake.http.calls if c.path == path]


def _refused(fake: FakeFeishu, path: str) -> list[int | None]:
    return [c.refused for c in fake.http.calls if c.path == path]


def _answered(fake: FakeFeishu) -> None:
    fake.push(fake.message_event("7B model 1T tokens on A100"))
    wait(lambda: cards(fake), 15, "an answer after the fault")


def _log(tmp: Path) -> str:
    return (tmp / "bot.log").read_text()


def test_a_refused_endpoint_is_logged_and_retried_with_backoff_then_served(fake, tmp_path: Path) -> None:
    fake.fail_endpoint(514, 514)  # "auth failed" twice, then accepted
    with running_bot(fake, tmp_path) as proc:
        _answered(fake)
        assert proc.poll() is None
    calls = _times(fake, ENDPOINT)  # later calls: reconnects (the watchdog trips on a loaded machine)
    assert _refused(fake, ENDPOINT)[:3] == [514, 514, None]
    assert calls[1] - calls[0] >= REFUSED_BACKOFF_S[0] and calls[2] - calls[1] >= REFUSED_BACKOFF_S[1]
    lines = [line for line in _log(tmp_path).splitlines() if "refused" in line]
    assert len(lines) == 2 and "ERROR" in lines[0]
    assert "FEISHU_APP_ID / FEISHU_APP_SECRET refused (code 514: fault injected)" in lines[0]
    assert lines[0].endswith("retrying in 1 s") and lines[1].endswith("retrying in 2 s")


def test_a_wrong_secret_never_crash_loops_and_stops_cleanly(fake, tmp_path: Path) -> None:
    env = {"FEISHU_APP_SECRET": "wrong-secret-DO-NOT-LOG"}
    with running_bot(fake, tmp_path, extra_env=env, connected=False) as proc:
        wait(lambda: len(_times(fake, TOKEN)) >= 3, 20, "three logins")
        assert proc.poll() is None  # still running: no exit for a supervisor to restart
        tries = _times(fake, TOKEN)
        assert tries[1] - tries[0] >= REFUSED_BACKOFF_S[0] and tries[2] - tries[1] >= REFUSED_BACKOFF_S[1]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
    log = _log(tmp_path)
    assert "feishu: cannot log in (Feishu API error 10014 (HTTP 200): app secret invalid)" in log
    assert "check FEISHU_APP_ID / FEISHU_APP_SECRET" in log and "Traceback" not in log
    assert "wrong-secret-DO-NOT-LOG" not in log and fake.connections == 0


def test_an_unreachable_domain_names_the_network_not_the_secret(fake, tmp_path: Path) -> None:
    with socket.socket() as closed:  # a port nothing listens on: connection refused, as with no network
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    env = {"FEISHU_DOMAIN": f"http://127.0.0.1:{port}"}
    with running_bot(fake, tmp_path, extra_env=env, connected=False) as proc:
        wait(lambda: _log(tmp_path).count("cannot reach") >= 2, 20, "two failed logins")
        assert proc.poll() is None
    lines = [line for line in _log(tmp_path).splitlines() if "feishu: cannot" in line]
    assert lines[0].split()[2] == "WARNING"
    assert f"cannot reach http://127.0.0.1:{port}: ConnectError" in lines[0]
    assert "check FEISHU_DOMAIN, the network / proxy; retrying in 1 s" in lines[0]
    assert "FEISHU_APP_SECRET" not in _log(tmp_path)  # the secret was never refused: not sent to check it


def test_too_many_connections_backs_off_and_retries(fake, tmp_path: Path) -> None:
    fake.refuse_connections(2)  # handshake 514 with handshake-autherrcode 1000040350
    with running_bot(fake, tmp_path):
        _answered(fake)
    calls = _times(fake, ENDPOINT)
    assert len(calls) >= 3 and fake.connections >= 1
    assert calls[1] - calls[0] >= REFUSED_BACKOFF_S[0] and calls[2] - calls[1] >= REFUSED_BACKOFF_S[1]
    lines = [line for line in _log(tmp_path).splitlines() if "too many long connections" in line]
    assert len(lines) == 2 and "(code 1000040350: exceed connection limit)" in lines[0]


def test_rate_limits_wait_for_x_ogw_ratelimit_reset(fake, tmp_path: Path) -> None:
    fake.rate_limit(ENDPOINT, 2)  # the long connection's endpoint: 429, reset in 2 s
    with running_bot(fake, tmp_path):
        fake.expire_tokens()  # the answer needs a new token ...
        fake.rate_limit(TOKEN, 1)  # ... and the token call is rate limited: reset in 1 s
        started = time.monotonic()
        _answered(fake)
        assert time.monotonic() - started >= 1.0
    endpoint, token = _times(fake, ENDPOINT), _times(fake, TOKEN)
    assert _refused(fake, ENDPOINT)[:2] == [99991400, None]
    assert endpoint[1] - endpoint[0] >= 2.0  # the reset, not the 120 s default reconnect interval
    refused = [c for c in fake.http.calls if c.path == TOKEN and c.refused == 99991400]
    assert refused and token[token.index(refused[0].at) + 1] - refused[0].at >= 1.0
    assert "long connection rate limited, retrying in 2.0 s" in _log(tmp_path)
    assert len(cards(fake)) == 1
