"""MLA's latent KV cache under a TP the user states (fresh-user trial s19, issue 24 item 2): one head, so
every TP rank holds all of it (SGLang MLATokenToKVPool, vLLM's MLA backend) and the pool is one rank's
free memory ÷ the latent's size; SGLang's --enable-dp-attention (or no TP stated: the layout the answer
recommends and its recipes write) keeps each sequence's latent on one GPU (estimator.mla_layout)."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import catalog
from estimator.models import Precision
from estimator.runtimes import runtime_for

LAUNCH = "python3 -m sglang.launch_server --model deepseek-ai/DeepSeek-R1 --tp 8 {flag}--trust-remote-code"
ASK = " on 8x H200, 32 concurrent users with 8k context"


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    assert main(["ask", "--format", "json", text]) == 0
    return json.loads(capsys.readouterr().out)


def test_deepseek_latent_bytes_per_token() -> None:
    """DeepSeek-V3/R1 config.json: 61 layers, kv_lora_rank 512, qk_rope_head_dim 64; bf16: 61 × 576 × 2 =
    70,272 bytes a token (68.6 KiB), the same on every rank."""
    spec = catalog.model("DeepSeek-R1")
    assert spec.layers * (spec.kv_lora_rank + spec.qk_rope_head_dim) * 2 == 70_272


@pytest.mark.parametrize(("copies", "expected"), [(True, 8.0), (False, 1.0)])
def test_kv_replication_of_mla_under_tp(copies: bool, expected: float) -> None:
    rt = runtime_for(catalog.gpu("H200-SXM-141GB"), Precision.fp8, named="SGLang", mla_tp_copies=copies)
    assert rt.kv_replication(catalog.model("DeepSeek-R1"), 8) == expected


def test_gqa_replication_is_unchanged() -> None:
    """Llama 3.1 70B, 8 KV heads: TP 8 splits them, one copy (vLLM replicates only above the head count)."""
    rt = runtime_for(catalog.gpu("H200-SXM-141GB"), Precision.bf16, mla_tp_copies=True)
    assert rt.kv_replication(catalog.model("Llama-3.1-70B"), 8) == 1.0


def test_stated_tp_8_holds_one_ranks_pool(capsys) -> None:
    plain = ask(capsys, LAUNCH.format(flag="") + ASK)["report"]["inference"]
    dp = ask(capsys, LAUNCH.format(flag="--enable-dp-attention ") + ASK)["report"]["inference"]
    assert plain["kv_bytes_per_token"] == dp["kv_bytes_per_token"] == 70_272
    # DP attention's pool is the eight ranks' pools summed, each rank's smaller than plain TP's by SGLang's
    # 4 GiB more reserve and the attention weights + embedding each rank keeps whole (s44, estimator.
    # dp_replicated: 11.6 GB above 1/8 of them; before, 4,943,465 with every weight split over the 8)
    extra = dp_note(capsys)["extra_bytes"]
    per_rank = plain["kv_capacity_tokens"] - (extra + 4 * 2**30) / 70_272
    assert dp["kv_capacity_tokens"] == 3_621_909 == pytest.approx(8 * per_rank, rel=0.01)
    # one rank's pool ÷ one 8K sequence's latent (8,192 × 70,272 B): 82 at once, not 442
    assert plain["max_concurrency"] == plain["kv_capacity_tokens"] // 8192 == 82
    assert dp["max_concurrency"] == 442


def dp_note(capsys) -> dict:
    """The params of the note on the weights each DP-attention rank keeps whole (s44)."""
    report = ask(capsys, LAUNCH.format(flag="--enable-dp-attention ") + ASK)["report"]
    return next(w["params"] for w in report["warnings"] if w["code"] == "dp_attention_replicated_sglang")


def test_the_layout_is_said(capsys) -> None:
    d = ask(capsys, LAUNCH.format(flag="") + ASK)
    layout = next(a for a in d["assumptions"] if a["field"] == "kv_layout")
    assert "MLATokenToKVPool" in json.dumps(layout) and "--enable-dp-attention" in json.dumps(layout)
    assert d["request"].get("dp_attention") is None


def test_no_engine_named_is_vllms_plain_tp(capsys) -> None:
    """No engine and no TP named: vLLM is sized, at its default plain --tensor-parallel-size (s25 trial #8),
    one rank's pool (81 sequences of 8K); DP attention said keeps each GPU's own sequences' latent: 421
    (s44: vLLM's DP ranks keep every weight but the routed experts whole, 16.6 GB more each than 1/8 of
    them, estimator.dp_replicated; 651 before)."""
    inf = ask(capsys, "DeepSeek-R1 on 8x H200, 32 concurrent users with 8k context")["report"]["inference"]
    dp = ask(capsys, "DeepSeek-R1 on 8x H200 with DP attention, 32 concurrent users with 8k context")
    assert inf["max_concurrency"] == 81 and dp["report"]["inference"]["max_concurrency"] == 421
