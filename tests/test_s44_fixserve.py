"""Session 44, fixserve: serving answers left from session 43 (issue 24 items 3, 4).

Item 4 — a stated TGI release's own share. TGI v0.9.4 to v1.4.0 size the KV blocks from every byte free at
the warm-up's peak: huggingface/text-generation-inference
``server/text_generation_server/models/flash_causal_lm.py`` ``warmup`` (v0.9.4): ``free_memory = max(0,
total_free_memory - (1 - MEMORY_FRACTION) * total_gpu_memory)``, ``num_blocks = int(free_memory //
total_cache_size)``; later releases keep ``TGI_WIGGLE_ROOM`` (0.90, ``models/globals.py``). The thread
huggingface/text-generation-inference#653 (v0.9.x, Llama-2-7b-hf fp16 on one A10G): the router "overwrites
the max batch total tokens to 16224".
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator.tgi_release import release_share

TGI_OLD_EN = (
    "TGI 1.3.3 serving meta-llama/Llama-2-7b-hf in fp16 on one A10G, max-total-tokens 4096: how many "
    "requests at once?"
)
TGI_OLD_ZH = (
    "用 TGI 1.3.3 在一张 A10G 上部署 Llama-2-7b-hf（fp16），max-total-tokens 4096，最多能同时处理几个请求？"
)
TGI_653_TOKENS = 16224
"""huggingface/text-generation-inference#653: the tokens TGI v0.9.x's warm-up left, Llama-2-7b fp16, A10G."""


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _inf(capsys, question: str) -> dict:
    return _ask(capsys, question)["report"]["inference"]


def test_release_share_by_release():
    assert release_share("1.3.3") == 1.0 and release_share("0.9.4") == 1.0 and release_share("1.4") == 1.0
    assert release_share("1.4.1") is None and release_share("2.0.4") is None and release_share(None) is None
    assert release_share("0.9.3") is None


@pytest.mark.parametrize("question", [TGI_OLD_EN, TGI_OLD_ZH])
def test_an_old_tgi_release_sizes_the_kv_cache_on_all_its_memory(capsys, question):
    old = _inf(capsys, question)
    new = _inf(capsys, question.replace("TGI 1.3.3", "TGI 2.0.4"))
    # the same card, the usable memory all of it for 1.3.3 and 0.90 of it for 2.0.4, less the same CUDA
    # context: the difference is 0.10 of the A10G's 22.49 GiB that CUDA shows (24 GB, NVIDIA A10G datasheet)
    assert (old["usable_bytes_per_gpu"] - new["usable_bytes_per_gpu"]) / 0.1 == pytest.approx(
        22.49 * 2**30, rel=1e-3
    )
    # the KV tokens the warm-up leaves: within 6 % of the thread's 16,224 (12,528 at the 0.90 share: −23 %)
    assert old["kv_capacity_tokens"] == pytest.approx(TGI_653_TOKENS, rel=0.06)
    assert new["kv_capacity_tokens"] < 0.8 * TGI_653_TOKENS
    assert old["max_concurrency"] == 4 and new["max_concurrency"] == 3


@pytest.mark.parametrize("question", [TGI_OLD_EN, TGI_OLD_ZH])
def test_the_old_release_keeps_its_borderline_verdict(capsys, question):
    report = _ask(capsys, question)["report"]
    assert report["feasible"] == "borderline" and report["feasible_reason"] == "tgi_no_headroom"


@pytest.mark.parametrize(
    "question",
    [
        TGI_OLD_EN.replace("TGI 1.3.3", "TGI with --cuda-memory-fraction 0.9 and transformers 4.36.2"),
        TGI_OLD_ZH.replace("TGI 1.3.3", "TGI（transformers 版本 4.36.2）"),
    ],
)
def test_a_number_that_is_not_the_release_keeps_the_current_share(capsys, question):
    new = _inf(capsys, TGI_OLD_EN.replace("TGI 1.3.3", "TGI 2.0.4"))
    inf = _inf(capsys, question)
    assert inf["kv_capacity_tokens"] <= new["kv_capacity_tokens"]


# Item 3 — a served request's images in its prompt. LLaVA-1.5: (336 / 14)² = 576 tokens an image (Liu et al.
# 2023 §3; llava-hf/llava-1.5-7b-hf vision_config image_size 336, patch_size 14). Qwen2.5-VL: the processor's
# smart_resize (qwen-vl-utils vision_process.py): 1280 × 720 → 1288 × 728, 1288 · 728 / 28² = 1,196 tokens
# + <|vision_start|>/<|vision_end|> = 1,198 an image.
QWEN_EN = (
    "Serve Qwen2.5-VL-7B-Instruct with vLLM on one L40S, each request has 2 images (1280x720) and 500 tokens "
    "of text, 300 output tokens, 20 concurrent requests: does it fit?"
)
QWEN_ZH = (
    "用 vLLM 在一张 L40S 上部署 Qwen2.5-VL-7B，每个请求 2 张图片（1280x720）加 500 token 文本，"
    "并发 20，放得下吗？"
)
LLAVA_EN = (
    "Serve llava-1.5-7b with vLLM on one L40S, 2 images per request and 500 tokens of text, 20 concurrent"
)
LLAVA_ZH = "用 vLLM 在一张 L40S 上部署 llava-1.5-7b，每次请求带 2 张图，500 token 文本，并发 20"


