"""Answers delivered, lost and duplicated when the Bot API fails now and then.

Usage: python bench/faults.py [--n 2000] [--rate 0.01] [--seed 1] [--no-retries]

The fake Bot API (tests/fake_bot_api.py) runs in a child process and fails a fraction ``--rate`` of
the calls to sendMessage and getUpdates with a transient fault drawn at random: HTTP 500, 502 or
503, a dropped connection (closed without an answer, the call not handled) or a malformed body (200
with HTML, not handled) -- ``fake_bot_api.TRANSIENT_FAULTS``. The bot is the real ``Application``
from ``build_application`` with its defaults (retry policy, update journal, per-chat processor;
``post_init`` runs, so the journal is live), minus flood control and PTB's AIORateLimiter (which
would hold the replies to Telegram's 30 messages/s).

``--n`` questions come from n/10 users in private chats, 10 each (``/size <N>B 1T tokens A100`` with
ten different sizes), so every answer names the question it answers. Counted from what the fake
server stored: *delivered* = questions with at least one answer, *lost* = with none, *duplicated* =
answers beyond the first; apologies ("Telegram had a problem") are counted apart. ``--no-retries``
runs the same load with one try per send (the bot before issue 17) for comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dtm
import multiprocessing as mp
import os
import platform
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

SIZES = (1, 2, 3, 5, 7, 8, 13, 14, 30, 70)
"""Model sizes in B, one question each per user: the answer's headline names the size."""
_HEADLINE = re.compile(r"^(?:<b>)?(\d+)B pre-training")


# -- the fake Bot API in a child process -----------------------------------------------------
def _serve(conn: Any, rate: float, seed: int) -> None:
    from fake_bot_api import FakeBotAPI

    with FakeBotAPI() as api:
        conn.send((api.token, api.base_url, api.base_file_url))
        while True:
            command, *args = conn.recv()
            if command == "load":
                conn.send(_load(api, *args))
                api.fail_randomly(rate, ("sendMessage", "getUpdates"), seed=seed)
            elif command == "wait":
                conn.send(_wait(api, *args))
            elif command == "stop":
                conn.send(None)
                return


