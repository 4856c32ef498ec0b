"""s40 fixt: a fresh-user trial's findings on verdicts and what was said (trial of main d3e69e2c).

#4  A host RAM stated beside a DeepSpeed config's CPU offload ('机器内存 1T' + ``offload_optimizer``) is used,
    and where it does not hold the offload the headline says so before what fits instead. DeepSpeed's
    ZeRO-3 estimator (stage3.py ``estimate_zero3_model_states_mem_needs``): 16 B/param × 1.5 ÷ machines —
    Qwen2.5-72B (72.7e9): 72.7e9 × 16 × 1.5 = 1,744.8 GB on one machine > 1 TiB (1,099.5 GB); on two
    machines 872.4 GB each, which 1 TiB holds.
#14 Every CPU-offload alternative names the host RAM it needs per machine: Qwen3-30B-A3B (30.5e9) on 8
    RTX 4090 (one machine) under ZeRO-3: 30.5e9 × 16 × 1.5 = 732 GB.
"""

from __future__ import annotations

import pytest

from bot.cli import _ask

DS = """{
  "bf16": {"enabled": true},
  "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"},
                        "offload_param": {"device": "cpu"}},
  "train_micro_batch_size_per_gpu": 1,
  "gradient_accumulation_steps": 16
}
"""
RAM_QUESTIONS = {
    "zh": DS + "用这个 ds 配置全参微调 Qwen2.5-72B，8 张 A800，机器内存 1T，够吗",
    "en": DS
    + "full fine-tune Qwen2.5-72B with this DeepSpeed config on 8 A800, the server has 1TB RAM, enough?",
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_config_offload_uses_the_stated_host_ram(lang: str) -> None:
    text, _, answer = _ask(RAM_QUESTIONS[lang], None, "text")
    report = answer.report
    assert report.request.host_memory_gib == 1024.0
    ram = report.host_ram
    assert ram.needed_bytes == pytest.approx(72.7e9 * 16 * 1.5) and ram.holds is False
    note = next(n.params for n in report.warnings if n.code == "host_ram_short")
    assert note["machines"] == 2 and note["machine_gpus"] == 16
    assert note["machine_bytes"] == pytest.approx(72.7e9 * 16 * 1.5 / 2)  # 872.4 GB ≤ 1 TiB
    # no offload: ZeRO-3's 16 B/param over 16 GPUs is 72.7 GB (67.7 GiB) each, under the A800's 80 GiB
    assert note["no_offload_gpus"] == 16
    head = text.splitlines()[0]
    if lang == "zh":
        assert "8 张 A800 80G 放不下" in head and "你只有 1,024 GiB" in head and "1,745 GB" in head
        assert "不用 CPU 卸载" in head
        assert "勉强可行" not in head and "host_memory" not in text
    else:
        assert "does not fit on 8 × A800 80G as set; the GPUs hold it" in head and "1,745 GB" in head
        assert "without CPU offload" in head
        assert "borderline" not in head and "host_memory" not in text


def test_enough_host_ram_keeps_the_fit_headline() -> None:
    q = DS + "用这个 ds 配置全参微调 Qwen2.5-72B，8 张 A800，机器内存 2T，够吗"
    text, _, answer = _ask(q, None, "text")
    assert answer.report.host_ram.holds is True
    assert "放不下" not in text.splitlines()[0] and "放得下" in text.splitlines()[0]


def test_words_offload_with_short_ram_says_no_first() -> None:
    text = _ask(
        "full fine-tune Qwen2.5-72B on 8x A800 with ZeRO-3 CPU offload, 512GB RAM, enough?", None, "text"
    )[0]
    head = text.splitlines()[0]
    assert "does not fit on 8 × A800 80G as set" in head and "you have 512 GiB" in head
    # ZeRO-3 on 4 machines: 1,744.8 GB ÷ 4 = 436.2 GB ≤ 512 GiB, unless no offload needs as few GPUs
    assert "without CPU offload" in head


@pytest.mark.parametrize(
    ("question", "needle"),
    [
        (
            "全参微调 Qwen3-30B-A3B，手上有 8 张 4090，能跑吗",
            "开启 CPU offload：8 张，每台机器约需 732 GB 主机内存",
        ),
        (
            "full fine-tune Qwen3-30B-A3B on 8x RTX 4090, does it fit?",
            "With CPU offload: 8 GPUs, ≈ 732 GB of host RAM per machine",
        ),
    ],
)
def test_offload_alternative_names_its_host_ram(question: str, needle: str) -> None:
    text, _, answer = _ask(question, None, "text")
    row = next(a for a in answer.report.memory.alternatives if a.change == "cpu_offload")
    assert row.host_ram_bytes == pytest.approx(30.5e9 * 16 * 1.5, rel=0.01)
    assert needle in text


# #1, #2: images per sample and their resolution. Qwen2.5-VL's processor (qwen_vl_utils smart_resize, factor
# 28 = 14-px patches × 2 merge): 720 → round(720 / 28) = 26 → 728; 1280 → round(1280 / 28) = 46 → 1,288;
# 728 × 1,288 / 784 = 1,196 tokens + <|vision_start|>, <|vision_end|> = 1,198 per image.
VL = {
    "zh": "Qwen2.5-VL-7B 全参微调，图片分辨率 1280x720，每条数据一张图，10万条，4张A100 80G 要多久",
    "en": "Full fine-tune Qwen2.5-VL-7B-Instruct on 100k image-text samples, images 1280x720, ~500 text "
    "tokens each, 4x A100 80GB. How long?",
}


def test_smart_resize_matches_the_processor() -> None:
    from estimator.image_tokens import MAX_PIXELS, MIN_PIXELS, smart_resize

    assert (MIN_PIXELS, MAX_PIXELS) == (3136, 12_845_056)
    assert smart_resize(720, 1280) == (728, 1288)
    assert smart_resize(448, 448) == (448, 448)  # 16 × 16 = 256 tokens
    # 24 MP: β = √(24e6 / 12,845,056) = 1.3669; 4000 / β / 28 = 104.5 → 104, 6000 / β / 28 = 156.8 → 156
    h, w = smart_resize(4000, 6000)
    assert h * w <= MAX_PIXELS and (h, w) == (2912, 4368)
    assert smart_resize(20, 20) == (56, 56)  # below min_pixels: scaled up to 56 × 56


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_vl_images_become_visual_tokens(lang: str) -> None:
    text, _, answer = _ask(VL[lang], None, "text")
    report = answer.report
    req = report.request
    assert req.num_samples == 100_000 and req.image_pixels == [1280, 720] and req.images_per_sample == 1
    text_tokens = 500 if lang == "en" else 0
    assert req.tokens_per_sample == 1198 + text_tokens
    epochs = next(a.value for a in report.assumptions if a.field == "epochs")
    line = next(a for a in report.assumptions if a.why == "image_tokens")
    patches = 1288 * 728 // 196  # 4,784 patches of 14 × 14
    assert line.params["flops"] == 2 * 676_550_144 * patches  # 6.47e12: the frozen tower's forward
    language = 8.29e9 - 676_550_144  # the catalog's 8.29B less the tower: 6·N·D counts the language model
    assert report.flops == pytest.approx(6 * language * 100_000 * (1198 + text_tokens) * epochs)
    assert ("1,198 个视觉 token" in text) if lang == "zh" else ("1,198 visual tokens" in text)
    assert "“一”" not in text and "500”" not in text.split("\n")[1 if lang == "en" else 0]


@pytest.mark.parametrize(
    "question",
    [
        "Qwen2.5-VL-7B 全参微调，10万条数据，每条一张图，4张A100 80G 要多久",
        "Qwen2.5-VL-7B 全参微调，每条数据一张图，10万条，4张A100 80G 要多久",
    ],
)
def test_one_image_per_sample_is_not_the_sample_count(question: str) -> None:
    text, _, answer = _ask(question, None, "text")
    req = answer.report.request
    assert req.num_samples == 100_000 and req.images_per_sample == 1
    assert "images_per_sample: 1" in text and "分辨率" in text  # no resolution: named, not assumed


@pytest.mark.parametrize(
    ("question", "needle"),
    [
        (
            "Qwen2.5-7B 全参微调，图片分辨率 1280x720，10万条，4张A100 80G 要多久",
            "image_resolution: 1280x720",
        ),
        (
            "full fine-tune Llama-3.1-8B on 100k samples with images 1280x720, 4x A100",
            "image_resolution: 1280x720",
        ),
    ],
)
def test_a_text_models_resolution_is_named_as_not_used(question: str, needle: str) -> None:
    text, _, answer = _ask(question, None, "text")
    assert needle in text
    assert not any(a.why == "image_tokens" for a in answer.report.assumptions)


def test_no_image_words_no_image_fields() -> None:
    from bot.parse import parse

    req = parse("全参微调 Qwen2.5-7B，10万条，每条 1280 token，4张A100 80G 要多久").request
    assert req.image_pixels is None and req.images_per_sample is None and req.tokens_per_sample == 1280


# #17: 10¹⁵ tokens is 10¹⁵ / 36×10¹² = 27.8 → 28× Qwen3's 36T (the largest published pre-training data).
@pytest.mark.parametrize(
    ("question", "needle"),
    [
        ("用 4 张 A100 训练 7B 模型，1000000000000000 token", "远超任何公开训练"),
        ("pretrain a 7B model on 1e15 tokens, how many H100", "beyond any public run: 28×"),
    ],
)
def test_absurd_data_is_flagged_on_line_one(question: str, needle: str) -> None:
    from estimator.compute import beyond_public

    text, _, answer = _ask(question, None, "text")
    assert answer.report.request.tokens == 1e15 and answer.report.gpu_hours is not None  # still sized
    assert needle in text.splitlines()[0] and "28" in text.splitlines()[0]
    assert beyond_public(1e15) == pytest.approx(27.78, abs=0.01)


def test_large_real_scales_are_not_flagged() -> None:
    from estimator.compute import beyond_public

    assert beyond_public(15.6e12) is None and beyond_public(36e12) is None and beyond_public(3.6e14) is None
    text = _ask("pretrain a 7B model on 15T tokens, how many H100", None, "text")[0]
    assert "beyond any public run" not in text


# #13: a card named 'also within budget' at lighter weights: its row says that option, not only its own
# bf16 month over the budget (¥50,000: 2 × H100 bf16 ¥21,900 – ¥58,400; 1 × H100 FP8 ¥10,950 – ¥29,200).
def test_within_budget_option_is_within_on_its_row() -> None:
    q = "我们公司200人用，想部署个 qwen3-32b 做知识库问答，预算每月5万，用什么卡"
    text = _ask(q, None, "text")[0]
    _, more, *rows = text.splitlines()  # s42 fixleft (s41 #11): the other options on the second line
    assert "同样在预算内：1 张 H100 80G，FP8 权重，每月 ¥10,950 – ¥29,200" in more
    h100 = next(r for r in rows if r.startswith("• H100 80G"))
    assert "在预算内的做法：1 张 H100 80G，FP8 权重，每月 ¥10,950 – ¥29,200" in h100
    a100 = next(r for r in rows if r.startswith("• A100 80G"))
    assert "在预算内的做法" not in a100  # its own bf16 option is the one named