@pytest.mark.parametrize(
    "question, prompt, context",
    [
        (QWEN_EN, 500 + 2 * 1198, 500 + 2 * 1198 + 300),
        (QWEN_ZH, 500 + 2 * 1198, 500 + 2 * 1198),
        (LLAVA_EN, 500 + 2 * 576, 500 + 2 * 576),
        (LLAVA_ZH, 500 + 2 * 576, 500 + 2 * 576),
    ],
)
def test_a_requests_images_are_in_its_prompt(capsys, question, prompt, context):
    out = _ask(capsys, question)
    assert out["request"]["images_per_request"] == 2
    inf = out["report"]["inference"]
    assert inf["prompt_tokens"] == prompt and inf["context_tokens"] == context
    said = [a for a in out["assumptions"] if a["why"] == "image_tokens_request"]
    assert said and said[0]["params"]["per_image"] in (576, 1198)
    assert not [
        i for i in out["interpretation"]["ignored"] if "image" in i["text"] or i["reason"] == "training_only"
    ]


@pytest.mark.parametrize(
    "question, reason",
    [
        (QWEN_EN.replace(" (1280x720)", ""), "image_no_resolution"),
        (QWEN_ZH.replace("（1280x720）", ""), "image_no_resolution"),
        (LLAVA_EN.replace("llava-1.5-7b", "Llama-3.1-8B"), "image_request_uncounted"),
        (LLAVA_ZH.replace("llava-1.5-7b", "Llama-3.1-8B"), "image_request_uncounted"),
    ],
)
def test_images_whose_tokens_are_unknown_are_named(capsys, question, reason):
    out = _ask(capsys, question)
    ignored = [(i["text"], i["reason"]) for i in out["interpretation"]["ignored"]]
    assert ("images_per_request: 2", reason) in ignored
    assert out["report"]["inference"]["prompt_tokens"] == 500  # the text alone, as said


def test_the_assumption_in_both_languages(capsys):
    main(["ask", "--format", "text", "--", QWEN_EN])
    en = capsys.readouterr().out
    assert "2 images × 1,198 visual tokens + 500 text tokens = 2,896 tokens" in en
    main(["ask", "--format", "text", "--", QWEN_ZH])
    zh = capsys.readouterr().out
    assert "2 张图 × 每张 1,198 个视觉 token + 500 个文本 token = 2,896 个 token" in zh
    # the tower's line no longer says the images are not read when they are counted
    assert "each request's images are in its prompt's tokens" in en and "images are not read here" not in en
    assert "每个请求的图片已计入其提示词的 token" in zh and "这里不读取图像" not in zh
    main(["ask", "--format", "text", "--", QWEN_EN.replace(" (1280x720)", "")])
    assert "images are not read here" in capsys.readouterr().out  # no resolution: not counted, as before


@pytest.mark.parametrize(
    "question",
    [
        "Serve Qwen2.5-VL-7B with vLLM on one L40S at 20 images per second, 500-token prompts",
        "Serve Qwen2.5-VL-7B with vLLM on one L40S; we process 2 million images a day, prompts of 500 tokens",
        "用 vLLM 在一张 L40S 上部署 Qwen2.5-VL-7B，每天处理 2 万张图片，提示词 500 token",
        "用 vLLM 在一张 L40S 上部署 Qwen2.5-VL-7B，图片分辨率 1280x720，提示词 500 token",
    ],
)
def test_image_words_without_a_count_per_request_add_nothing(capsys, question):
    out = _ask(capsys, question)
    assert out["request"].get("images_per_request") is None
    assert out["report"]["inference"]["prompt_tokens"] == 500


