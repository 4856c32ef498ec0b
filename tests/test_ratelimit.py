"""bot.chat.ratelimit: sliding-window limits per user and per chat, one notice per window,
bounded memory."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_bot_api import FakeBotAPI
from htmlcheck import telegram_html_text
from tg_harness import checked_fake_api, polling, settings_for

import bot.telegram.app as tg
import bot.telegram.keyboards as kb
from bot.chat.ratelimit import FloodGate, Rate, SlidingWindow, Verdict
from bot.telegram.config import BotSettings

A, N, S = Verdict.ALLOW, Verdict.NOTICE, Verdict.SILENT


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        """The wait of a booked answer: time passes on this clock."""
        self.now += seconds
        await asyncio.sleep(0)


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


def test_settings_default_30_per_user_per_minute_20_per_chat_per_minute_and_env(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("SIZING_BOT_USER_RATE", "SIZING_BOT_CHAT_RATE", "SIZING_BOT_INLINE_RATE"):
        monkeypatch.delenv(name, raising=False)
    s = BotSettings(_env_file=None)
    # issue 22 item 2: a tap every 2 s for a minute (was 6/30s); Telegram: ~20 posts a minute per group
    assert (s.user_rate, s.chat_rate) == (Rate(30, 60), Rate(20, 60))
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


# -- booking a later slot (issue 22 item 2: a typed question is answered late, never dropped) -----
def test_reserve_books_the_next_free_slot_in_order_and_refuses_beyond_one_window() -> None:
    clock = FakeClock()
    gate = FloodGate(Rate(2, 10), None, clock=clock)
    assert [gate.reserve(1) for _ in range(2)] == [0.0, 0.0]
    assert gate.reserve(1) == 10.0  # the window frees at t+10
    assert gate.reserve(1) == 10.0  # two per window: the second slot at t+10 too
    assert gate.reserve(1) is None  # the next slot (t+20) is more than one window away
    assert gate.retry_after(1) == 20.0
    assert gate.check(1) is not A  # a button waits behind the booked answers
    clock.now += 10
    assert gate.reserve(1) == 10.0  # booked answers count from their slot
    clock.now += 10.5
    assert gate.reserve(1) == 0.0


def test_an_answer_is_late_by_at_most_two_windows_after_its_message_was_sent() -> None:
    clock = FakeClock()
    gate = FloodGate(Rate(1, 30), None, clock=clock)
    assert gate.reserve(1, waited_s=3600.0) == 0.0  # under the limit: answered, however old
    assert gate.reserve(1, waited_s=31.0) is None  # 30 s more after 31 s in line: 61 s late
    assert gate.reserve(1, waited_s=0.4) == 30.0  # Telegram's date has whole seconds: some wait
    clock.now += 30
    assert gate.reserve(1, waited_s=30.5) is None  # its slot is 30 s away: 60.5 s late
    assert gate.reserve(1, waited_s=-3.0) == 30.0  # a clock ahead of Telegram's counts as no wait


def test_reserve_keeps_a_users_answers_in_order_across_the_user_and_chat_limits() -> None:
    clock = FakeClock()
    gate = FloodGate(Rate(3, 30), Rate(1, 10), clock=clock)
    assert gate.reserve(7, -1) == 0.0
    assert gate.reserve(7, -1) == 10.0  # the group's window
    assert gate.reserve(7, -2) == 10.0  # another group is free, but the user's earlier answer goes first
    assert gate.reserve(8, -2) == 20.0  # that group's one answer per 10 s is booked at +10
    assert gate.reserve(9, -3) == 0.0  # user 9 has nothing booked in front


def test_notice_streaks_are_per_kind_and_last_the_announced_wait() -> None:
    clock = FakeClock()
    gate = FloodGate(Rate(1, 10), None, clock=clock)
    assert gate.notice_due("late", 1, 8.0) and not gate.notice_due("late", 1, 8.0)
    assert gate.notice_due("refused", 1, 8.0)  # another kind: its own streak
    clock.now += 8
    assert gate.notice_due("late", 1, 8.0)
    assert [FloodGate.whole_seconds(s) for s in (0.0, 0.2, 7.0, 7.01)] == [1, 1, 7, 8]


# -- through the real Application and the fake Bot API (issue 22 item 2) -----------------------
TOKEN = "123456:FAKE-TOKEN-flood"


@pytest.fixture
def api(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeBotAPI]:
    monkeypatch.setenv("SIZING_BOT_DB", str(tmp_path / "settings.sqlite3"))
    for name in ("SIZING_BOT_PRESALES", "SIZING_BOT_USER_RATE", "SIZING_BOT_CHAT_RATE"):
        monkeypatch.delenv(name, raising=False)
    with checked_fake_api(TOKEN) as fake:
        yield fake


def run_bot(
    body: Callable[[FakeBotAPI], Awaitable[None]], api: FakeBotAPI, clock: FakeClock, **settings: Any
) -> None:
    async def main() -> None:
        app = tg.build_application(settings_for(api, **settings), clock=clock, sleep=clock.sleep)
        async with polling(app):
            await body(api)

    asyncio.run(asyncio.wait_for(main(), 60))


async def wait_calls(api: FakeBotAPI, method: str, count: int) -> None:
    await asyncio.to_thread(api.wait_for, method, count, 30.0)


def gpu_buttons(message: dict[str, Any]) -> list[str]:
    rows = message["reply_markup"]["inline_keyboard"]
    data = [b.get("callback_data") for row in rows for b in row]
    return [d for d in data if (kb.decode(d) or kb.Callback("", "", "")).action == kb.GPU]


def texts(api: FakeBotAPI, method: str = "sendMessage") -> list[str]:
    return [telegram_html_text(c.params.get("text") or "") for c in api.calls_to(method)]


def test_the_reported_session_gets_every_reply_with_the_default_limits(api: FakeBotAPI) -> None:
    """/start, /help, a question, four button taps within 30 s, a typed follow-up and /gpus: with
    the defaults nothing is refused (was: a toast, then the follow-up and /gpus never answered)."""
    user = api.user("Li", "zh-hans")
    chat = api.private_chat(user)
    clock = FakeClock()

    async def body(api: FakeBotAPI) -> None:
        for command in ("/start", "/help"):
            api.send_text(command, chat=chat, user=user)
        api.send_text("7B模型1万亿token要多少A100", chat=chat, user=user)
        await wait_calls(api, "sendMessage", 3)
        answer = api.bot_messages(chat["id"])[-1]
        for n, data in enumerate((gpu_buttons(answer) * 2)[:4]):
            clock.now += 5  # four taps within 30 s
            api.press(answer, data, user=user)
            await wait_calls(api, "answerCallbackQuery", n + 1)
        api.send_text("换成H100呢", chat=chat, user=user)
        api.send_text("/gpus", chat=chat, user=user)
        await wait_calls(api, "sendMessage", 5)

    run_bot(body, api, clock)
    assert set(texts(api, "answerCallbackQuery")) == {""}  # no "too many requests" toast
    assert len(api.calls_to("editMessageText")) == 4
    follow_up, gpus = texts(api)[3:5]
    assert follow_up.startswith("7B 预训练") and "H100" in follow_up.splitlines()[0]
    assert "B200" in gpus and "A100" in gpus  # the catalog table


def test_a_tap_every_3_s_for_two_minutes_is_never_limited_by_default(api: FakeBotAPI) -> None:
    user = api.user("Ann", "en")
    chat = api.private_chat(user)
    clock = FakeClock()

    async def body(api: FakeBotAPI) -> None:
        api.send_text("fine-tune Qwen2.5-7B with LoRA on A100", chat=chat, user=user)
        await wait_calls(api, "sendMessage", 1)
        answer = api.bot_messages(chat["id"])[-1]
        buttons = gpu_buttons(answer)
        for n in range(40):
            clock.now += 3
            api.press(answer, buttons[n % len(buttons)], user=user)
            await wait_calls(api, "answerCallbackQuery", n + 1)

    run_bot(body, api, clock)
    assert set(texts(api, "answerCallbackQuery")) == {""}
    assert len(api.calls_to("editMessageText")) == 40


def test_a_typed_follow_up_after_the_limit_toast_is_answered_late_and_commands_stay_free(
    api: FakeBotAPI,
) -> None:
    """The reported loss, with a tight limit: the toast no longer eats the typed message's reply."""
    user = api.user("Li", "zh-hans")
    chat = api.private_chat(user)
    clock = FakeClock()

    async def body(api: FakeBotAPI) -> None:
        api.send_text("/start", chat=chat, user=user)
        api.send_text("/help", chat=chat, user=user)
        api.send_text("7B模型1万亿token要多少A100", chat=chat, user=user)
        await wait_calls(api, "sendMessage", 3)
        answer = api.bot_messages(chat["id"])[-1]
        for n, data in enumerate((gpu_buttons(answer) * 2)[:4]):
            clock.now += 1
            api.press(answer, data, user=user)
            await wait_calls(api, "answerCallbackQuery", n + 1)
        api.send_text("换成H100呢", chat=chat, user=user)
        api.send_text("/gpus", chat=chat, user=user)
        await wait_calls(api, "sendMessage", 6)

    run_bot(body, api, clock, user_rate="3/30s")
    toasts = texts(api, "answerCallbackQuery")
    wait = tg.WAIT_SECONDS.format
    assert toasts[2:] == [wait("zh", seconds=27), wait("zh", seconds=26)]  # taps 3 and 4, at t+3, t+4
    late, follow_up, gpus = texts(api)[3:6]
    assert late == "请求太频繁：这条消息约 26 秒后回答。"  # the question at t=1000, typed at t+4
    assert follow_up.startswith("7B 预训练") and "H100" in follow_up.splitlines()[0]
    assert "B200" in gpus
    assert clock.now == 1030.0


