"""Issue 29: WeCom and DingTalk replicas under the leader lock. Two real ``sizing-bot run`` processes
on one throwaway PostgreSQL against the fake WeCom / the fake DingTalk: only the lock holder connects
(WeCom allows one connection per bot); ``kill -9`` of it: the standby connects within 10 s, answers,
and understands a follow-up to a question the dead one answered."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from platform_run import running_process, wait

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")

TAKEOVER_S = 10.0
"""The issue's bound on the time from ``kill -9`` of the holder to the standby's connection."""


@contextmanager
def replica(env: dict[str, str], tmp: Path) -> Iterator[subprocess.Popen[str]]:
    """``python -m bot run`` in ``tmp`` with ``env``; not waited for (a standby never connects)."""
    tmp.mkdir()
    with running_process(env, tmp, None, "start") as proc:
        yield proc


def _logs(tmp: Path) -> str:
    return "\n".join((tmp / n / "bot.log").read_text(errors="replace") for n in ("a", "b"))


def _failover(
    tmp: Path,
    envs: tuple[dict[str, str], dict[str, str]],
    connections: Callable[[], int],
    ask: Callable[[str], Callable[[], str]],
) -> tuple[float, str, str]:
    """Start two replicas; the first answers a question, is killed; returns (takeover s, the answer to
    a new question, the answer to a follow-up of the first question) from the second (the follow-up
    is asked first)."""
    with ExitStack() as stack:
        a = stack.enter_context(replica(envs[0], tmp / "a"))
        wait(lambda: connections() == 1 or a.poll() is not None, 30, "replica A connected")
        b = stack.enter_context(replica(envs[1], tmp / "b"))
        wait(lambda: "standby" in (tmp / "b" / "bot.log").read_text(errors="replace"), 30, "B standby")
        first = ask("70B模型推理要多少A100")
        wait(first, 30, "A's answer")
        time.sleep(1.5)  # a standby keeps trying the lock: it never connects while A holds it
        assert connections() == 1, _logs(tmp)[-3000:]
        a.kill()  # kill -9
        a.wait(10)
        killed = time.monotonic()
        wait(lambda: connections() == 2 or b.poll() is not None, TAKEOVER_S, "B connected after the kill")
        took = time.monotonic() - killed
        assert b.poll() is None, _logs(tmp)[-3000:]
        follow = wait(ask("那H100呢"), 30, "B's follow-up answer")
        fresh = wait(ask("7B模型1万亿token要多少A100"), 30, "B's answer")
        return took, fresh, follow


def test_wecom_replicas_one_connection_and_a_takeover_that_keeps_the_follow_up(
    tmp_path: Path, postgres_server: str
) -> None:
    from fake_wecom import FakeWecom
    from pg_server import fresh_database
    from wecom_run import bot_env, stream_of

    url = fresh_database(postgres_server, "wecom_replicas")
    with FakeWecom() as fake:

        def ask(text: str) -> Callable[[], str]:
            req = fake.push(fake.message(text))
            return lambda: next((stream_of(r) for r in fake.replies(req, "stream")), "")

        envs = tuple(
            bot_env(fake, tmp_path / n, {"SIZING_BOT_DATABASE_URL": url, "LOG_LEVEL": "INFO"})
            for n in ("a", "b")
        )
        took, fresh, follow = _failover(tmp_path, envs, lambda: fake.subscribes, ask)
        assert fake.max_active == 1  # never two subscribed connections of one bot
    print(f"takeover {took:.2f} s")
    assert took < TAKEOVER_S
    assert "7B" in fresh.splitlines()[0], fresh[:300]
    assert "70B" in follow and "H100" in follow.splitlines()[0], follow[:300]


def test_dingtalk_replicas_one_connection_and_a_takeover_that_keeps_the_follow_up(
    tmp_path: Path, postgres_server: str
) -> None:
    from dingtalk_run import answers, bot_env, text_of
    from fake_dingtalk import FakeDingTalk
    from pg_server import fresh_database

    url = fresh_database(postgres_server, "dingtalk_replicas")
    with FakeDingTalk() as fake:

        def ask(text: str) -> Callable[[], str]:
            before = len(answers(fake))
            fake.push(fake.message(text, group=False))
            return lambda: text_of(answers(fake)[before]) if len(answers(fake)) > before else ""

        envs = tuple(
            bot_env(fake, tmp_path / n, {"SIZING_BOT_DATABASE_URL": url, "LOG_LEVEL": "INFO"})
            for n in ("a", "b")
        )
        took, fresh, follow = _failover(tmp_path, envs, lambda: fake.connections, ask)
        after = answers(fake)[1]  # the follow-up's answer, sent by B
    print(f"takeover {took:.2f} s")
    assert took < TAKEOVER_S
    assert "7B" in fresh.splitlines()[0], fresh[:300]
    assert "70B" in follow and "H100" in follow.splitlines()[0], follow[:300]
    # its link buttons carry the question A answered, so the web page continues the conversation too
    links = [b["actionURL"] for b in after.body["actionCard"]["btns"]]
    prev = parse_qs(urlsplit(links[0]).query)["prev"]
    assert "70B模型推理要多少A100" in prev, links[0]