# Item 2 — data-parallel attention keeps weights whole on each GPU. DeepSeek-V3/R1 config.json: hidden 7168,
# 61 layers (3 dense, intermediate 18432), 128 heads, q_lora_rank 1536, kv_lora_rank 512, qk_nope 128,
# qk_rope 64, v_head_dim 128, vocab 129280, 1 shared + 256 routed experts of moe_intermediate 2048; FP8
# projections, 16-bit embedding and head. One MLA block: q 7168·1536 + 1536·128·192 + 1536, kv_a 7168·576,
# its norm 512, kv_b 512·128·256, o 128·128·7168 = 187,107,328 parameters.
MLA_BLOCK = 7168 * 1536 + 1536 * 128 * 192 + 1536 + 7168 * 576 + 512 + 512 * 128 * 256 + 128 * 128 * 7168
EMBED = 129280 * 7168
SGLANG_WHOLE = 61 * MLA_BLOCK * 1 + EMBED * 2  # SGLang: attention (FP8) + embed_tokens (16-bit)
NON_EXPERT = 61 * (MLA_BLOCK + 2 * 7168) + 3 * 3 * 7168 * 18432 + 58 * (3 * 7168 * 2048 + 7168 * 256) + 7168
VLLM_WHOLE = NON_EXPERT * 1 + 2 * EMBED * 2  # vLLM: every weight but the routed experts, head included
SGL_EN = "SGLang DeepSeek-V3 --tp 8 --dp 8 --enable-dp-attention on 8 H200, how much memory per GPU?"
SGL_ZH = "用 SGLang 在 8 张 H200 上部署 DeepSeek-V3，--tp 8 --dp 8 --enable-dp-attention，每张卡显存占多少？"
VLLM_CMD = "vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 8 --enable-expert-parallel"
VLLM_EN = VLLM_CMD + " on 8 H200, memory per GPU?"
VLLM_ZH = "8 张 H200 跑 " + VLLM_CMD + "，每张卡显存多少？"


def _note(report: dict, code: str) -> dict | None:
    return next((w["params"] for w in report["warnings"] if w["code"] == code), None)


@pytest.mark.parametrize(
    "question, code, whole",
    [
        (SGL_EN, "dp_attention_replicated_sglang", SGLANG_WHOLE),
        (SGL_ZH, "dp_attention_replicated_sglang", SGLANG_WHOLE),
        (VLLM_EN, "dp_attention_replicated_vllm", VLLM_WHOLE),
        (VLLM_ZH, "dp_attention_replicated_vllm", VLLM_WHOLE),
    ],
)
def test_dp_attention_keeps_weights_whole_on_each_gpu(capsys, question, code, whole):
    report = _ask(capsys, question)["report"]
    note = _note(report, code)
    assert note is not None and note["tp"] == 8
    assert note["whole_bytes"] == pytest.approx(whole, rel=1e-9)  # 13.27 GB SGLang, 18.97 GB vLLM
    assert note["extra_bytes"] == pytest.approx(whole * 7 / 8, rel=1e-9)
    inf = report["inference"]
    # each GPU: the weights ÷ 8 (84.1 GB) + what it keeps whole above its eighth (11.6 / 16.6 GB) + KV …
    assert inf["bytes_per_gpu"] > inf["weights_bytes"] / 8 + whole * 7 / 8


def test_sglang_dp_attention_is_about_101_gb_a_gpu(capsys):
    """The issue's figure: DeepSeek-V3 DP 8 on 8 H200 ≈ 101 GB a GPU with the load, not 89.6 (84.1 GB of
    weights ÷ 8 before)."""
    inf = _ask(capsys, SGL_EN)["report"]["inference"]
    assert inf["bytes_per_gpu"] == pytest.approx(101.2e9, rel=0.01)


@pytest.mark.parametrize(
    "question",
    [
        "SGLang DeepSeek-V3 --tp 8 on 8 H200, how much memory per GPU?",
        "用 SGLang 在 8 张 H200 上部署 DeepSeek-V3，--tp 8，不开 dp attention，每张卡显存占多少？",
        "vllm serve meta-llama/Llama-3.1-70B-Instruct --data-parallel-size 2 --tensor-parallel-size 4 "
        "on 8 H100",
        "8 张 H100 跑 vllm serve Qwen/Qwen2.5-72B-Instruct --data-parallel-size 2 --tensor-parallel-size 4",
    ],
)
def test_plain_tp_or_a_model_without_mla_keeps_nothing_whole(capsys, question):
    report = _ask(capsys, question)["report"]
    codes = [w["code"] for w in report["warnings"]]
    assert "dp_attention_replicated_sglang" not in codes and "dp_attention_replicated_vllm" not in codes


def test_the_dp_note_in_both_languages(capsys):
    main(["ask", "--format", "text", "--", SGL_EN])
    en = capsys.readouterr().out
    assert "each GPU keeps the attention weights and the token embedding whole (13.3 GB), not 1/8" in en
    assert "11.6 GB more per GPU" in en
    main(["ask", "--format", "text", "--", VLLM_ZH])
    zh = capsys.readouterr().out
    assert "除路由专家外的所有权重在每张卡上都是完整的一份（19.0 GB）" in zh and "多 16.6 GB" in zh