def test_far_over_the_limit_a_question_is_told_once_when_to_send_it_again(api: FakeBotAPI) -> None:
    """A burst arriving at one instant (the clock does not move while answers wait): the second
    question is booked a window ahead; the next ones would be two windows ahead: one line says when."""
    user = api.user("Ann", "en")
    chat = api.private_chat(user)
    clock = FakeClock()

    async def frozen(seconds: float) -> None:
        await asyncio.sleep(0)

    async def body(api: FakeBotAPI) -> None:
        for size in ("7B", "13B", "70B", "34B"):
            api.send_text(f"{size} 1T A100", chat=chat, user=user)
        api.send_text("/help", chat=chat, user=user)
        await wait_calls(api, "sendMessage", 5)

    async def main() -> None:
        app = tg.build_application(settings_for(api, user_rate="1/30s"), clock=clock, sleep=frozen)
        async with polling(app):
            await body(api)

    asyncio.run(asyncio.wait_for(main(), 60))
    replies = texts(api)
    assert len(replies) == 5
    assert replies[0].startswith("7B pre-training")
    assert replies[1] == tg.ANSWER_LATE.format("en", seconds=30)
    assert replies[2].startswith("13B pre-training")
    assert (
        replies[3]
        == tg.SEND_AGAIN.format("en", seconds=60)
        == "Too many requests — please send this again in 60 s."
    )
    assert replies[4].startswith("I estimate how many GPUs")  # the help; 70B and 34B: the line above


