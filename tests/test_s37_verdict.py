"""Session 37, verdicts that match real runs: vLLM's CUDA-graph pool when no release is stated.

vLLM before v0.21 captures its CUDA graphs after the KV cache is allocated, outside
``gpu_memory_utilization`` (V0 vllm/worker/model_runner.py ``capture_model``; V1 to v0.20
vllm/v1/worker/gpu_worker.py); from v0.21 ``determine_available_memory`` takes the profiled pool from the
share ("CUDA graph memory profiling is enabled (default since v0.21.0)"). The estimate's KV capacity is the
V1 profile of the releases before v0.21 (no pool taken from it): field case f11's start-up log (Llama-3.1-70B
W8A8 on one 80 GB card at 0.98, max_model_len 2,048: "# GPU blocks: 1381" × 16 = 22,096 tokens, ``Maximum
concurrency for 2048 tokens per request: 10.79x``, ../shared/corpus/peer_rows.json ``vllm_logs``) is such a
run. So an unstated release is either side of v0.21, and "fits" must also hold with the graphs outside
(estimator.serving_verdict.graphs_outside_budget), as "fits" holds only where a band's high end fits.

en-017's setup (Llama-2-70B-AWQ at TP 8 on 8 × A10G, OOM capturing the graphs on vLLM 0.2.7): an A10G
reports 23,028 MiB with ECC on; 0.9 of it leaves 0.1 × 23,028 MiB − the 1 GiB CUDA context =
1,340,918,988.8 bytes beside the share, under the logged pool's 0.555 GiB plus NCCL's 803 MiB captured in the
graphs over eight PCIe GPUs (vllm-project/vllm#2192): 595,926,712.32 + 842,006,528 = 1,437,933,240.32 bytes.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator.serving_verdict import graphs_outside_budget

GIB, MIB = 2**30, 2**20
A10G_ROOM = 0.1 * 23_028 * MIB - GIB
GRAPHS_WITH_NCCL = 0.555 * GIB + 803 * MIB
assert round(A10G_ROOM, 1) == 1_340_918_988.8 and round(GRAPHS_WITH_NCCL, 2) == 1_437_933_240.32

EN = "vLLM serving TheBloke/Llama-2-70B-AWQ with tensor_parallel_size=8 on 8 x A10G 24GB, will it fit?"
ZH = "用 vLLM 在 8 张 A10G 24GB 上部署 Llama-2-70B-AWQ，tensor_parallel_size=8，显存够吗？"
F11 = (
    "Llama-3.1-70B in W8A8 on one H100 80GB, max_model_len 2048, gpu_memory_utilization 0.98: "
    "how many concurrent requests?"
)


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def test_an_unstated_release_is_either_side_of_v0_21():
    assert graphs_outside_budget(None) and graphs_outside_budget("")
    assert graphs_outside_budget("0.2.7") and graphs_outside_budget("0.20.2")
    assert not graphs_outside_budget("0.21.0") and not graphs_outside_budget("1.0")


@pytest.mark.parametrize("question", [EN, ZH])
def test_graphs_outside_the_share_make_an_unstated_release_borderline(capsys, question):
    out = _ask(capsys, question)
    report = out["report"]
    assert out["request"]["vllm_version"] is None and report["inference"]["tp"] == 8
    assert report["feasible"] == "borderline"
    note = next(w for w in report["warnings"] if w["code"] == "cuda_graphs_outside")
    assert note["params"]["room_bytes"] == pytest.approx(A10G_ROOM)
    assert note["params"]["low_bytes"] == pytest.approx(GRAPHS_WITH_NCCL)


@pytest.mark.parametrize("version", ["vllm 0.21.0: ", "vllm==0.6.4: "])
def test_a_stated_release_settles_it(capsys, version):
    out = _ask(capsys, version + EN)
    assert out["report"]["feasible"] == ("yes" if "0.21" in version else "borderline")


def test_the_kv_capacity_stays_the_logged_pre_v0_21_figure(capsys):
    """f11: 22,096 tokens logged; within 10 % (the field case's band) with no pool taken from the cache."""
    inference = _ask(capsys, F11)["report"]["inference"]
    assert 0.9 * 22_096 <= inference["kv_capacity_tokens"] <= 1.1 * 22_096


def test_the_note_names_the_release_in_both_languages(capsys):
    main(["ask", "--format", "text", "--", EN])
    en = capsys.readouterr().out
    main(["ask", "--format", "text", "--", ZH])
    zh = capsys.readouterr().out
    assert "before v0.21" in en and "v0.21 and later count them inside" in en
    assert "v0.21 之前的 vLLM" in zh and "v0.21 及之后" in zh


# --- Megatron-LM's fp32 gradient buffers (s37 item 1: a general term missing behind "fits") -----------------
# Megatron-LM docs/source/api-guide/dist_optimizer.md, bytes a parameter: "bf16 param, fp32 grads" 18 without
# the distributed optimizer, 6 + 12/d with it; "float16 param, float16 grads" 20 | 4 + 16/d (the optimizer's
# fp32 main grads beside its main params); "fp32 param, fp32 grads" 16 | 8 + 8/d (s37-rev: every row).
# megatron/training/arguments.py: with --bf16, accumulate_allreduce_grads_in_fp32 is set ("accumulate and
# all-reduce gradients in fp32 for bfloat16 data type."), so the DDP wrapper's main_grad buffers are fp32.

LLAMA3_8B = 8_030_000_000


def test_megatron_bf16_model_states_are_its_documented_18_and_6_plus_12_over_d():
    from estimator.model_states import model_state_bytes

    n, d = LLAMA3_8B, 8
    plain = model_state_bytes(n, grad_bytes=4.0)
    assert sum(plain.values()) == 18 * n  # 2 + 4 + 12
    distributed = model_state_bytes(n, zero_stage=1, dp=d, grad_bytes=4.0)
    assert sum(distributed.values()) == pytest.approx((6 + 12 / d) * n)
    assert sum(model_state_bytes(n).values()) == 16 * n  # every other stack: 2 + 2 + 12 (ZeRO Table 1)


@pytest.mark.parametrize(
    ("question", "weight", "grad", "optimizer"),
    [  # bytes a parameter of weights, gradients, optimizer states (dist_optimizer.md's rows)
        ("Full fine-tune Llama-3-8B with Megatron-LM on 8 x A100 80GB", 2.0, 4.0, 12.0),  # 18
        ("用 Megatron-LM 全参微调 Llama-3-8B，8 张 A100 80GB", 2.0, 4.0, 12.0),
        ("Full fine-tune Llama-3-8B with Megatron-LM --fp16 on 8 x A100 80GB", 2.0, 2.0, 16.0),  # 20
        ("Full fine-tune Llama-3-8B with Megatron-LM on 8 x V100 32GB", 2.0, 2.0, 16.0),  # no bf16: --fp16
        ("Full fine-tune Llama-3-8B with Megatron-LM in fp32 on 8 x A100 80GB", 4.0, 4.0, 8.0),  # 16
        (
            "Full fine-tune Llama-3-8B with DeepSpeed on 8 x A100 80GB",
            2.0,
            2.0,
            12.0,
        ),  # not Megatron's buffers
    ],
)
def test_the_model_states_follow_megatrons_table(capsys, question, weight, grad, optimizer):
    memory = _ask(capsys, question)["report"]["memory"]
    plan = memory["plan"]
    shard = LLAMA3_8B / (plan["tp"] * plan["pp"])
    zero, dp = plan["zero_stage"], plan["dp"]
    parts = memory["breakdown"]
    assert parts["weights"] == pytest.approx(weight * shard / (dp if zero >= 3 else 1))
    assert parts["gradients"] == pytest.approx(grad * shard / (dp if zero >= 2 else 1))
    if not plan.get("offload"):
        assert parts["optimizer"] == pytest.approx(optimizer * shard / (dp if zero >= 1 else 1))


def test_megatron_fp16_and_fp32_model_states_are_its_documented_20_and_16():
    from estimator.model_states import model_state_bytes

    n, d = LLAMA3_8B, 8
    assert sum(model_state_bytes(n, extra=(0.0, 4.0)).values()) == 20 * n  # 2 + 2 + 16
    assert sum(model_state_bytes(n, zero_stage=1, dp=d, extra=(0.0, 4.0)).values()) == pytest.approx(
        (4 + 16 / d) * n
    )
    fp32 = model_state_bytes(n, grad_bytes=4.0, extra=(2.0, -4.0))
    assert sum(fp32.values()) == 16 * n  # 4 + 4 + 8
    distributed = model_state_bytes(n, zero_stage=1, dp=d, grad_bytes=4.0, extra=(2.0, -4.0))
    assert sum(distributed.values()) == pytest.approx((8 + 8 / d) * n)
