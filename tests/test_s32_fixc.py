"""Session 32 fixc: defects of the fresh-user trial (speech/OCR models named, sequence parallelism)."""

import pytest

from bot.core.pipeline import Context, answer
from bot.parse import parse
from bot.render.renderer import render


@pytest.mark.parametrize(
    ("question", "name", "kind"),
    [
        ("用 ChatTTS 合成有声书，50 路并发要几张 3090", "ChatTTS", "non_llm_tts"),
        ("Paraformer 识别 5000 小时录音要几张 A10", "Paraformer", "non_llm_asr"),
        ("serve Fish-Speech with 20 concurrent streams on L40S", "Fish-Speech", "non_llm_tts"),
        ("用 PaddleOCR 识别 1 万张发票要几张 T4", "PaddleOCR", "non_llm_ocr"),
        ("how many A10s to run SenseVoice for 200 concurrent calls", "SenseVoice", "non_llm_asr"),
    ],
)
def test_speech_and_ocr_models_named_not_a_followup(question, name, kind):
    """fixc #1: a speech/OCR model named first ('用 X 做') was a follow-up with no earlier question."""
    parsed = parse(question)
    assert parsed.unknown_model == name
    assert kind in parsed.notes
    result = answer(question, Context())
    assert "lost_followup" not in result.parsed.notes
    text = render(result, "text")
    assert f"“{name}”" in text
    assert ("不是大语言模型" in text) if result.lang == "zh" else ("not a large language model" in text)
    assert "历史" not in text and "history" not in text


def test_llm_named_beside_speech_engine_keeps_its_sizing():
    """An LLM sized beside a speech model's name keeps its answer (the LLM is sized)."""
    parsed = parse("Qwen2.5-7B 给 CosyVoice 写台词，推理 20 并发要几张 4090")
    assert parsed.request.model is not None
    assert not any(n.startswith("non_llm") for n in parsed.notes)


@pytest.mark.parametrize(
    ("question", "named", "words"),
    [
        (
            "用 DeepSpeed Ulysses 序列并行度 4 全参微调 Qwen2.5-14B，64k 上下文，几张 A100",
            "序列并行（Ulysses），并行度 4",
            "未建模",
        ),
        (
            "full fine-tune Qwen2.5-14B at 64k with sequence_parallel_size 8 on H800, how many GPUs",
            "sequence parallelism, degree 8",
            "not modelled",
        ),
        ("ring attention 训练 Llama-3-8B 32k 上下文 要几张 H100", "序列并行（ring attention）", "未建模"),
    ],
)
def test_sequence_parallelism_named_as_not_used(question, named, words):
    """fixc #2: Ulysses / sequence_parallel_size / ring attention were neither used nor named."""
    parsed = parse(question)
    assert (named, "sequence_parallel") in parsed.unused_numbers
    assert parsed.request.model is not None and parsed.request.seq_len is not None
    text = render(answer(question, Context()), "text")
    assert f"“{named}”" in text and words in text and "Jacobs" in text
