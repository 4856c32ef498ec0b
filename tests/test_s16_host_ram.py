"""Trial s16 #8: the host RAM the user states beside a CPU-offload training plan is compared with what the
offloaded optimizer states need per machine (12 bytes per parameter sharded over the GPUs: 72.7B on one
8-GPU machine ≈ 872 GB; 32.8B on 2 GPUs ≈ 390 GB), never named as not used."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def ask(capsys, question: str, fmt: str = "json") -> dict | str:
    main(["ask", "--format", fmt, question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


@pytest.mark.parametrize(
    ("question", "gib", "words"),
    [
        (
            "用 DeepSpeed ZeRO-3 offload 全参微调 Qwen2.5-72B，8 张 A100 80G，内存1TB，够吗？",
            1024,
            "约需 872 GB 主机内存：你的 1,024 GiB 够用",
        ),
        (
            "Full fine-tune Qwen2.5-72B with DeepSpeed ZeRO-3 offload on 8 A100 80GB, 1TB RAM. Enough?",
            1024,
            "≈ 872 GB of host RAM per machine: your 1,024 GiB holds it",
        ),
        (
            "Full fine-tune Qwen2.5-32B, DeepSpeed ZeRO-3 CPU offload, 2 A100 80GB, 128GB RAM. Fits?",
            128,
            "≈ 390 GB of host RAM per machine: your 128 GiB is 253 GB short",
        ),
    ],
)
def test_stated_host_ram_compared_with_offload_need(capsys, question, gib, words):
    d = ask(capsys, question)
    assert d["request"]["host_memory_gib"] == gib
    assert not [i for i in d["interpretation"]["ignored"] if i["reason"] in ("no_field", "unread")]
    assert words in ask(capsys, question, "text")
