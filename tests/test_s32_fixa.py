"""Session 32 fix A: TGI's memory share named and answered as TGI's (fresh-user trial items 1-2)."""

from __future__ import annotations

import json

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


def _ask_config(capsys, tmp_path, command: str, question: str, fmt: str = "text") -> str:
    config = tmp_path / "launch.txt"
    config.write_text(command + "\n")
    main(["ask", "--config", str(config), "--format", fmt, "--", question])
    return capsys.readouterr().out


QWEN_TGI = "text-generation-launcher --model-id Qwen/Qwen2.5-7B-Instruct --cuda-memory-fraction 0.4"


@pytest.mark.parametrize(
    ("question", "words"),
    [
        (
            "one A10 24G, how much memory is left for the KV cache",
            (
                "no — at cuda_memory_fraction 0.4 it does not start: 7.1 GiB usable per GPU",
                "about 0.85 leaves",
            ),
        ),
        (
            "一张 A10 24G，KV 缓存能用多少显存",
            ("cuda_memory_fraction 0.4 时无法启动：每卡可用 7.1 GiB", "调到约 0.85"),
        ),
    ],
)
def test_stated_share_too_small_answered_at_their_setting_first(capsys, tmp_path, question, words):
    """15.2 GB of weights do not fit in 0.4 × 22.5 GiB × TGI's 0.95 less the CUDA context (7.1 GiB):
    the headline says so at their share, and the share that holds the weights and one sequence —
    not 'fits only if … gpu_memory_utilization above 0.9' beside a plan on more GPUs (s32 trial #1)."""
    head = _ask_config(capsys, tmp_path, QWEN_TGI, question).splitlines()[0]
    for word in words:
        assert word in head
    assert "gpu_memory_utilization" not in head
    report = json.loads(_ask_config(capsys, tmp_path, QWEN_TGI, question, "json"))["report"]
    assert (report["feasible"], report["feasible_reason"]) == ("no", "stated_share")
    assert report["inference"]["serving_gpus"] == 1  # one GPU count throughout: theirs
    note = next(w for w in report["warnings"] if w["code"] == "stated_share_short")
    assert (note["params"]["share"], note["params"]["needed"]) == (0.4, 0.85)


@pytest.mark.parametrize(
    ("question", "words"),
    [
        (
            "Qwen2.5 7B served by TGI on 2 A100 80G, cuda memory fraction 0.6, how much memory is usable?",
            "41.8 GiB usable per GPU, ≈ 26.2 GiB of it for the KV cache",
        ),
        (
            "用 TGI 在 2 张 A100 80G 上部署 Qwen2.5 7B，--cuda-memory-fraction 0.6，可用显存多少",
            "每卡可用 41.8 GiB，扣除权重和工作区后约 26.2 GiB 留给 KV cache",
        ),
    ],
)
def test_usable_memory_asked_is_in_the_headline(capsys, question, words):
    """0.6 × the card × TGI's 0.95 less the CUDA context; the KV cache's room is that less 14.2 GiB of
    weights and the workspace: the figure asked leads, not a detail line (s32 trial #2)."""
    head = _ask(capsys, question).splitlines()[0]
    assert words in head
    assert "cuda_memory_fraction 0.6" in head
