"""A follow-up of an encoder served (s38 embfix #1): the answer's request carries the encoder's catalog id
as ``model``, the QPS (``requests_per_hour`` = QPS × 3600) and a stated length, so 'then on A10?' re-sizes
the same embedding job (bot.core.embedding_serve.served_request), in the chat memory and the API's
``prev``. Values worked by hand: bge-m3 568M parameters, 24 layers, hidden 1024; 512 tokens a request:
2 × 568e6 × 512 = 5.82e11 + attention 4 × 24 × 512² × 1024 = 2.58e10 → 6.07e11 FLOPs; the fitted prefill
MFU 0.675."""

from __future__ import annotations

import json

from bot.core.conversation import Conversation
from bot.core.embedding_serve import EmbeddingServe
from bot.web.state import api_json, checked_prev
from estimator import catalog
from estimator.serving_speed import FITTED


def _flops(tokens: int) -> float:
    return 2 * 568e6 * tokens + 4 * 24 * tokens**2 * 1024


def test_zh_followup_changes_the_card_and_keeps_the_encoder():
    """L4 121 TFLOPS × 0.675 / 6.07e11 ≈ 135 QPS → 2 cards for 200; A10 125 TFLOPS → ≈ 139 QPS → 2."""
    chat = Conversation()
    first = chat.ask(1, 1, "bge-m3 部署 200 QPS 要几张 L4").answer
    assert isinstance(first.embedding, EmbeddingServe)
    said = first.said
    assert (said.model, said.requests_per_hour, said.gpu) == ("bge-m3", 200 * 3600, "L4")
    then = chat.ask(1, 1, "那换成A10呢").answer
    job = then.embedding
    assert then.followup and isinstance(job, EmbeddingServe)
    assert (job.model, job.qps, job.tokens, job.gpu) == ("bge-m3", 200.0, 512, "A10")
    a10 = catalog.resolve_gpu("A10")
    assert a10 is not None and abs(job.per_card_qps - 125e12 * FITTED.prefill_mfu / _flops(512)) < 0.5
    assert job.cards == 2 and abs(job.per_card_qps - 139) < 1
    # a new length re-sizes the same job: 1024 tokens, 1.27e12 FLOPs → ≈ 66.7 QPS an A10 → 4 cards
    longer = chat.ask(1, 1, "每个请求 1024 token 呢").answer.embedding
    assert isinstance(longer, EmbeddingServe) and (longer.model, longer.tokens, longer.gpu) == (
        "bge-m3",
        1024,
        "A10",
    )
    assert longer.cards == 4 and abs(longer.per_card_qps - 125e12 * FITTED.prefill_mfu / _flops(1024)) < 0.5


def test_en_followup_on_another_card():
    """L40S 362 TFLOPS × 0.675 / 6.07e11 ≈ 403 QPS → 1 card for 200."""
    chat = Conversation()
    chat.ask(2, 2, "serve bge-m3 at 200 QPS on L4, how many cards?")
    job = chat.ask(2, 2, "what about on L40S?").answer.embedding
    assert isinstance(job, EmbeddingServe) and (job.model, job.qps, job.gpu) == ("bge-m3", 200.0, "L40S")
    assert job.cards == 1 and abs(job.per_card_qps - 403) < 1


def test_api_prev_is_the_embedding_request():
    """The JSON 'request' of the answer, posted back as ``prev``, sizes the same encoder on the new card."""
    first = json.loads(api_json("bge-m3 部署 200 QPS 要几张 L4"))
    assert first["request"]["model"] == "bge-m3" and first["request"]["requests_per_hour"] == 720000
    then = json.loads(api_json("那换成A10呢", prev=checked_prev(first["request"])))
    assert then["embedding"] is not None and then["request"]["gpu"] == "A10"
    assert then["request"]["model"] == "bge-m3"


def test_a_chat_model_with_a_request_volume_is_not_an_encoder():
    """'每小时 1000 次请求' beside a chat model stays a chat serving question (no encoder id as model)."""
    chat = Conversation()
    ans = chat.ask(3, 3, "部署 Qwen2.5-7B，每小时 1000 次请求，要几张 L4").answer
    assert ans.embedding is None


def test_memory_line_in_the_cards_own_unit():
    """An L4 exposes 23,034 MiB with ECC on (nvidia-smi; catalog ecc_visible_mib) = 22.5 GiB of its 24 GiB
    (s39 fixs #3: the line said the datasheet's 24): '每张卡 22.5 GiB', not '共 25.8 GB' (read as a total
    over all cards). bge-m3's weights 568e6 × 2 B = 1.06 GiB → '1.1 GiB'; the CUDA context 1 GiB."""
    from bot.core.pipeline import answer
    from bot.render.renderer import render

    zh = render(answer("bge-m3 部署 200 QPS 要几张 L4"), "text")
    assert "（每张卡 22.5 GiB）" in zh and "共 25.8" not in zh and "权重 1.1 GiB" in zh
    en = render(answer("serve bge-m3 at 200 QPS on L4, how many cards?"), "text")
    assert "each card has 22.5 GiB." in en and "weights 1.1 GiB" in en and "CUDA context 1 GiB" in en


def test_a_new_qps_resizes_the_same_encoder():
    """L4 ≈ 97.8 QPS a card at its sustained 59.4 TFLOPS (s39 fixs #2; 59.4e12 / 6.07e11): 400 QPS →
    ceil(4.09) = 5; 500 → ceil(5.11) = 6."""
    per_card = 59.4e12 / _flops(512)
    for first, then, qps in [
        ("bge-m3 部署 200 QPS 要几张 L4", "那 400 QPS 呢", 400.0),
        ("bge-m3 部署 200 QPS 要几张 L4", "如果每秒 500 个请求呢", 500.0),
        ("serve bge-m3 at 200 QPS on L4, how many cards?", "what about 400 QPS?", 400.0),
    ]:
        chat = Conversation()
        chat.ask(4, 4, first)
        job = chat.ask(4, 4, then).answer.embedding
        assert isinstance(job, EmbeddingServe) and (job.model, job.qps, job.gpu) == ("bge-m3", qps, "L4")
        assert job.cards == -(-qps // per_card)