def test_a_question_waiting_for_its_slot_holds_no_worker_and_keeps_its_chats_order(api: FakeBotAPI) -> None:
    """One worker (bot.telegram.processor): while Ann's second question waits ~2 s for its slot,
    Bob's question is answered; Ann's /gpus still comes after her late answer."""
    ann, bob = api.user("Ann", "en"), api.user("Bob", "en")
    ann_chat, bob_chat = api.private_chat(ann), api.private_chat(bob)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("7B 1T A100", chat=ann_chat, user=ann)
        await wait_calls(api, "sendMessage", 1)
        api.send_text("13B 1T A100", chat=ann_chat, user=ann)  # over 1/2s: answered ~2 s later
        api.send_text("/gpus", chat=ann_chat, user=ann)
        api.send_text("70B 2T H100", chat=bob_chat, user=bob)
        await wait_calls(api, "sendMessage", 4)

    async def main() -> None:
        settings = settings_for(api, user_rate="1/2s")
        async with polling(tg.build_application(settings, workers=1)):
            await body(api)

    asyncio.run(asyncio.wait_for(main(), 60))
    order = [
        (c.params["chat_id"], telegram_html_text(c.params["text"])[:3]) for c in api.calls_to("sendMessage")
    ]
    assert order == [
        (ann_chat["id"], "7B "),
        (bob_chat["id"], "70B"),
        (ann_chat["id"], "13B"),
        (ann_chat["id"], "GPU"),
    ]
