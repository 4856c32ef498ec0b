"""Invariants and boundaries that catch the faults a hand-made mutation run found the suite letting
through (issue #11): ZeRO sharding on every optimizer path, KV copies under tensor parallelism,
escaping of what we echo, the PPO compute factor, whole nodes at exact multiples."""

from __future__ import annotations

import pytest
from htmlcheck import assert_telegram_html
from hypothesis import given
from hypothesis import strategies as st

from bot.chat.commands import gpus_text
from bot.render.env import new_environment
from bot.settings.presales import PresalesConfig
from estimator import catalog, compute
from estimator.inference import LOCAL, VLLM, _kv_replication, kv_bytes_per_sequence, sequences_per_replica
from estimator.memory import breakdown
from estimator.model_states import state_parts
from estimator.models import Method, Plan
from estimator.optimizer_states import BNB_8BIT_ABSMAX_BYTES_PER_PARAM, OPTIMIZER_BYTES_PER_PARAM
from estimator.plan import _count_index, _gpu_count
from estimator.setup import TrainingSetup

SPEC = catalog.model("Llama-3.1-8B")
N = SPEC.params_total


@given(
    dp=st.sampled_from([1, 2, 4, 16]),
    zero=st.sampled_from([0, 1, 2, 3]),
    optimizer=st.sampled_from(["adamw", "adamw8bit", "sgd"]),
    master=st.booleans(),
    paged=st.booleans(),
    tp=st.sampled_from([1, 2]),
)
def test_zero_shards_every_state_over_dp_whatever_the_optimizer(dp, zero, optimizer, master, paged, tp):
    """ZeRO (Rajbhandari et al. 2020, §5): stage ≥ 1 divides the optimizer states, ≥ 2 the gradients,
    3 the weights — by the data-parallel degree, on every optimizer path (paged included)."""
    setup = TrainingSetup(optimizer=optimizer, master_weights=master, paged_optimizer=paged)
    # the states (s25 acts2: a one-GPU ZeRO-0 breakdown's 'gradients' are what its peak holds)
    one = state_parts(SPEC, N, setup, Plan(tp=tp, dp=1, zero_stage=0))
    many = state_parts(SPEC, N, setup, Plan(tp=tp, dp=dp, zero_stage=zero))
    for part, stage in (("optimizer", 1), ("gradients", 2), ("weights", 3)):
        shards = dp if zero >= stage else 1
        assert many[part] == pytest.approx(one[part] / shards), part


def test_paged_8bit_optimizer_keeps_its_absmax_on_the_gpu_sharded_by_zero():
    """bitsandbytes' paged 8-bit AdamW keeps one fp32 absmax per 256 values per state on the GPU."""
    setup = TrainingSetup(optimizer="adamw8bit", paged_optimizer=True)
    parts = breakdown(SPEC, N, setup, Plan(dp=4, zero_stage=1))
    assert parts["optimizer"] == pytest.approx(BNB_8BIT_ABSMAX_BYTES_PER_PARAM * N / 4)
    assert OPTIMIZER_BYTES_PER_PARAM["adamw"] == 12.0  # ZeRO §3: K = 12 for mixed-precision Adam


def test_kv_copies_under_tp_follow_kv_heads_not_attention_heads():
    """vLLM keeps one KV head per GPU when TP exceeds the KV heads: Qwen3-30B-A3B has 32 attention
    heads and 4 KV heads, so TP 8 holds each token's KV twice."""
    spec = catalog.model("Qwen3-30B-A3B")
    assert (spec.heads, spec.kv_heads) == (32, 4)
    assert _kv_replication(spec, 4) == 1.0
    assert _kv_replication(spec, 8) == 2.0
    assert _kv_replication(catalog.model("DeepSeek-V3"), 8) == 1.0  # MLA: one latent per sequence
    gpu = catalog.gpu("H100-SXM5-80GB")
    kv_seq = kv_bytes_per_sequence(spec, 32_768)
    weights = 2.0 * spec.params_total
    at4 = sequences_per_replica(weights, kv_seq, spec, gpu, 4, 1, VLLM)
    at8 = sequences_per_replica(weights, kv_seq, spec, gpu, 8, 1, VLLM)
    assert at8 < 2 * at4  # twice the memory, but every token's KV is stored twice
    assert sequences_per_replica(weights, kv_seq, spec, gpu, 8, 1, LOCAL) > 0


