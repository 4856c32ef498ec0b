"""Training as returned parts (issue 23 item 2): the helpers of :mod:`estimator.training` and its
split modules return the fields they settle (a dict of :class:`estimator.training.TrainingResult`
fields, :class:`estimator.training_rate.Rate`, ``SetupParts``, ``PlanParts``) and only
:func:`estimator.training.size_training` / :func:`estimator.training.rented_hours` combine them."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from bot.cli import main

ESTIMATOR = Path(__file__).resolve().parents[1] / "estimator"
COMBINERS = {"size_training", "rented_hours"}


def _result_writes(path: Path) -> list[str]:
    """'file:line function' for each assignment to an attribute of a name ``out`` outside the combiners."""
    hits = []
    for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(fn, ast.FunctionDef) or fn.name in COMBINERS:
            continue
        for node in ast.walk(fn):
            targets = node.targets if isinstance(node, ast.Assign) else []
            for target in targets:
                for t in ast.walk(target):
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "out":
                        hits.append(f"{path.name}:{node.lineno} {fn.name}")
    return hits


def test_only_the_combiners_write_the_training_result() -> None:
    files = sorted(ESTIMATOR.glob("training*.py"))
    assert len(files) >= 5  # training, training_plan, training_rate, training_result, training_setup
    assert [hit for path in files for hit in _result_writes(path)] == []


def test_a_known_duration_is_gpus_times_hours(capsys: pytest.CaptureFixture[str]) -> None:
    """'2台8卡H800跑了36小时': 16 GPUs × 36 h = 576 GPU-hours, from _known_duration's returned fields."""
    assert main(["ask", "--format", "json", "Qwen2.5-7B全量微调，2台8卡H800跑了36小时，花了多少钱"]) == 0
    report = json.loads(capsys.readouterr().out)["report"]
    assert report["gpu_hours"] == {"low": 576.0, "likely": 576.0, "high": 576.0}
    assert report["days_table"] == [{"gpus": 16, "low": 1.5, "likely": 1.5, "high": 1.5}]  # 36 h = 1.5 days
