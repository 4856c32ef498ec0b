"""Session 47 (s47-speedest, issue 23 item 7): a serving question's runtime memo kept across answers.

:func:`estimator.search_keep.kept_runtime` keeps each (runtime, model, card)'s
:class:`estimator.runtimes.memo.MemoRuntime` — its usable bytes, vLLM's profile peaks by (TP, load), the
rooms by PP and the KV copies by TP — so a serving question asked again (a follow-up, another format, a
comparison that sizes the same card again) reads them instead of evaluating vLLM's profile again, as the
training searches are kept since s33. Every answer is byte-identical (bench/answers_dump.py ``all`` at
main 11083ff0 and this branch, 4 formats, 0 differ); the call counts are pinned in
tests/test_s33_spre.py (an estimate asked again) and tests/test_search_sharing.py (a first estimate)."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

import estimator.runtimes.vllm as vllm
from bot.cli import main
from estimator import catalog, search_keep
from estimator.plan import forget_searches
from estimator.runtimes import VLLM, Vllm
from estimator.search_keep import kept_runtime

QUESTIONS = {
    "en": "Serve Llama-3.1-8B on one A100 80GB with vLLM for 32 concurrent users at 8k context",
    "zh": "用vLLM在一张A100 80G上部署Llama-3.1-8B，32个并发，8k上下文",
}


def _ask(question: str) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main(["ask", "--format", "json", "--", question])
    return json.loads(out.getvalue())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_serving_question_asked_again_reads_its_kept_workspaces(monkeypatch, lang: str) -> None:
    """The second ask evaluates vLLM's profile not once (its need too: ``MemoRuntime.needed_workspace``)
    and answers the same JSON as the first. Llama 3.1
    8B's KV cache: 32 layers × 8 KV heads × 128 dims × (K, V) × 2 bytes = 131,072 bytes a token
    (meta-llama/Llama-3.1-8B config.json), 8,192 tokens a sequence × 32 = 32 GiB."""
    first = _ask(QUESTIONS[lang])
    evaluated: list[tuple] = []
    real = vllm.vllm_profile_bytes
    monkeypatch.setattr(vllm, "vllm_profile_bytes", lambda *a, **kw: evaluated.append(a) or real(*a, **kw))
    again = _ask(QUESTIONS[lang])
    assert again == first and evaluated == []
    inference = again["report"]["inference"]
    assert inference["kv_bytes_per_token"] == 131072.0
    assert inference["kv_bytes_total"] == 131072 * 8192 * 32 == 32 * 2**30
    assert inference["runtime"] == "vLLM" and inference["concurrency"] == 32
    forget_searches()  # dropped: the profile is evaluated afresh, once a TP group tried, the same answer
    assert _ask(QUESTIONS[lang]) == first
    assert [args[2] for args in evaluated] == [1, 2, 4, 8]  # (spec, gpu, tp, context, …): one card's TPs


@pytest.mark.parametrize(
    ("lang", "stated"),
    [
        ("en", "Serve Llama-3.1-8B on one A100 80GB with vLLM, gpu_memory_utilization 0.8, 32 users at 8k"),
        ("zh", "用vLLM在一张A100 80G上部署Llama-3.1-8B，gpu_memory_utilization 0.8，32个并发，8k上下文"),
    ],
)
def test_a_stated_share_is_not_read_from_the_default_s_memo(lang: str, stated: str) -> None:
    """vLLM's default share is 0.9 of the card (``gpu_memory_utilization``, vllm/engine/arg_utils.py); a
    stated 0.8 is another runtime (a frozen dataclass: another key), its usable bytes 8/9 of the default's
    — never the default's kept ones, whichever is asked first."""
    default = _ask(QUESTIONS[lang])["report"]["inference"]["usable_bytes_per_gpu"]
    share = _ask(stated)["report"]["inference"]["usable_bytes_per_gpu"]
    assert share == pytest.approx(default * 0.8 / 0.9, rel=1e-6)
    forget_searches()
    assert _ask(stated)["report"]["inference"]["usable_bytes_per_gpu"] == share