def test_tag_filters_escape_what_they_wrap():
    env = new_environment("html")
    for name in ("b", "i", "code", "pre"):
        assert str(env.filters[name]("<script>&")) == f"<{name}>&lt;script&gt;&amp;</{name}>"
    assert str(env.filters["quote"]("a < b")) == "<blockquote expandable>a &lt; b</blockquote>"


def test_gpus_escapes_the_provider_name():
    offer = PresalesConfig(provider="<b>Evil</b> & Co", gpu=[{"family": "A100", "price_cny_per_gpu_hour": 9}])
    text = gpus_text("en", "CNY", presales=offer)
    assert "&lt;b&gt;Evil&lt;/b&gt; &amp; Co" in text
    assert_telegram_html(text)


def test_rl_compute_factors():
    """C = k·N·D: SFT 6 (Kaplan et al. 2020 §2.1), LoRA 4; DPO + a reference forward 8; GRPO + reference
    and generation 10; PPO trains actor and critic and runs reference and reward forwards and
    generation: 18 (InstructGPT, Ouyang et al. 2022), 14 with LoRA."""
    k = compute.flops_per_param_token
    assert (k(True, "sft"), k(False, "sft")) == (6.0, 4.0)
    assert (k(True, "dpo"), k(True, "grpo"), k(True, "ppo")) == (8.0, 10.0, 18.0)
    assert (k(False, "dpo"), k(False, "grpo"), k(False, "ppo")) == (6.0, 8.0, 14.0)


@pytest.mark.parametrize(
    ("gpus", "nodes_of_8"),
    [(1, 1), (7, 7), (8, 8), (9, 16), (15, 16), (16, 16), (17, 24), (64, 64), (65, 72)],
)
def test_whole_nodes_at_exact_multiples(gpus, nodes_of_8):
    assert compute.round_to_nodes(gpus, 8) == nodes_of_8


@pytest.mark.parametrize(
    ("hours", "days", "expected"), [(24 * 8, 1, 8), (24 * 8 + 1, 1, 16), (24 * 16, 1, 16)]
)
def test_gpus_for_a_deadline_at_exact_multiples(hours, days, expected):
    assert compute.gpus_for_deadline(hours, days, 8) == expected


@pytest.mark.parametrize("per_node", [4, 8])
def test_candidate_counts_are_the_smallest_that_hold_n(per_node):
    """The plan search tries 1, 2, 4, then whole nodes: the index of n is the first candidate ≥ n."""
    counts = [_gpu_count(i, per_node) for i in range(12)]
    assert counts[: 1 + per_node.bit_length() - 1] == [2**i for i in range(per_node.bit_length())]
    for n in range(1, 5 * per_node + 1):
        i = _count_index(n, per_node)
        assert _gpu_count(i, per_node) >= n
        assert i == 0 or _gpu_count(i - 1, per_node) < n


def test_full_method_states_are_sixteen_bytes_per_param():
    parts = state_parts(SPEC, N, TrainingSetup(method=Method.full), Plan())  # the states, not the peak's
    assert parts["weights"] + parts["gradients"] + parts["optimizer"] == pytest.approx(16 * N)


def test_node_wording_at_exact_multiples():
    from bot.render.describe import count_layout
    from bot.render.plan_text import nodes_text
    from estimator import estimate
    from estimator.models import SizingRequest

    assert nodes_text("en", 7, 8) == "" and nodes_text("en", 12, 8) == ""
    assert nodes_text("en", 8, 8) == "one 8-GPU node"
    assert nodes_text("en", 16, 8) == "2 × 8-GPU nodes"
    serve = SizingRequest(model="Llama-3-70B", gpu="H100-SXM5-80GB", stage="inference")
    for count, layout in ((4, "TP=4"), (8, "TP=8"), (16, "TP=8 × PP=2")):
        report = estimate(serve.model_copy(update={"gpu_count": count}))
        assert count_layout(report) == layout
