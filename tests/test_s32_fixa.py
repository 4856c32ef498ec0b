"""Session 32 fix A: TGI's memory share named and answered as TGI's (fresh-user trial items 1-2)."""

from __future__ import annotations

import pytest

from bot.cli import main


def _ask(capsys, question: str, fmt: str = "text") -> str:
    main(["ask", "--format", fmt, "--", question])
    return capsys.readouterr().out


@pytest.mark.parametrize(
    "question",
    [
        "Qwen2.5 7B served by TGI on 2 A100 80G, cuda memory fraction 0.7, how many concurrent users?",
        "用 TGI 在 2 张 A100 80G 上部署 Qwen2.5 7B，--cuda-memory-fraction 0.7，能支持多少并发",
    ],
)
def test_tgi_share_echoed_under_its_own_name(capsys, question):
    head = _ask(capsys, question).splitlines()[0]
    assert "cuda_memory_fraction 0.7" in head
    assert "gpu_memory_utilization" not in head
