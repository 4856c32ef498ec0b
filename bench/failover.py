"""Failover of two replicas on one PostgreSQL (issue 29): answers delivered, lost, duplicated, and the
time to take over after ``kill -9`` of the active replica.

Usage: python bench/failover.py [--n 2000] [--kills 3] [--rate 0.01] [--seed 1]

A throwaway PostgreSQL (tests/pg_server.py), the fake Bot API (tests/fake_bot_api.py) on loopback and
two real ``sizing-bot run`` processes with ``SIZING_BOT_DATABASE_URL`` (production defaults, PTB's
AIORateLimiter included: 30 messages/s). ``--n`` questions from n/10 users in private chats
(``/size <N>B 1T tokens A100``, ten sizes each: every answer names its question), queued at once.
The active replica (the one that logged "ready") is killed with SIGKILL after each further
n/(kills+1) answers; a supervisor (this script) starts a new process in its place, which waits as
the standby. ``--rate``: the fake Bot API fails that fraction of sendMessage and getUpdates calls
with a transient fault (HTTP 5xx, dropped connection, malformed body).

*takeover*: seconds from the kill to the next answer sent (lock handover, building the bot, getMe,
replay). *duplicated*: answers beyond the first to a question (bound: the updates in flight at each
kill, 8 workers plus one batch of handled marks).
"""

from __future__ import annotations

import argparse
import signal
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

SIZES = (1, 2, 3, 5, 7, 8, 13, 14, 30, 70)


def run(n: int, kills: int, rate: float, seed: int) -> dict[str, float]:
    from fake_bot_api import FakeBotAPI
    from pg_server import throwaway_postgres
    from replica_run import answered, start_replica, stop, wait

    out: dict[str, float] = {}
    with throwaway_postgres() as url, FakeBotAPI() as api, tempfile.TemporaryDirectory() as tmp:
        top = Path(tmp)
        if rate:
            api.fail_randomly(rate, ("sendMessage", "getUpdates"), seed=seed)
        starts = iter(range(100))

        def spawn() -> tuple[object, Path]:
            k = next(starts)
            log = top / f"replica{k}.log"
            return start_replica(api, top / f"home{k}", log, url, LOG_LEVEL="INFO"), log

        replicas = [spawn(), spawn()]
        users = [api.user(f"U{i}", "en") for i in range(n // len(SIZES))]
        chats = [api.private_chat(u) for u in users]
        questions = [(c["id"], s) for s in SIZES for c in chats]
        wait(lambda: api.calls_to("getUpdates"), 60, "a replica to poll")
        began = time.monotonic()
        for size in SIZES:
            for user, chat in zip(users, chats, strict=True):
                api.send_text(f"/size {size}B 1T tokens A100", chat=chat, user=user)
        takeovers = []
        for k in range(1, kills + 1):
            wait(lambda k=k: sum(answered(api).values()) >= k * len(questions) // (kills + 1), 600, "answers")
            active = next(r for r in replicas if r[0].poll() is None and " ready" in r[1].read_text())
            active[0].send_signal(signal.SIGKILL)
            active[0].wait(10)
            before = sum(answered(api).values())
            takeovers.append(wait(lambda b=before: sum(answered(api).values()) > b, 60, "takeover", 0.005))
            replicas[replicas.index(active)] = spawn()  # the supervisor restarts it: the new standby
        wait(lambda: all(answered(api)[q] for q in questions), 600, "every answer")
        out["seconds"] = time.monotonic() - began
        time.sleep(1.0)  # late duplicates
        for proc, _ in replicas:
            stop(proc)
        counts = answered(api)
        out["delivered"] = sum(1 for q in questions if counts[q])
        out["lost"] = len(questions) - out["delivered"]
        out["duplicated"] = sum(counts[q] - 1 for q in questions if counts[q] > 1)
        out["faults"] = len(api.faults)
        for i, t in enumerate(takeovers, 1):
            out[f"takeover{i}"] = t
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--rate", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result = run(args.n, args.kills, args.rate, args.seed)
    takeovers = " / ".join(f"{result[f'takeover{i}']:.2f}" for i in range(1, args.kills + 1))
    print(
        f"n={args.n} kills={args.kills} rate={args.rate:.0%} seed={args.seed}: delivered "
        f"{result['delivered']:.0f}, lost {result['lost']:.0f}, duplicated {result['duplicated']:.0f}, "
        f"takeover {takeovers} s, faults {result['faults']:.0f}, {result['seconds']:.1f} s"
    )


if __name__ == "__main__":
    main()