def _load(api: Any, n: int) -> list[tuple[int, int]]:
    """Queue ``n`` questions (n/10 users × 10, round-robin); returns (chat id, size) per question."""
    users = [api.user(f"U{u}", "en") for u in range(max(1, n // len(SIZES)))]
    chats = [api.private_chat(user) for user in users]
    questions = []
    for size in SIZES:
        for user, chat in zip(users, chats, strict=True):
            api.send_text(f"/size {size}B 1T tokens A100", chat=chat, user=user)
            questions.append((chat["id"], size))
    return questions


def _tally(api: Any) -> tuple[Counter[tuple[int, int]], int]:
    answers: Counter[tuple[int, int]] = Counter()
    apologies = 0
    for call in api.calls_to("sendMessage"):
        text = call.params.get("text") or ""
        match = _HEADLINE.match(text)
        if match:
            answers[(int(call.params["chat_id"]), int(match[1]))] += 1
        else:
            apologies += 1
    return answers, apologies


def _wait(api: Any, questions: list[tuple[int, int]], quiet_s: float, timeout_s: float) -> dict[str, Any]:
    """Wait until every question is answered or nothing happened for ``quiet_s``; then count."""
    end = time.monotonic() + timeout_s
    seen, last_change = -1, time.monotonic()
    while time.monotonic() < end:
        calls = len(api.calls_to("sendMessage")) + len(api.faults)  # not getUpdates: polls never stop
        if calls != seen:
            seen, last_change = calls, time.monotonic()
        answers, _ = _tally(api)
        if all(answers[q] for q in questions) or time.monotonic() - last_change > quiet_s:
            break
        time.sleep(0.1)
    time.sleep(quiet_s if all(answers[q] for q in questions) else 0)  # a late duplicate would show
    answers, apologies = _tally(api)
    faults = Counter(f"{c.method} {c.fault}" for c in api.faults)
    return {
        "delivered": sum(1 for q in questions if answers[q]),
        "lost": sum(1 for q in questions if not answers[q]),
        "duplicated": sum(answers[q] - 1 for q in questions if answers[q] > 1),
        "apologies": apologies,
        "faults": dict(sorted(faults.items())),
        "send_calls": len(api.calls_to("sendMessage"))
        + sum(1 for c in api.faults if c.method == "sendMessage"),
    }


# -- the bot ---------------------------------------------------------------------------------
async def _run_bot(conn: Any, settings: Any, n: int, retries: bool) -> dict[str, Any]:
    import bot.telegram.app as tg
    from bot.telegram.transport import RetryPolicy

    policy = None if retries else RetryPolicy(attempts=1)
    app = tg.build_application(settings, telegram_rate_limiter=False, retry=policy)
    async with app:
        assert app.post_init is not None and app.updater is not None
        await app.post_init(app)  # opens the update journal, as run_polling does
        await app.start()
        conn.send(("load", n))
        questions = await asyncio.to_thread(conn.recv)
        t0 = time.perf_counter()

        def error_callback(exc: Any) -> None:  # as run_polling: polling errors to the error handler
            app.create_task(app.process_error(error=exc, update=None))

        await app.updater.start_polling(
            poll_interval=0, timeout=dtm.timedelta(seconds=1), error_callback=error_callback
        )
        conn.send(("wait", questions, 3.0, 600))
        result = await asyncio.to_thread(conn.recv)
        result["seconds"] = time.perf_counter() - t0 - 3.0
        await app.updater.stop()
        await app.stop()
    assert app.post_shutdown is not None
    await app.post_shutdown(app)
    result["questions"] = len(questions)
    return result


def run_once(n: int, rate: float, seed: int, retries: bool) -> dict[str, Any]:
    import logging

    from bot.telegram.app import new_event_loop
    from bot.telegram.config import BotSettings

    logging.basicConfig(level=logging.ERROR)  # the bot's one-line warnings would flood the table
    parent, child = mp.Pipe()
    server = mp.Process(target=_serve, args=(child, rate, seed), daemon=True)
    server.start()
    token, base_url, base_file_url = parent.recv()
    with tempfile.TemporaryDirectory() as tmp:
        settings = BotSettings(
            telegram_bot_token=token, telegram_base_url=base_url, telegram_base_file_url=base_file_url,
            db_path=Path(tmp) / "settings.sqlite3", user_rate="off", chat_rate="off", inline_rate="off",
            _env_file=None,
        )  # fmt: skip
        loop = new_event_loop()
        try:
            result = loop.run_until_complete(_run_bot(parent, settings, n, retries))
        finally:
            loop.close()
    parent.send(("stop",))
    parent.recv()
    server.join(5)
    return result


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000, help="questions (10 per user)")
    ap.add_argument("--rate", type=float, default=0.01, help="share of sendMessage/getUpdates calls failing")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-retries", action="store_true", help="one try per send, for comparison")
    args = ap.parse_args()
    print(f"machine: {platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores")
    r = run_once(args.n, args.rate, args.seed, not args.no_retries)
    mode = "one try per send" if args.no_retries else "retries (bot.telegram.transport defaults)"
    print(
        f"{r['questions']} questions, {args.rate:.1%} transient faults on sendMessage and getUpdates, "
        f"seed {args.seed}, {mode}"
    )
    print(
        f"delivered {r['delivered']}  lost {r['lost']}  duplicated {r['duplicated']}  "
        f"apologies {r['apologies']}  sendMessage calls {r['send_calls']}  {r['seconds']:.1f} s"
    )
    print("faults injected: " + ", ".join(f"{k} ×{v}" for k, v in r["faults"].items()))


if __name__ == "__main__":
    main()
