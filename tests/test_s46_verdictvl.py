"""Session 46, part verdictvl (issue 24 items 3–4): a training prompt's images; precisions listed as options.

1. A vision-language fine-tune's prompt with several images ('when a prompt has more than 4 images',
   '每条 prompt 超过 4 张图', en25-003): the images of one sample, each sized by the Qwen2.5-VL processor's
   ``smart_resize`` (QwenLM/Qwen2.5-VL qwen-vl-utils ``vision_process.py``: sides rounded to multiples of
   28, one LLM token per 28 × 28 pixels, ``<|vision_start|>`` / ``<|vision_end|>`` around them): 768 × 768
   → 756 × 756 → 27 × 27 = 729 tokens + 2 = 731 an image. 'more than 4' is at least 5: 5 × 731 = 3,655
   tokens a sample. Until now '4 images' was read as 4 samples and the prompt sized at one image.
2. Weight formats listed each with its memory ('FP16 needs about 168 GB, Q4_K_M about 47 GB and Q3_K_M about
   36.1 GB … which quantization fits', en38-039): a row each (bot.core.per_value), as 'fp16、int8 还是 int4'
   already was. Q3_K_M has no width of its own in the estimator: sized as int4 (GPTQ/AWQ at group 128,
   4 + 20/128 = 4.156 bits a weight, estimator.weights.BITS_PER_WEIGHT) — above llama.cpp's Q3_K_M (Llama-3-8B
   3.74 GB against Q4_K_M 4.58 GB, tools/quantize/quantize.cpp QUANT_OPTIONS), so an upper bound, said in
   its row.
"""

from __future__ import annotations

from bot.parse.name_list import sized_format
from estimator.image_tokens import smart_resize
from estimator.request import Precision
from estimator.weights import BITS_PER_WEIGHT
from tests.cli_run import ask_json_in_process

VL_EN = (
    "I am doing full SFT of qwen2.5-vl-3B with llama-factory on 8*A100 GPUs with 80GB of VRAM each. When a "
    "prompt has more than 4 images I get CUDA out of memory. The images are resized to 768×768 and I set "
    "per_device_train_batch_size=1, gradient_accumulation_steps=1."
)
VL_ZH = (
    "我用 llama-factory 在 8 张 A100 80G 上全参微调 qwen2.5-vl-3B，每条 prompt 超过 4 张图就 OOM，"
    "图片缩放到 768×768。"
)
PER_IMAGE = 27 * 27 + 2
"""768 px → round(768 / 28) = 27 → 756 px a side: 729 tokens and the two vision markers."""


def _request(question: str) -> dict:
    return ask_json_in_process(question)["request"]


def test_smart_resize_of_a_768_image_is_27_by_27_tokens():
    assert smart_resize(768, 768) == (756, 756) and 756 * 756 // 784 + 2 == PER_IMAGE == 731


def test_a_prompts_images_are_one_samples_images_en():
    r = _request(VL_EN)
    assert r["images_per_sample"] == 5 and r["image_pixels"] == [768, 768]
    assert r["tokens_per_sample"] == 5 * PER_IMAGE  # 3,655
    assert r["num_samples"] is None  # '4 images' is no sample count


def test_a_prompts_images_are_one_samples_images_zh():
    r = _request(VL_ZH)
    assert r["images_per_sample"] == 5 and r["tokens_per_sample"] == 5 * PER_IMAGE
    assert r["num_samples"] is None


def test_a_stated_count_is_that_count_en_zh():
    en = _request(VL_EN.replace("more than 4 images", "3 images"))
    zh = _request(VL_ZH.replace("超过 4 张图", "有 3 张图"))
    assert en["images_per_sample"] == zh["images_per_sample"] == 3
    assert en["tokens_per_sample"] == zh["tokens_per_sample"] == 3 * PER_IMAGE


def test_more_than_four_images_moves_the_verdict_off_fits():
    """en25-003's run ran out of memory; at one image a sample (731 tokens) it was said to fit."""
    assert ask_json_in_process(VL_EN)["report"]["feasible"] in ("borderline", "no")


def test_images_not_of_a_prompt_are_not_per_sample_en_zh():
    """Must not misread: images of a GPU, a total, a served request."""
    en = _request(
        "Full fine-tune qwen2.5-vl-3B with llama-factory on 8 A100 80GB; the dataset has 4 images of 768×768 "
        "per GPU batch."
    )
    assert en["images_per_sample"] is None
    zh = _request("用 llama-factory 在 8 张 A100 80G 上全参微调 qwen2.5-vl-3B，一共 4 张图，图片 768×768。")
    assert zh["images_per_sample"] is None
    served = _request("Serve Qwen2.5-VL-7B with vLLM on one L40S; each prompt has 2 images of 768x768.")
    assert served["images_per_sample"] is None and served["images_per_request"] == 2


FORMATS_EN = (
    "Can an A100 40GB run Llama 3.3 70B? FP16 needs about 168 GB, Q4_K_M about 47 GB and Q3_K_M about "
    "36.1 GB. Which quantization fits?"
)
FORMATS_ZH = (
    "A100 40GB 能跑 Llama 3.3 70B 吗？FP16 需要约 168GB，Q4_K_M 约 47GB，Q3_K_M 约 36.1GB，哪种量化放得下？"
)


def _rows(question: str) -> list[dict]:
    return ask_json_in_process(question)["report"]["per_value"]


def test_q3_k_m_is_sized_as_itself():
    """s47: Q3_K_M at llama.cpp's quantize-table size (Llama-3-8B 3.74 GiB: 4.0 bits), before as GPTQ int4."""
    assert sized_format("q3_k_m") == "q3_k_m" and sized_format("q4_k_m") == "q4_k_m"
    assert abs(BITS_PER_WEIGHT[Precision.q3_k_m] - 3.74 * 2**30 * 8 / 8_030_261_248) < 1e-12


