"""MemoRuntime.room (s18 part s18-sp-est): once per PP and workspace key, the same bytes as the room
per GPU of the load on PP stages (estimator.serving_layout.room_per_gpu), for every runtime, card kind,
TP, PP and load, asked in any order."""

from __future__ import annotations

import itertools

import pytest

from estimator import catalog
from estimator.runtimes import EXLLAMA, LMDEPLOY, LOCAL, OLLAMA, SGLANG, TGI, TRANSFORMERS, VLLM, Load
from estimator.runtimes.memo import MemoRuntime
from estimator.serving_layout import room_per_gpu, sequences_per_replica
from estimator.weights import Precision

RUNTIMES = (VLLM, SGLANG, TRANSFORMERS, LOCAL, OLLAMA, LMDEPLOY, TGI, EXLLAMA)
LOADS = (
    Load(),
    Load(context=32768),
    Load(context=4096, batch=16, precision=Precision.fp8),
    Load(context=4096, batch=16, precision=Precision.int4),
    Load(context=4096, pp=2),
)


@pytest.mark.parametrize("runtime", RUNTIMES, ids=lambda r: type(r).__name__)
@pytest.mark.parametrize("gpu_id", ["H100-SXM5-80GB", "A100-SXM4-40GB"])
def test_memo_room_is_the_room_per_gpu(runtime, gpu_id) -> None:
    spec, gpu = catalog.models()["Llama-2-70B"], catalog.gpu(gpu_id)
    memo = MemoRuntime(runtime, spec, gpu)
    asked = list(itertools.product((1, 2, 4, 8), (1, 2, 3), LOADS))
    for tp, pp, load in asked + asked[::-1]:  # again, from the memo
        expected = room_per_gpu(spec, gpu, tp, runtime, load.with_pp(pp))
        assert memo.room(spec, gpu, tp, load, pp) == expected
        assert runtime.room(spec, gpu, tp, load, pp) == expected
    other = catalog.models()["Llama-2-7B"]  # another model: asked of the runtime itself
    assert memo.room(other, gpu, 2, LOADS[1], 1) == room_per_gpu(other, gpu, 2, runtime, LOADS[1])


def test_sequences_per_replica_reads_the_memo_s_room() -> None:
    spec, gpu = catalog.models()["Llama-2-70B"], catalog.gpu("H100-SXM5-80GB")
    memo = MemoRuntime(SGLANG, spec, gpu)  # SGLang's reserve grows with TP × PP
    for tp, pp in ((4, 1), (8, 1), (8, 2)):
        plain = sequences_per_replica(140e9, 1.3e9, spec, gpu, tp, pp, SGLANG, LOADS[2])
        assert sequences_per_replica(140e9, 1.3e9, spec, gpu, tp, pp, memo, LOADS[2]) == plain > 0
