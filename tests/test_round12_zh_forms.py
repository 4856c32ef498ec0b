"""Round 12 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r12.json): kinds of
writing the r12work half showed the parser missing, each read for its whole axis — pipeline parallelism
under each of its Chinese names and as a degree or a stage count ('管道并行 2', '管线并行度 2', '2 个流水线
阶段', 'PP degree 2', '2 pipeline stages') — tested in both languages through the CLI (``sizing-bot ask
--format json``). The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


def req(data: dict[str, Any], key: str) -> Any:
    return data["request"].get(key)


def ignored(data: dict[str, Any]) -> list[tuple[str, str]]:
    return [(str(i.get("text")), str(i.get("reason"))) for i in data["interpretation"].get("ignored") or []]


@pytest.mark.parametrize(
    ("text", "tp", "pp"),
    [
        ("用 vLLM 管道并行 2、张量并行 4，在 8 卡 4090 上部署 Qwen2.5-72B 够吗", 4, 2),
        ("8 张 A800 预训练 Llama-3-70B，管线并行度为 2，张量并行 4，要多久", 4, 2),
        ("16 张 H100 训练 Qwen2.5-72B，切成 4 个流水线阶段，张量并行度 4", 4, 4),
        ("SGLang 流水并行 2 张量并行 2，4 卡 L40S 部署 Qwen2.5-32B", 2, 2),
        ("8 A100s, 2 pipeline stages and TP 4, pre-training Llama-3-70B: how long?", 4, 2),
        ("PP degree 2, TP degree 4 on 8 H100s to serve Qwen2.5-72B", 4, 2),
        ("serving Llama-3.1-70B on 8 L40S with a pipeline parallel degree of 2 and tp 4", 4, 2),
    ],
)
def test_pipeline_parallelism_under_each_of_its_names(
    capsys: pytest.CaptureFixture[str], text: str, tp: int, pp: int
) -> None:
    """A pipeline-parallel degree under its Chinese names (流水线并行, 流水并行, 管道并行, 管线并行), said as
    a degree ('PP degree 2') or as the pipeline's stage count ('2 pipeline stages', '2 个流水线阶段'):
    before, '管道并行 2' and '2 pipeline stages' were named unread and 'TP degree 4' dropped."""
    data = ask(capsys, text)
    assert (req(data, "tp"), req(data, "pp")) == (tp, pp)
