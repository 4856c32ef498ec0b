"""Round 28 Chinese (tests/data/real_questions/zh_r28.json): the ways of writing its working records showed,
each read by a reader for its kind — checked on sentences of our own, not the records' (README.md there)."""

from __future__ import annotations

from bot.core.pipeline import answer


def _unknown_model(text: str) -> str | None:
    return answer(text).interpretation.unknown_model


def test_a_name_called_this_model_is_the_model_named_as_typed() -> None:
    """'Foo 这个模型' / 'Foo 这款大模型': the asker calls the name a model, with or without a hyphen; before,
    a name with no hyphen there was dropped and a default model sized with nothing named."""
    for text, name in (
        ("LongWriter 这个模型需要多大的显存才可以跑起来？RTX 4090 24G 可以吗？", "LongWriter"),
        ("跑 FooBar 这个模型，一张 4090 够吗", "FooBar"),
        ("FooChat 这款大模型部署要几张 A100？", "FooChat"),
        ("请问 AcmeWriter 那个模型推理要多少显存", "AcmeWriter"),
        ("想问下 LongWriter 这个开源模型要几张卡", "LongWriter"),
        ("FooVision 这个多模态大模型要多少显存", "FooVision"),
        ("LongWriter 这个 LLM 需要多少显存", "LongWriter"),
    ):
        assert _unknown_model(text) == name, text
    # English says 'the Foo model' (already read): the same name, named as typed
    assert _unknown_model("How much VRAM does the LongWriter model need on an RTX 4090?") == "LongWriter"


def test_an_engine_or_tool_called_a_model_framework_is_never_the_model() -> None:
    """'vLLM 这个模型推理框架', 'Ollama 这个模型工具': an engine or tool, not a model; a card called
    'this card' and a catalog model named before '这个模型' are unchanged."""
    for text in (
        "vLLM 这个模型推理框架在 A100 上要多少显存",
        "Ollama 这个模型工具跑 qwen2.5-7b 要多少显存",
        "LLaMA-Factory 这个模型训练框架微调 Qwen2.5-7B 要多少显存",
        "RTX 4090 这个卡能跑 7B 模型吗",
        "vLLM 这个开源模型推理框架在 A100 上要多少显存",
    ):
        assert _unknown_model(text) is None, text
    assert answer("vLLM 这个模型推理框架在 A100 上要多少显存").request.runtime == "vLLM"
    assert answer("我用 Qwen2.5-7B，这个模型需要多少显存").request.model == "Qwen2.5-7B"


def test_chitu_max_reqs_is_the_engines_cap_on_sequences_run_at_once() -> None:
    """Chitu's ``infer.max_reqs`` (chitu/config/serve_config.yaml: the most requests run at once, the batch
    limit; newer versions call it max_batch_size and default it to max_reqs) is vLLM's max_num_seqs; before,
    its number was named as unread."""
    for text, cap in (
        ("8 卡 H20 用 chitu 部署 DeepSeek-R1，infer.tp_size=8、infer.max_reqs=1，放得下吗？", 1),
        ("用赤兔部署 Qwen2.5-72B，max_reqs 设为 16，4 张 A100 80G 够吗", 16),
        ("Serving Qwen2.5-32B with chitu on 2 H100, infer.max_reqs=8: does it fit?", 8),
    ):
        a = answer(text)
        assert a.request.max_num_seqs == cap, text
        assert not any(i.reason == "unread" and i.text == str(cap) for i in a.interpretation.ignored), text
    # 'max_requests' (another word) and a training run's 'max_reqs' are no serving cap
    assert answer("vLLM 部署 Qwen2.5-7B，max_requests 100，一张 4090").request.max_num_seqs is None
    assert answer("用 LLaMA-Factory 微调 Qwen2.5-7B，max_reqs=4，2 张 4090").request.max_num_seqs is None
