"""Updates per second through the real python-telegram-bot ``Application``, and per-message latency.

Usage: python bench/throughput.py [--n 2000 5000] [--one-core] [--profile FILE]

The fake Bot API (tests/fake_bot_api.py) runs in a child process, so the numbers are the bot's own
work: PTB's update fetcher pulls the queued updates in getUpdates batches of 100, every handler runs
(parse → follow-up state → estimate → render → sendMessage over loopback HTTP). Mix per 10 updates:
private questions, follow-ups and commands from many users, plus group messages of which some are
addressed to the bot and some are chatter it ignores. Flood control is set high and PTB's
AIORateLimiter is off (with it on, replies are held to Telegram's 30 messages/s by design).

Per-message latency is measured inside the Application: from ``process_update`` being called to it
returning (handler, rendering and the sendMessage round trip to the fake). ``--one-core`` pins the bot
to CPU 0 and the fake to CPU 1.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import datetime as dtm
import multiprocessing as mp
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

PRIVATE = [
    "7B模型1万亿token要多少A100", "那H100呢", "用256张", "/size 70B 2T H100", "what about 30 days?",
    "serve Llama-3-70B to 100 users", "换成QLoRA", "/gpus", "70B全参微调要几张H100", "hello",
]  # fmt: skip
GROUP = [
    ("anyone tried the new cluster?", False), ("/size 7B 1T tokens A100", True), ("7B 1T A100", False),
    ("@{bot} 13B 300B tokens H100", True), ("lol", False), ("/size@{bot} 70B qlora 4090", True),
    ("@{bot} 那H100呢", True), ("thanks!", False), ("ask @someone_else about 70B", False),
    ("/size@other_sizer_bot 7B 1T A100", False),
]  # fmt: skip


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


# -- the fake Bot API in a child process -----------------------------------------------------
def _serve(conn: Any, cpu: int | None) -> None:
    if cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu})
    from fake_bot_api import FakeBotAPI

    with FakeBotAPI() as api:
        conn.send((api.token, api.base_url, api.base_file_url))
        while True:
            command, *args = conn.recv()
            if command == "load":
                conn.send(_load(api, *args))
            elif command == "wait":
                method, count, timeout = args
                api.wait_for(method, count, timeout)
                conn.send(len(api.calls_to(method)))
            elif command == "stop":
                conn.send(None)
                return


def _load(api: Any, n: int) -> int:
    """Queue ``n`` updates (users × 10 messages, round-robin); returns how many the bot must answer."""
    users = max(1, n // 10)
    writers = []
    for u in range(users):
        if u % 6 == 5:  # one writer in six is a group member (groups of 5 members)
            chat = api.group_chat(f"G{u // 30}") if u % 30 == 5 else writers[-1][0]
            if chat["type"] == "private":
                chat = api.group_chat(f"G{u}")
            script = [(t.format(bot=api.bot_username), a) for t, a in GROUP]
        else:
            chat = None
            script = [(t, True) for t in PRIVATE[u % 10 :] + PRIVATE[: u % 10]]
        user = api.user(f"U{u}", "zh-hans" if u % 2 else "en")
        writers.append((chat or api.private_chat(user), user, script))
    expected = 0
    for r in range(10):
        for chat, user, script in writers:
            text, addressed = script[r]
            api.send_text(text, chat=chat, user=user)
            expected += addressed
    return expected


# -- the bot ---------------------------------------------------------------------------------
async def _run_bot(conn: Any, settings: Any, n: int, latencies: list[float]) -> tuple[float, int]:
    import bot.telegram.app as tg
    from bot.core.conversation import Conversation

    app = tg.build_application(settings, conversation=Conversation(), telegram_rate_limiter=False)
    process = app.process_update

    async def timed(update: object) -> None:
        t0 = time.perf_counter()
        await process(update)
        latencies.append((time.perf_counter() - t0) * 1e3)

    app.process_update = timed  # type: ignore[method-assign]
    async with app:
        await app.start()
        assert app.updater is not None
        conn.send(("load", n))
        expected = await asyncio.to_thread(conn.recv)
        t0 = time.perf_counter()
        await app.updater.start_polling(poll_interval=0, timeout=dtm.timedelta(seconds=1))
        conn.send(("wait", "sendMessage", expected, 600))
        await asyncio.to_thread(conn.recv)
        elapsed = time.perf_counter() - t0
        await app.updater.stop()
        await app.stop()
    return elapsed, expected


def run_once(n: int, one_core: bool, profile: str | None) -> dict[str, float]:
    from bot.telegram.app import new_event_loop
    from bot.telegram.config import BotSettings

    parent, child = mp.Pipe()
    server = mp.Process(target=_serve, args=(child, 1 if one_core else None), daemon=True)
    server.start()
    token, base_url, base_file_url = parent.recv()
    with tempfile.TemporaryDirectory() as tmp:
        settings = BotSettings(
            telegram_bot_token=token, telegram_base_url=base_url, telegram_base_file_url=base_file_url,
            db_path=Path(tmp) / "settings.sqlite3", user_rate="off", chat_rate="off", inline_rate="off",
            _env_file=None,
        )  # fmt: skip
        latencies: list[float] = []
        profiler = cProfile.Profile() if profile else None
        if profiler:
            profiler.enable()
        loop = new_event_loop()  # the loop `sizing-bot run` uses (uvloop where installed)
        try:
            elapsed, expected = loop.run_until_complete(_run_bot(parent, settings, n, latencies))
        finally:
            loop.close()
        if profiler:
            profiler.disable()
            profiler.dump_stats(profile)
    parent.send(("stop",))
    parent.recv()
    server.join(5)
    return {
        "updates": len(latencies), "replies": expected, "seconds": elapsed, "per_s": len(latencies) / elapsed,
        "median_ms": statistics.median(latencies), "p99_ms": _pct(latencies, 0.99), "max_ms": max(latencies),
    }  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, nargs="+", default=[2000, 5000])
    ap.add_argument("--one-core", action="store_true", help="pin the bot to CPU 0, the fake API to CPU 1")
    ap.add_argument("--profile", help="write a cProfile of the bot process (first N only) to this file")
    args = ap.parse_args()
    if args.one_core and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})
    print(
        f"machine: {platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores"
        f"{', bot pinned to 1 core' if args.one_core else ''}"
    )
    header = [("updates", 8), ("replies", 9), ("seconds", 9), ("updates/s", 11), ("median ms", 11)]
    print("".join(f"{name:>{width}}" for name, width in header) + f"{'p99 ms':>9}{'max ms':>9}")
    for i, n in enumerate(args.n):
        r = run_once(n, args.one_core, args.profile if i == 0 else None)
        print(
            f"{r['updates']:>8.0f}{r['replies']:>9.0f}{r['seconds']:>9.2f}{r['per_s']:>11.0f}"
            f"{r['median_ms']:>11.2f}{r['p99_ms']:>9.2f}{r['max_ms']:>9.2f}"
        )


if __name__ == "__main__":
    main()
