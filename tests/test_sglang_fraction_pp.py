"""SGLang's default ``mem_fraction_static`` for a replica of TP × PP GPUs, one function for the sizing
and the ledger's assumption (sglang/srt/server_args.py ``_handle_mem_fraction_static``, v0.5.2:
``parallel_size = self.tp_size * self.pp_size``; A100/H100 class, below 90 GiB: reserved
``(9.5 + parallel_size / 2)`` GiB). Before, the assumption used TP × PP and the workspace TP alone."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import catalog
from estimator.runtimes import SGLang, sglang_mem_fraction, visible_bytes
from estimator.runtimes.base import Load
from estimator.units import GIB

QUESTION = "用SGLang部署Llama-3.1-405B，2台8卡A100 80G，并发16，上下文8k"
STATED = "用SGLang部署Llama-3.1-405B，2台8卡A100 80G，--tp 8 --pp-size 2，并发16，上下文8k"
"""Unstated, SGLang's two-node copy of the 405B is TP 16 (s40 fixw2: both TP 16 across the nodes and TP 8
× PP 2 are candidates; at 16 GPUs each the rule takes no pipeline — SGLang's own two-node 405B launch,
``--tp 16 --nnodes 2``, docs.sglang.io references/multi_node_deployment); stated, TP 8 × PP 2. Both
reserve for 16 ranks: the same fraction."""


def test_sglang_default_fraction_reads_tp_times_pp():
    """A100 80G (79.2 GiB visible): TP 8 × PP 2 = 16 → reserved 9.5 + 16/2 = 17.5 GiB → 0.779; TP 8
    alone → 13.5 GiB → 0.830. The workspace (the share outside the fraction) follows the 16."""
    gpu = catalog.gpu("A100-SXM4-80GB")
    cap = visible_bytes(gpu) / GIB
    assert sglang_mem_fraction(gpu, 16) == round((cap - 17.5) / cap, 3) == 0.779
    assert sglang_mem_fraction(gpu, 8) == round((cap - 13.5) / cap, 3) == 0.830
    spec = catalog.model("Llama-3.1-405B")
    rt = SGLang()
    usable = rt.usable_bytes(gpu)
    assert rt.workspace_bytes(spec, gpu, 8, Load(pp=2)) == pytest.approx((1 - 0.779) * usable, rel=1e-12)
    assert rt.workspace_bytes(spec, gpu, 8, Load()) == pytest.approx((1 - 0.830) * usable, rel=1e-12)
    assumed = rt.utilization_assumed(gpu, 8, spec, 2)
    assert assumed is not None and assumed.value == 0.779


@pytest.mark.parametrize(("question", "group"), [(QUESTION, (16, 1)), (STATED, (8, 2))])
def test_cli_sglang_tp8_pp2_assumption_matches_the_sizing(capsys, question, group):
    """Through `sizing-bot ask --format json`: 405B on 2 × 8 A100 80G with SGLang at 16 ranks (STATED);
    the assumed mem_fraction_static 0.779 and the workspace (1 − 0.779) × usable per GPU agree, and the
    launch line says --mem-fraction-static 0.77 (was 0.83 from TP alone)."""
    assert main(["ask", "--format", "json", question]) == 0
    data = json.loads(capsys.readouterr().out)
    inf = data["report"]["inference"]
    assert (inf["tp"], inf["pp"]) == group
    share = next(a for a in data["assumptions"] if a["why"] == "sglang_mem_fraction")
    assert share["value"] == 0.779
    assert inf["workspace_bytes_per_gpu"] / inf["usable_bytes_per_gpu"] == pytest.approx(1 - 0.779, abs=1e-9)
    recipe = next(r for r in data["report"]["recipes"] if r["tool"] == "sglang")
    assert "--mem-fraction-static 0.77" in recipe["text"]
