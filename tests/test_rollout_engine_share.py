"""The RL rollout engine's usable memory uses the user's own share of each GPU (s11 review item 8): verl
``actor_rollout_ref.rollout.gpu_memory_utilization``, ms-swift / OpenRLHF / TRL
``vllm_gpu_memory_utilization`` → the request's ``rollout_gpu_memory_utilization``, passed to vLLM's
usable memory (``gpu_memory_utilization`` × the memory CUDA reports, estimator.runtimes.vllm); vLLM's
default 0.9 otherwise, said in the ledger. Qwen2.5-72B (72.7B parameters: 145.4 GB of 16-bit weights)
with a stated rollout TP 4 on H100 80GB (79.2 GiB visible): 36.4 GB of weights + KV per GPU, above
0.4 × 79.2 GiB = 31.7 GiB — TP 4 is too small at 0.4 (TP 8 holds it), fits at the default 0.9."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import catalog
from estimator.rollout import engine_usable_bytes
from estimator.runtimes import visible_bytes


def test_engine_usable_bytes_takes_the_share():
    h100 = catalog.gpu("H100-SXM5-80GB")
    assert engine_usable_bytes(h100, 0.4) == pytest.approx(0.4 * visible_bytes(h100))
    assert engine_usable_bytes(h100) == pytest.approx(0.9 * visible_bytes(h100))


ASK = {
    "en": "GRPO on Qwen2.5-72B with 16 H100, vllm_tensor_parallel_size 4, vllm_gpu_memory_utilization 0.4, "
    "10k prompts, how long",
    "zh": "GRPO 训练 Qwen2.5-72B，16 张 H100，vllm_tensor_parallel_size 4，vllm_gpu_memory_utilization 0.4，"
    "1万条 prompt，要多久",
}
ECHO = {"en": "rollout engine at 40% of each GPU", "zh": "rollout 引擎占每卡 40% 显存"}


def _json(capsys, text: str) -> dict:
    """`sizing-bot ask --format json`, the public contract."""
    assert main(["ask", "--format", "json", text]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_stated_rollout_share_sets_the_engine_memory(capsys, lang: str):
    d = _json(capsys, ASK[lang])
    assert d["request"]["rollout_gpu_memory_utilization"] == 0.4
    assert d["request"]["gpu_memory_utilization"] is None  # not the serving engine's share
    assert not [i for i in d["interpretation"]["ignored"] if "utilization" in i["text"]]
    [note] = [w["params"] for w in d["report"]["warnings"] if w["code"] == "rollout_tp_too_small"]
    h100 = catalog.gpu("H100-SXM5-80GB")
    assert note["usable_bytes"] == pytest.approx(0.4 * visible_bytes(h100))
    assert (note["tp"], note["fits_tp"]) == (4, 8)
    assert d["report"]["rollout"]["decode_tp"] == 8
    assert "rollout_gpu_memory_utilization" not in {a["field"] for a in d["assumptions"]}
    assert ECHO[lang] in d["reply"]


def test_default_share_is_vllms_and_in_the_ledger(capsys):
    d = _json(capsys, ASK["en"].replace(", vllm_gpu_memory_utilization 0.4", ""))
    assert d["request"]["rollout_gpu_memory_utilization"] is None
    share = next(a for a in d["assumptions"] if a["field"] == "rollout_gpu_memory_utilization")
    assert (share["value"], share["why"]) == (0.9, "rollout_engine_share")
    assert d["report"]["rollout"]["decode_tp"] == 4  # 0.9 × 79.2 GiB holds a quarter of the weights
    assert "rollout_tp_too_small" not in {w["code"] for w in d["report"]["warnings"]}