def test_the_memo_is_found_for_these_very_objects_only() -> None:
    """Equal runtimes share a memo (hash and equality by field); another share, another spec object (a
    derived or pasted spec under the same id) or another card is another memo."""
    spec, card = catalog.model("Llama-3.1-8B"), catalog.gpu("A100-SXM4-80GB")
    memo = kept_runtime(VLLM, spec, card)
    assert kept_runtime(Vllm(), spec, card) is memo  # Vllm() == VLLM: the default share
    assert kept_runtime(Vllm(0.8), spec, card) is not memo
    copy = spec.model_copy()
    assert copy == spec and kept_runtime(VLLM, copy, card) is not memo
    assert kept_runtime(VLLM, copy, card).spec is copy  # filed in its place
    assert kept_runtime(VLLM, spec, catalog.gpu("A100-SXM4-40GB")) is not memo


def test_at_most_kept_runtimes_are_kept(monkeypatch) -> None:
    """The least recently used is dropped past :data:`KEPT_RUNTIMES` (the idle memory budget); 0 keeps
    none."""
    monkeypatch.setattr(search_keep, "KEPT_RUNTIMES", 2)
    spec = catalog.model("Llama-3.1-8B")
    cards = [catalog.gpu(g) for g in ("A100-SXM4-80GB", "A100-SXM4-40GB", "H100-SXM5-80GB")]
    first = kept_runtime(VLLM, spec, cards[0])
    kept_runtime(VLLM, spec, cards[1])
    assert kept_runtime(VLLM, spec, cards[0]) is first  # used again: the most recent
    kept_runtime(VLLM, spec, cards[2])  # drops cards[1]'s
    assert len(search_keep._RUNTIMES) == 2 and kept_runtime(VLLM, spec, cards[0]) is first
    monkeypatch.setattr(search_keep, "KEPT_RUNTIMES", 0)
    forget_searches()
    assert kept_runtime(VLLM, spec, cards[0]) is not kept_runtime(VLLM, spec, cards[0])
    assert not search_keep._RUNTIMES


def test_a_candidate_group_reads_its_kept_room_in_place(monkeypatch) -> None:
    """``sequences_per_replica`` reads a MemoRuntime's room kept for (PP, TP, load) without calling
    :meth:`MemoRuntime.room` (one frame a candidate group): the same sequences as the plain runtime's. Llama
    3.1 8B at 8K: 1 GiB of KV a sequence (131,072 B a token); 16.06 GB of bf16 weights."""
    from estimator.runtimes import Load
    from estimator.runtimes.memo import MemoRuntime
    from estimator.serving_layout import sequences_per_replica

    spec, card = catalog.model("Llama-3.1-8B"), catalog.gpu("A100-SXM4-80GB")
    weights, kv_seq, load = 16.06e9, 131072 * 8192, Load(8192)
    plain = [sequences_per_replica(weights, kv_seq, spec, card, tp, 1, VLLM, load) for tp in (1, 2, 4, 8)]
    memo = kept_runtime(VLLM, spec, card)
    assert [
        sequences_per_replica(weights, kv_seq, spec, card, tp, 1, memo, load) for tp in (1, 2, 4, 8)
    ] == plain
    asked: list[int] = []
    real = MemoRuntime.room
    monkeypatch.setattr(MemoRuntime, "room", lambda self, *a: asked.append(a[2]) or real(self, *a))
    again = [sequences_per_replica(weights, kv_seq, spec, card, tp, 1, memo, load) for tp in (1, 2, 4, 8)]
    assert again == plain and asked == []
    assert plain[0] == 55  # the reply's 'up to 55 concurrent sequences at 8K context' on one A100 80GB


def test_a_memo_past_its_rooms_is_filed_afresh(monkeypatch) -> None:
    """A kept memo holding more than :data:`KEPT_ROOMS` rooms by (PP, TP, load) is replaced by a fresh one
    when found again (a busy bot's loads are unbounded); the answer is the same."""
    first = _ask(QUESTIONS["en"])
    spec, card = catalog.model("Llama-3.1-8B"), catalog.gpu("A100-SXM4-80GB")
    memo = kept_runtime(VLLM, spec, card)
    assert 0 < len(memo._room_at) <= search_keep.KEPT_ROOMS
    monkeypatch.setattr(search_keep, "KEPT_ROOMS", len(memo._room_at) - 1)
    fresh = kept_runtime(VLLM, spec, card)
    assert fresh is not memo and not fresh._room_at and kept_runtime(VLLM, spec, card) is fresh
    assert _ask(QUESTIONS["en"]) == first
