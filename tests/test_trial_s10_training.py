"""Training-estimator defects from the s10 fresh-user trial (/work/notes/s10/trial_report.md A2, A3, A5).

A2: an RL run's rollout decode hours were multiplied by the training recompute factor (ms-swift GRPO 32B:
136 rollout + 54 training = 190 GPU-hours, total shown 228 = 190 × 1.2). Decoding recomputes nothing
(Korthikanti et al. 2022 §5: full recomputation repeats the forward inside the backward), so only the
training part is slowed, and the parts add up to the total.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main

GRPO = {
    "en": "GRPO with ms-swift, Qwen2.5-32B, num_generations 8, vllm_tensor_parallel_size 2, 16 H100, "
    "5000 prompts, max_completion_length 4096",
    "zh": "用 ms-swift 跑 GRPO，Qwen2.5-32B，num_generations 8，vllm_tensor_parallel_size 2，16张H100，"
    "5千条prompt，max_completion_length 4096",
}


def _ask(capsys, question: str) -> dict:
    assert main(["ask", "--format", "json", question]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rl_recompute_slows_only_the_training_part(capsys, lang: str) -> None:
    """Total = rollout decode + training passes × (k + 2)/k, k = 10 for GRPO (design §3.2)."""
    d = _ask(capsys, GRPO[lang])
    rep = d["report"]
    factor = next(a["value"] for a in d["assumptions"] if a["field"] == "recompute_time")
    assert factor == pytest.approx(1.2)  # (10 + 2) / 10
    roll, total = rep["rollout"], rep["gpu_hours"]["likely"]
    assert total == pytest.approx(roll["gpu_hours"] + roll["training_gpu_hours"]["likely"], rel=1e-9)
    assert roll["gpu_hours"] == pytest.approx(136.3, abs=0.1)  # decode time, unchanged by recompute
    assert roll["training_gpu_hours"]["likely"] == pytest.approx(53.67 * 1.2, abs=0.1)
    assert total == pytest.approx(200.7, abs=0.1)  # was 227.9 = 189.9 × 1.2


DPO = {
    "en": "DPO training Llama-3.1-8B on 20k preference pairs, LoRA rank 16, one node of 8 RTX 4090, how long",
    "zh": "DPO训练Llama-3.1-8B，2万对偏好数据，LoRA 秩 16，单机8卡4090，需要多长时间",
}
DPO_SEQ_LINE = {
    "en": "Sequence length: 2K — memory: chosen and rejected sequences each up to this length",
    "zh": "序列长度：2K — 显存：chosen 和 rejected 每条序列都按最长到这个长度计",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_dpo_pairs_time_the_average_and_size_the_longest(capsys, lang: str) -> None:
    """A5, then s11 review item 9 (as for SFT): 20K pairs × 2 sequences × 512 tokens (TOKENS_PER_SAMPLE,
    Alpaca/Vicuna middle) = 20.48M tokens and a batch of 128 × 512 for the time, while the memory holds
    chosen and rejected sequences up to 2,048 (SEQ_LEN_FINETUNE) — the same 13.34 GiB per GPU (11.33
    before s23: ZeRO-3 now all-gathers the frozen base too, 1e9 bf16 elements live = 1.86 GiB + 8 %
    fragmentation), DP 8 ZeRO-3 with full recompute, as when 2,048 is stated (next test); was 10.6 GiB
    at 512, selective."""
    d = _ask(capsys, DPO[lang])
    plan = d["report"]["memory"]["plan"]
    # s43 fixverdict #1: DP 8 ZeRO-3 was borderline (26.6 GiB high of 24); TP 2 × DP 4 fits at both ends
    assert (plan["tp"], plan["dp"], plan["zero_stage"], plan["recompute"]) == (2, 4, 0, "full")
    seq = next(a for a in d["assumptions"] if a["field"] == "seq_len")
    assert (seq["value"], seq["why"]) == (2048, "seq_max_for_pairs")
    assert (d["request"]["tokens_per_sample"], d["request"]["tokens"]) == (512, 20_480_000)
    steps = 20_000 * 2 / plan["global_batch_sequences"]  # 312.5 steps of 128 sequences
    assert steps * plan["global_batch_sequences"] * 512 == pytest.approx(20_480_000)
    # s21 fixa: ZeRO-3 shards the adapters' states over DP 8 (was 11.85 GiB)
    # s23: ZeRO-3 all-gathers the frozen base too (stage3_max_live_parameters = 1e9 bf16 elements, 1.86 GiB
    # + 8 % fragmentation = 2.01 GiB; estimator.transients.gathered_weights): 11.33 -> 13.34
    assert d["report"]["memory"]["per_gpu_bytes"] / 2**30 == pytest.approx(12.50, abs=0.01)  # s43: 13.34
    assert DPO_SEQ_LINE[lang] in d["reply"]


def test_recompute_note_compares_the_same_layout(capsys) -> None:
    """A5: the "switched on full recompute to fit" note gave 7.3 GiB without it — the TP 8 layout, which
    the plan does not take on cards without NVLink — so it read as recompute for nothing. The figure
    without it is now the plan's own layout (DP 8, ZeRO-3) keeping its activations: 28.6 GiB > 24 GiB."""
    d = _ask(
        capsys,
        "DPO training Llama-3.1-8B on 20k preference pairs, 2048 tokens per sequence, LoRA rank 16, "
        "one node of 8 RTX 4090, how long",
    )
    mem = d["report"]["memory"]
    # s43 fixverdict #1: DP 8 ZeRO-3 (borderline at the high end) → TP 2 × DP 4, which fits at both ends
    assert (mem["plan"]["dp"], mem["plan"]["zero_stage"], mem["plan"]["recompute"]) == (4, 0, "full")
    [note] = [w for w in d["report"]["warnings"] if w["code"] == "recompute_chosen"]
    # s21 fixa: ZeRO-3 shards the adapters' states over DP 8 (were 11.85 and 29.13 GiB)
    # s23: ZeRO-3 all-gathers the frozen base too (stage3_max_live_parameters = 1e9 bf16 elements, 1.86 GiB
    # + 8 % fragmentation = 2.01 GiB; estimator.transients.gathered_weights): 11.33 -> 13.34
    assert note["params"]["per_gpu_gib"] == pytest.approx(12.50, abs=0.01)  # s43 fixverdict: 13.34
    assert note["params"]["without_gib"] == pytest.approx(26.27, abs=0.01)  # 30.62 on DP 8 ZeRO-3 (s43)
    assert note["params"]["without_gib"] * 2**30 > mem["usable_bytes"]  # it does need recompute to fit


