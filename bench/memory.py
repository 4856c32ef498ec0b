"""Resident memory of the chat pipeline under many users: Conversation (follow-up state) + render.

Usage: python bench/memory.py [--messages 10000] [--users 2000] [--max-entries 10000]

RSS is read from /proc/self/status (VmRSS; no psutil). Messages come from ``--users`` users in
private chats and groups, cycling through questions, follow-ups and small talk; each is answered with
``Conversation.ask`` and rendered to HTML, as the Telegram handler does. Warm-up is the first 1,000
messages (catalogs, templates, translations, caches); RSS is printed after the warm-up, at 5k and 10k
messages and every further 5k, with the Conversation's remembered requests and turns, which its
``max_entries`` bounds (least recently used dropped first).
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

QUESTIONS = [
    "7B模型1万亿token要多少A100", "那H100呢", "用256张", "70B 2T tokens H100", "what about 30 days?",
    "serve Llama-3-70B to 100 users", "换成QLoRA", "70B全参微调要几张H100", "qlora 70B on 4090", "hello",
    "部署70B推理需要几张A100", "13B 300B tokens 64x H100", "with 512 GPUs", "那A100呢",
    "预算100万能训多大的模型",
]  # fmt: skip


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--messages", type=int, default=10_000)
    ap.add_argument("--users", type=int, default=2_000)
    ap.add_argument("--max-entries", type=int, default=10_000, help="Conversation bound (service default)")
    args = ap.parse_args()
    from bot.core.conversation import Conversation
    from bot.render.renderer import render

    conversation = Conversation(max_entries=args.max_entries)
    print(
        f"machine: {platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores; "
        f"{args.users} users, Conversation(max_entries={args.max_entries})"
    )
    print(f"RSS at start (imports done): {rss_mib():.1f} MiB")
    checkpoints = {1_000, 5_000, 10_000} | set(range(15_000, args.messages + 1, 5_000))
    t0 = time.perf_counter()
    for n in range(1, args.messages + 1):
        user = n % args.users
        chat = user if user % 5 else -(user // 25) - 1  # one user in five writes in one of the groups
        text = QUESTIONS[(n // args.users + user) % len(QUESTIONS)]
        turn = conversation.ask(chat, user, text, user_lang="zh" if user % 2 else "en")
        render(turn.answer, "html")
        if n in checkpoints:
            gc.collect()
            memory, turns = len(conversation._memory), len(conversation._turns)  # no public accessor
            label = "  (after warm-up)" if n == 1_000 else ""
            print(
                f"{n:>7,} messages: RSS {rss_mib():7.1f} MiB   remembered requests {memory:>6,}  "
                f"turns {turns:>6,}   {(time.perf_counter() - t0) / n * 1e3:.2f} ms/message{label}"
            )


if __name__ == "__main__":
    main()