def test_each_format_listed_with_its_memory_gets_a_row_en_zh():
    for question in (FORMATS_EN, FORMATS_ZH):
        rows = _rows(question)
        assert [r["value"] for r in rows] == ["fp16", "q4_k_m", "q3_k_m"], rows
        assert all(r["setting"] == "precision" and r["fits"] in ("yes", "borderline", "no") for r in rows)
        fp16, q3 = rows[0], rows[2]
        assert fp16["fits"] == "no"  # 70.6B × 2 B = 141 GB of weights on one 40 GB card
        assert q3["gpus_needed"] is None or q3["gpus_needed"] < fp16["gpus_needed"]  # 4.156 bits, not 16


def test_the_row_names_the_format_sized_in_both_languages():
    en = ask_json_in_process(FORMATS_EN)["reply"]
    zh = ask_json_in_process(FORMATS_ZH)["reply"]
    assert "• Q3_K_M weights:" in en and "sized as" not in en  # s47: sized as itself, no longer as INT4
    assert "• Q3_K_M 权重" in zh and "按 INT4 估算" not in zh


def test_formats_not_written_as_options_get_no_rows_en_zh():
    """Must not misread: one format with a figure, and an earlier setup beside the one asked."""
    assert _rows("Can an A100 40GB run Llama 3.3 70B? FP16 needs about 168 GB.") == []
    assert _rows("A100 40GB 能跑 Llama 3.3 70B 吗？FP16 需要约 168GB。") == []
    assert _rows("I served Llama 3.1 8B at fp16 last week on an L4; will int4 fit now?") == []


XTUNER_ZH = (
    "8*A100(40GB) 用 xtuner 微调 llava_llama3_8b_instruct_full_clip_vit_large_p14_336_lora_e1_gpu8_finetune，"
    "batch_size 改成 1，--deepspeed deepspeed_zero2 一直报显存溢出，正常吗？"
)
XTUNER_EN = (
    "On 8 A100 40GB I run xtuner train "
    "llava_llama3_8b_instruct_full_clip_vit_large_p14_336_lora_e1_gpu8_finetune --deepspeed deepspeed_zero2 "
    "with batch_size 1. Will it fit?"
)


def test_xtuner_llava_config_name_says_the_llms_method_en_zh():
    """XTuner's '..._full_clip_vit_..._lora_...' config: ``freeze_llm=False`` and a LoRA on the frozen CLIP
    encoder (InternLM/xtuner@0b63e429 xtuner/configs/llava/llama3_8b_instruct_clip_vit_large_p14_336/
    finetune/): the 8B language model trains in full, so ZeRO-2 on 40 GB cards is no longer 'fits' as a
    LoRA (zh20-012: it ran out of memory; ZeRO-3 ran at 24,250 MB)."""
    for question in (XTUNER_EN, XTUNER_ZH):
        data = ask_json_in_process(question)
        assert data["request"]["method"] == "full" and data["request"]["zero_stage"] == 2
        assert data["report"]["feasible"] in ("borderline", "no")


def test_xtuner_qlora_config_and_plain_lora_words_keep_their_method_en_zh():
    """Must not misread: the qlora sibling is QLoRA; a LLaVA LoRA said in words is LoRA."""
    q = _request(
        "On one A100 80GB I run xtuner train "
        "llava_internlm2_chat_7b_qlora_clip_vit_large_p14_336_lora_e1_gpu8_finetune with batch_size 1. Fit?"
    )
    assert q["method"] == "qlora"
    assert _request("用 LoRA 微调 llava-v1.5-7b，4 张 A100 80G 够吗？")["method"] == "lora"
    assert _request("LoRA fine-tune llava_v1.5_7b on 4 A100 80GB: enough?")["method"] == "lora"


def _ignored(data: dict) -> set[str]:
    return {i["text"] for i in data["interpretation"]["ignored"]}


def test_the_askers_tokens_per_image_are_no_dataset_en_zh():
    """'752 tokens per image, about 6,018 tokens for 8 images' (en25-003's own arithmetic, 768²/28² ≈ 752): no
    dataset of 752 tokens nor 8 samples; named as not used, the images sized by smart_resize (731 each)."""
    en = ask_json_in_process(VL_EN + " That is only 752 tokens per image, about 6,018 tokens for 8 images.")
    assert en["request"]["tokens"] is None and en["request"]["num_samples"] is None
    assert en["request"]["tokens_per_sample"] == 5 * PER_IMAGE and {"752", "6,018"} <= _ignored(en)
    zh = ask_json_in_process(
        "我用 llama-factory 在 8 张 A100 80G 上全参微调 qwen2.5-vl-3B，每条数据 3 张图，768×768，"
        "每张图约 752 个 token，放得下吗？"
    )
    assert zh["request"]["tokens"] is None and zh["request"]["tokens_per_sample"] == 3 * PER_IMAGE
    assert "752" in _ignored(zh)


def test_tokens_per_sample_are_still_read_en_zh():
    """Must not misread: a sample's tokens beside an image word stay the sample's."""
    en = _request("Full SFT of Qwen2.5-7B on 8 A100 80GB, 50k samples of 752 tokens each, no images. Time?")
    assert en["tokens_per_sample"] == 752
    zh = _request("在 8 张 A100 80G 上全参微调 Qwen2.5-7B，5 万条数据，每条 752 个 token，没有图片，要多久？")
    assert zh["tokens_per_sample"] == 752
