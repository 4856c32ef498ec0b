"""bot.telegram.ratelimit: sliding-window limits per user and per chat, one notice per window,
bounded memory."""

from __future__ import annotations

import pytest

from bot.telegram.config import BotSettings
from bot.telegram.ratelimit import FloodGate, Rate, SlidingWindow, Verdict

A, N, S = Verdict.ALLOW, Verdict.NOTICE, Verdict.SILENT


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    ("text", "rate"),
    [
        ("6/30s", Rate(6, 30)),
        ("6/30", Rate(6, 30)),
        (" 20 per 30 s ", Rate(20, 30)),
        ("20/1m", Rate(20, 60)),
        ("5/s", Rate(5, 1)),
        ("3/0.5s", Rate(3, 0.5)),
        ("off", None),
        ("0", None),
        ("0/30s", None),
    ],
)
def test_rate_parse(text: str, rate: Rate | None) -> None:
    assert Rate.parse(text) == rate


@pytest.mark.parametrize("text", ["", "fast", "6/", "-1/30s", "6/30h", "6/0s"])
def test_rate_parse_rejects_nonsense(text: str) -> None:
    with pytest.raises(ValueError):
        Rate.parse(text)


def test_rate_str_round_trips() -> None:
    assert str(Rate(6, 30)) == "6/30s"
    assert Rate.parse(str(Rate(20, 60))) == Rate(20, 60)


def test_settings_default_6_per_user_per_30s_20_per_chat_per_minute_and_env(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("SIZING_BOT_USER_RATE", "SIZING_BOT_CHAT_RATE", "SIZING_BOT_INLINE_RATE"):
        monkeypatch.delenv(name, raising=False)
    s = BotSettings(_env_file=None)
    assert (s.user_rate, s.chat_rate) == (Rate(6, 30), Rate(20, 60))  # Telegram: ~20 posts a minute per group
    monkeypatch.setenv("SIZING_BOT_USER_RATE", "5/10s")
    monkeypatch.setenv("SIZING_BOT_CHAT_RATE", "off")
    s = BotSettings(_env_file=None)
    assert (s.user_rate, s.chat_rate) == (Rate(5, 10), None)
    monkeypatch.setenv("SIZING_BOT_USER_RATE", "many")
    with pytest.raises(ValueError, match="6/30s"):
        BotSettings(_env_file=None)


def test_sliding_window_is_exact_at_the_window_edge() -> None:
    window = SlidingWindow(Rate(3, 10))
    for t in (0.0, 1.0, 2.0):
        assert not window.full("u", t)
        window.add("u", t)
    assert window.full("u", 9.999)
    assert window.frees_at("u", 5.0) == 10.0
    assert not window.full("u", 10.0)  # the event at t=0 left the window
    window.add("u", 10.0)
    assert window.full("u", 10.5)  # events at 1, 2, 10
    assert not window.full("u", 11.0)


def test_user_gets_n_answers_then_one_notice_then_silence_until_the_window_frees() -> None:
    clock = FakeClock()
    gate = FloodGate(Rate(6, 30), Rate(20, 30), clock=clock)
    verdicts = []
    for _ in range(10):
        verdicts.append(gate.check(user_id=1, chat_id=1))
        clock.now += 1
    assert verdicts == [A] * 6 + [N] + [S] * 3
    clock.now = 1000.0 + 30  # the first answer (t=1000) leaves the window
    assert gate.check(1, 1) is A
    assert gate.check(1, 1) is N  # a new refusal streak: one new notice
    assert gate.check(1, 1) is S


def test_refused_messages_do_not_extend_the_wait() -> None:
    clock = FakeClock()
    gate = FloodGate(Rate(2, 10), None, clock=clock)
    assert [gate.check(1) for _ in range(2)] == [A, A]
    for _ in range(50):  # hammering while refused costs nothing
        clock.now += 0.1
        gate.check(1)
    clock.now = 1010.0
    assert gate.check(1) is A


def test_chat_limit_applies_across_users_and_notices_the_chat_once() -> None:
    clock = FakeClock()
    gate = FloodGate(Rate(6, 30), Rate(20, 30), clock=clock)
    group = -100
    verdicts = [gate.check(user_id=u, chat_id=group) for u in range(25)]
    assert verdicts == [A] * 20 + [N] + [S] * 4
    assert gate.check(user_id=999, chat_id=999) is A  # another chat is not affected


def test_user_limit_spans_chats() -> None:
    gate = FloodGate(Rate(2, 30), Rate(20, 30), clock=FakeClock())
    assert [gate.check(7, chat) for chat in (-1, -2, -3)] == [A, A, N]


def test_a_user_refused_does_not_use_up_the_chat() -> None:
    gate = FloodGate(Rate(1, 30), Rate(3, 30), clock=FakeClock())
    assert [gate.check(1, -5) for _ in range(4)] == [A, N, S, S]
    assert [gate.check(u, -5) for u in (2, 3)] == [A, A]  # the chat still had room for two


def test_no_limits_always_allow() -> None:
    gate = FloodGate(None, None, clock=FakeClock())
    assert {gate.check(1, 1) for _ in range(1000)} == {A}
    assert len(gate) == 0


def test_memory_is_bounded_by_active_keys_and_by_max_keys() -> None:
    clock = FakeClock()
    gate = FloodGate(Rate(6, 30), Rate(20, 30), clock=clock)
    for user in range(5000):
        gate.check(user, user)
    assert len(gate) == 10_000  # 5,000 users + 5,000 private chats, all active in the window
    clock.now += 31
    gate.check(1, 1)
    assert len(gate) == 2  # every idle key was dropped
    capped = FloodGate(Rate(6, 30), None, clock=clock, max_keys=100)
    for user in range(5000):
        capped.check(user)
    assert len(capped) == 100


def test_a_noticed_key_is_kept_until_its_notice_expires() -> None:
    window = SlidingWindow(Rate(1, 10))
    window.add("u", 0.0)
    assert window.full("u", 1.0) and window.notice_due("u", 1.0)
    assert not window.notice_due("u", 5.0)  # same refusal streak: silence
    window.add("other", 10.0)  # purges: "u" is idle and its notice ran out at t=10
    assert len(window) == 1
    assert not window.full("u", 10.0)
