"""The web API's latency and concurrency (issue 26): `sizing-bot serve` on a loopback port, the corpus
questions (tests/data/questions.json; or --corpus) sent as GET /api/v1/ask over one
keep-alive connection: p50/p99 per request (targets: p50 <= 5 ms, p99 <= 20 ms); then N concurrent
clients (default 20), each with its own connection, asking every question: errors must be 0.

    python bench/api.py [--corpus FILE] [--passes 5] [--clients 20]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "questions.json"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(port: int) -> subprocess.Popen:
    exe = Path(sys.executable).with_name("sizing-bot")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "bot"]
    env = {**os.environ, "SIZING_BOT_WEB_RATE": "0"}  # the bench is one client: no rate limit
    proc = subprocess.Popen([*cmd, "serve", "--port", str(port)], env=env)
    for _ in range(300):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("serve did not start")


def get(conn: http.client.HTTPConnection, question: str) -> int:
    conn.request("GET", "/api/v1/ask?" + urllib.parse.urlencode({"q": question}))
    response = conn.getresponse()
    body = response.read()
    return response.status if json.loads(body).get("schema") == 1 else -1


def sequential(port: int, questions: list[str], passes: int) -> list[float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for q in questions:  # warm up: imports, caches
        get(conn, q)
    times = []
    for _ in range(passes):
        for q in questions:
            t = time.perf_counter()
            status = get(conn, q)
            times.append((time.perf_counter() - t) * 1000)
            assert status == 200, (status, q)
    return times


def in_process(questions: list[str], passes: int) -> list[float]:
    """The same answers without HTTP (bot.web.state.api_json): what the server adds is the difference."""
    from bot.web.state import api_json

    times = []
    for _ in range(passes):
        for q in questions:
            t = time.perf_counter()
            api_json(q)
            times.append((time.perf_counter() - t) * 1000)
    return times


def percentiles(times: list[float]) -> str:
    times = sorted(times)
    p99 = times[min(len(times) - 1, round(0.99 * len(times)))]
    return f"p50 {statistics.median(times):.2f} ms, p99 {p99:.2f} ms"


def concurrent(port: int, questions: list[str], clients: int) -> tuple[int, int, float]:
    errors, done = [0], [0]
    lock = threading.Lock()

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for q in questions:
            try:
                ok = get(conn, q) == 200
            except (OSError, ValueError, http.client.HTTPException):
                ok = False
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            with lock:
                done[0] += 1
                errors[0] += not ok

    threads = [threading.Thread(target=client) for _ in range(clients)]
    t = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return done[0], errors[0], time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--passes", type=int, default=5)
    ap.add_argument("--clients", type=int, default=20)
    args = ap.parse_args()
    questions = [row["text"] for row in json.loads(args.corpus.read_text())]
    port = free_port()
    proc = start(port)
    try:
        times = sequential(port, questions, args.passes)
        print(f"HTTP, {len(questions)} questions x {args.passes}: {percentiles(times)}")
        print(f"in process (no HTTP), the same: {percentiles(in_process(questions, args.passes))}")
        n, errors, wall = concurrent(port, questions, args.clients)
        print(f"{args.clients} concurrent clients: {n} requests, {errors} errors, {n / wall:.0f} req/s")
        return 0 if errors == 0 else 1
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
