"""A PDF quote flood through the fake Bot API (issue 30 item 1): memory, CPU, and how long unrelated
questions wait meanwhile.

Usage: python bench/quote_flood.py [--users 20] [--quotes 100] [--seconds 60] [--repo PATH]

``--users`` users each ask one question, then send ``/quote`` ``--quotes`` times, spread evenly over
``--seconds``; a separate user asks an unrelated question every 0.5 s throughout. The real
Application polls the fake Bot API (tests/fake_bot_api.py) on loopback, with the example offer
(presales.example.toml) and the per-user and per-chat answer limits off (so only the quote bounds
act). Printed: resident memory (VmRSS, /proc/self/status; the fake API shares the process) before,
at its peak and 5 s after the flood; process CPU seconds; quotes sent and refused ("please wait");
the unrelated questions' latency (p50, p95, max). ``--repo``: run another checkout's ``bot``
package (e.g. main at the branch point) with this script, for a before/after comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dtm
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Sampler(threading.Thread):
    """The peak of VmRSS, sampled every 20 ms."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.peak = rss_mib()
        self.running = True

    def run(self) -> None:
        while self.running:
            self.peak = max(self.peak, rss_mib())
            time.sleep(0.02)


async def flood(args: argparse.Namespace) -> dict[str, float]:
    from fake_bot_api import FakeBotAPI
    from tg_harness import settings_for

    import bot.telegram.app as tg
    from bot.settings.presales import load_presales

    presales = load_presales(HERE / "presales.example.toml")
    with FakeBotAPI(token="123456:BENCH-flood") as api:
        settings = settings_for(api, user_rate="off", chat_rate="off")
        app = tg.build_application(settings, presales=presales, telegram_rate_limiter=False)
        async with app:
            await app.post_init(app)
            await app.start()
            await app.updater.start_polling(poll_interval=0, timeout=dtm.timedelta(seconds=1))
            users = [api.user(f"U{i}", "en") for i in range(args.users)]
            chats = [api.private_chat(u) for u in users]
            for user, chat in zip(users, chats, strict=True):
                api.send_text("How many GPUs to pretrain a 7B model on 1T tokens?", chat=chat, user=user)
            await asyncio.to_thread(api.wait_for, "sendMessage", args.users, 60.0)
            probe = api.user("Probe", "en")
            probe_chat = api.private_chat(probe)
            before, cpu0 = rss_mib(), time.process_time()
            sampler = Sampler()
            sampler.start()
            latencies: list[float] = []
            total = args.users * args.quotes
            gap = args.seconds / max(1, args.quotes)
            started = time.monotonic()

            async def ask_probe() -> None:
                while time.monotonic() - started < args.seconds:
                    seen = len(api.bot_messages(probe_chat["id"]))
                    asked = time.monotonic()
                    api.send_text("70B inference on H100", chat=probe_chat, user=probe)
                    while len(api.bot_messages(probe_chat["id"])) <= seen:
                        await asyncio.sleep(0.005)
                    latencies.append(time.monotonic() - asked)
                    await asyncio.sleep(0.5)

            prober = asyncio.create_task(ask_probe())
            for round_ in range(args.quotes):
                for user, chat in zip(users, chats, strict=True):
                    api.send_text("/quote", chat=chat, user=user)
                await asyncio.sleep(max(0.0, started + (round_ + 1) * gap - time.monotonic()))
            await prober

            pool = getattr(app.bot_data, "heavy", None)  # absent before the work pool (main at ea8d287)

            def answered() -> int:  # a PDF sent, or refused by the work pool (told to wait)
                return len(api.calls_to("sendDocument")) + (pool.refused if pool is not None else 0)

            while (answered() < total or (pool is not None and pool.busy)) and (
                time.monotonic() - started < args.seconds + 600
            ):
                await asyncio.sleep(0.1)
            done = time.monotonic() - started
            cpu = time.process_time() - cpu0
            await asyncio.sleep(5)
            after = rss_mib()
            sampler.running = False
            docs = len(api.calls_to("sendDocument"))
            await app.updater.stop()
            await app.stop()
        await app.post_shutdown(app)
    return {
        "before": before, "peak": sampler.peak, "after": after, "cpu": cpu, "done": done,
        "docs": docs, "refused": answered() - docs, "total": total,
        "p50": statistics.median(latencies), "p95": sorted(latencies)[int(0.95 * (len(latencies) - 1))],
        "max": max(latencies), "probes": len(latencies),
    }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--quotes", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--repo", type=Path, default=HERE, help="checkout whose bot package runs")
    args = parser.parse_args()
    sys.path[:0] = [str(args.repo), str(HERE / "tests")]
    os.environ["SIZING_BOT_DB"] = str(Path(tempfile.mkdtemp()) / "settings.sqlite3")
    os.environ.pop("SIZING_BOT_PRESALES", None)
    r = asyncio.run(flood(args))
    import bot

    print(f"bot package: {Path(bot.__file__).parent}")
    print(f"repo {args.repo}: {args.users} users x {args.quotes} /quote in {args.seconds:g} s")
    print(f"RSS MiB: before {r['before']:.0f}, peak {r['peak']:.0f}, 5 s after {r['after']:.0f}")
    print(f"CPU {r['cpu']:.1f} s; all {r['total']} answered after {r['done']:.1f} s")
    print(f"quotes sent {r['docs']}, refused by the work pool {r['refused']}")
    print(
        f"unrelated question latency ({r['probes']} asked): p50 {r['p50'] * 1000:.0f} ms, "
        f"p95 {r['p95'] * 1000:.0f} ms, max {r['max'] * 1000:.0f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
