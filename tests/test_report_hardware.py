"""The report carries what was sized (issue 23 item 2): the GPU as resolved and the model shape, so
recipes and the JSON contract never go back to the catalog or re-resolve the model."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bot.parse import parse
from bot.recipes import build_recipes
from bot.recipes import model as recipe_model
from estimator.sizing import estimate


def _ask_json(question: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "bot", "ask", "--format", "json", "--", question],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out)["report"]


def test_json_report_names_the_hardware_and_model_shape_sized():
    report = _ask_json("7B模型1万亿token要多少H100")
    hw = report["hardware"]
    # estimator/data/gpus.toml, H100-SXM5-80GB: NVIDIA datasheet dense BF16 989.4 / FP8 1,978.9 TFLOPS
    assert (hw["id"], hw["memory_gib"], hw["gpus_per_node"], hw["nvlink"]) == (
        "H100-SXM5-80GB",
        80.0,
        8,
        True,
    )
    assert (hw["peak_tflops_bf16"], hw["peak_tflops_fp8"], hw["unified_memory"]) == (989.4, 1978.9, False)
    assert report["model_shape"]["id"] == "dense-7B"  # a bare size: the generic shape sized
    assert report["model_shape"]["params_total"] == pytest.approx(7e9, rel=0.05)


def test_a_unified_memory_machine_is_one_gpu_per_node_in_the_report():
    hw = _ask_json("M2 Ultra 192G 跑 Llama-3-70B int4")["hardware"]
    assert (hw["gpus_per_node"], hw["unified_memory"], hw["gpu_memory_fraction"]) == (1, True, 0.75)


def test_recipes_use_the_reports_model_and_gpu(monkeypatch: pytest.MonkeyPatch):
    """A model size the estimator assumed ('a model on 1T tokens'): the recipe is for the shape that
    was trained (model_spec), and nothing re-resolves it."""
    report = estimate(parse("What does it cost to train a model on 1T tokens?").request)
    assert report.model_spec is not None and report.model_spec.params_total == report.request.params_total

    def no_resolve(*_a, **_k):
        raise AssertionError("the recipe re-resolved the model")

    monkeypatch.setattr(recipe_model, "resolve_model", no_resolve)
    job = recipe_model.job_for(report, "en")
    assert job.spec is report.model_spec and job.gpu is report.gpu_spec
    assert job.per_node == report.gpus_per_node == 8
    recipes = build_recipes(report, "en")
    megatron = next(r for r in recipes if r.tool == "megatron")
    assert f"--num-layers {report.model_spec.layers}" in megatron.text