OFFLOAD = {
    "en": "full fine-tune Llama-3.1-70B on two nodes of 8 H100, ZeRO-3 with CPU offload, seq len 8192, 100k "
    "samples, how long and how much memory per GPU?",
    "zh": "全参微调 Llama-3.1-70B，两台8卡H100，ZeRO-3 加 CPU offload，序列长度8192，10万条样本，"
    "要多久，每卡显存多少",
}
OFFLOAD_LINE = {
    "en": "about 847 GB of host RAM per node for the optimizer states, and slower steps "
    "(×1.04 in the time above)",
    "zh": "每个节点约需 847 GB 主机内存放优化器状态，而且每步更慢（上面的时间已算进 ×1.04）",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_cpu_offload_costs_time_and_host_ram_is_per_node(capsys, lang: str) -> None:
    """A3: the time had no offload cost (505 H100-hours = 25.77 % MFU / 1.333 recompute only) and the
    847 GB of host RAM was both nodes' total. Now per step: the CPU Adam pass over one node's half of
    70.6B parameters, 35.3e9 × 28 B / 200 GB/s = 4.94 s, plus 70.6e9 / 16 × 4 B / 25 GB/s = 0.71 s over
    PCIe, against ≈ 145 s of GPU work for 128 × 8,192 tokens (estimator/offload_time.py; ZeRO-Offload,
    Ren et al. 2021), ×1.039; host RAM 12 B × 70.6e9 / 2 nodes = 424 GB (ZeRO §3.1);
    s16 review: the reply says DeepSpeed's, 16 B × 1.5 / 2 nodes = 847 GB (estimator/host_ram.py)."""
    from estimator.offload_time import host_bytes_per_node, offload_seconds_per_step

    params = 70_553_706_496
    assert offload_seconds_per_step(params, 16, 8) == pytest.approx(
        params / 2 * 28 / 200e9 + params / 16 * 4 / 25e9
    )
    assert host_bytes_per_node(params, 16, 8) / 1e9 == pytest.approx(423.3, abs=0.1)
    d = _ask(capsys, OFFLOAD[lang])
    a = next(a for a in d["assumptions"] if a["field"] == "offload_time")
    assert a["value"] == pytest.approx(1.039, abs=0.001)
    assert a["params"]["seconds"] == pytest.approx(5.6, abs=0.05)
    hours = d["report"]["gpu_hours"]["likely"]
    assert hours == pytest.approx(505.3 * a["value"], rel=0.01)  # was 505: the recompute alone
    assert OFFLOAD_LINE[lang] in d["reply"]
