"""Each stated setting is declared once, on its SizingRequest field (estimator.request), and the lists
the bot uses are derived from those declarations (issue 23 item 3). The published JSON order and the
hand-written code that reads the settings are guarded here by reflection."""

from __future__ import annotations

import inspect
import json
import re
import subprocess
import sys

from bot.contract import REQUEST_FIELDS
from bot.core import followup, interpretation
from bot.render import stated
from estimator.models import SERVING_FIELDS, TRAINING_FIELDS, Method, SizingRequest
from estimator.request import ECHOED_FIELDS, METHOD_FIELDS, setting

PUBLISHED_REQUEST_FIELDS = (
    "stage", "method", "model", "params_total", "params_active", "tokens", "gpu", "gpu_count",
    "deadline_days", "budget", "currency", "price_per_gpu_hour", "seq_len", "batch_size", "concurrency",
    "precision", "mfu", "algorithm", "epochs", "num_samples", "tokens_per_sample", "samples_are_pairs",
    "gpu_count_max", "gpu_memory_gib", "total_memory_gib", "offload", "kv_precision", "prompt_tokens",
    "zero_stage", "lora_rank", "lora_targets", "pure_bf16", "recompute", "freeze_layers", "prefix_tokens",
    "achieved_tflops_per_gpu", "tokens_per_second_per_gpu", "hours", "gpu_memory_utilization", "runtime",
    "methods", "optimizer", "tp", "pp", "global_batch", "concurrency_asked", "duration_asked",
    "architecture", "deadline_default_days",
)  # fmt: skip
"""The ``request`` object of schema 1 as published before the fields were derived: append only."""


def test_contract_request_fields_derived_keep_the_published_order():
    """Append only: the published fields keep their places; a new setting's ``json_order`` goes after."""
    assert REQUEST_FIELDS[: len(PUBLISHED_REQUEST_FIELDS)] == PUBLISHED_REQUEST_FIELDS
    orders = [setting(n)["json_order"] for n in SizingRequest.model_fields]
    assert sorted(orders) == list(range(len(SizingRequest.model_fields)))  # one slot each, no gaps


def test_every_request_field_is_declared():
    for name in SizingRequest.model_fields:
        decl = setting(name)
        assert decl["scope"] in (None, "training", "serving"), name
        assert decl["echo"] in (None, "stage_suffix", "serving_suffix"), name
        assert all(Method(m) for m in decl["methods"]), name


def test_scoped_lists_come_from_the_declarations():
    """The lists as they were written by hand before they were derived (a new setting only adds)."""
    assert set(TRAINING_FIELDS) >= {
        "tokens", "num_samples", "tokens_per_sample", "samples_are_pairs", "epochs", "method", "algorithm",
        "batch_size", "deadline_days", "global_batch", "zero_stage", "lora_rank", "lora_targets",
        "pure_bf16", "recompute", "freeze_layers", "prefix_tokens", "achieved_tflops_per_gpu",
        "tokens_per_second_per_gpu", "methods", "optimizer",
    }  # fmt: skip
    assert set(SERVING_FIELDS) >= {
        "concurrency", "prompt_tokens", "kv_precision", "gpu_memory_utilization", "runtime"
    }  # fmt: skip
    assert {
        "lora_rank": (Method.lora, Method.qlora),
        "lora_targets": (Method.lora, Method.qlora),
        "freeze_layers": (Method.freeze,),
        "prefix_tokens": (Method.ptuning,),
    } == METHOD_FIELDS
    assert followup._METHOD_SETTINGS is METHOD_FIELDS
    assert interpretation.METHOD_FIELDS is METHOD_FIELDS
    assert set(interpretation.TRAINING_ONLY) == set(TRAINING_FIELDS) - {
        "tokens",
        "method",
        "algorithm",
        "batch_size",
    }
    assert interpretation.SERVING_ONLY == SERVING_FIELDS


def _reads(func) -> set[str]:
    """Request fields a render function reads as ``req.<field>``."""
    return set(re.findall(r"\breq\.(\w+)", inspect.getsource(func))) & set(SizingRequest.model_fields)


def test_echo_declarations_match_what_stated_reads():
    """stated.py's echo code stays hand-written (each setting has its own wording): every setting it
    reads is declared with its echo, and every declared echo is read there."""
    context = {"stage", "method", "gpu_count"}  # what decides whether to echo, not echoed themselves
    assert _reads(stated.stated_settings) - context == set(ECHOED_FIELDS["stage_suffix"])
    assert _reads(stated.serving_settings) == set(ECHOED_FIELDS["serving_suffix"])


def test_a_lora_rank_for_full_finetuning_is_named_unused_through_the_cli():
    """The derived METHOD_FIELDS still drive the interpretation: rank 8 on a full fine-tune is not used."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "ask",
            "--format",
            "json",
            "--",
            "full fine-tune Qwen2.5-7B, rank 8, on 8 A100",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    ignored = json.loads(out)["interpretation"]["ignored"]
    assert {"text": "lora_rank: 8", "reason": "not_for_method"} in ignored
