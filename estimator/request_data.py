"""The stated settings of how training samples become sequences (issue 24: LLaMA-Factory ``cutoff_len`` is
a cap, not every sample's length), declared once here and mixed into
:class:`estimator.request.SizingRequest` (kept apart so the request module stays within the 500-line limit
of tests/test_layout.py)."""

from pydantic import Field

from estimator.request_setting import _setting


class DataSettings:  # a plain mixin of SizingRequest (request_setting.drop_mixin_defaults)
    """Sample packing (JSON name as the field)."""

    packing: bool | None = Field(
        None,
        description="samples packed into sequences of seq_len (LLaMA-Factory packing / neat_packing, TRL "
        "SFTConfig packing, axolotl sample_packing); False or None: each batch padded to its longest sample "
        "(LLaMA-Factory's data collator, transformers DataCollatorForSeq2Seq padding=True)",
        json_schema_extra=_setting("training", json_order=67, echo="stage_suffix"),  # said (s36 fixc #1)
    )
    images_per_sample: int | None = Field(
        None,
        ge=1,
        le=1000,
        description="images in each training sample ('每条数据一张图', 'one image per sample', '2 images "
        "each'): a vision-language model's visual tokens per sample are this many times one image's "
        "(estimator.image_tokens, s40 fixt #1); None with a resolution stated: one",
        json_schema_extra=_setting("training", json_order=103),
    )
    image_pixels: list[int] | None = Field(
        None,
        min_length=2,
        max_length=2,
        description="the images' width and height in pixels ('图片分辨率 1280x720', 'images "
        "1280x720'): a Qwen2-VL/Qwen2.5-VL release turns each into (h/28)·(w/28) visual tokens "
        "after its processor's smart_resize (estimator.image_tokens, s40 fixt #2); named as not "
        "used for a model without a vision tower",
        json_schema_extra=_setting(json_order=104),  # s44: a served request's images too
    )
    tokens_per_image: int | None = Field(
        None,
        ge=1,
        le=100_000,
        description="LLM tokens one image takes, as the user counted them ('about 752 tokens per image', "
        "'每张图约 752 个 token'): each training sample's tokens become the text tokens + "
        "images_per_sample × this, and a served request's prompt + images_per_request × this, in place of "
        "the processor's count from a resolution (estimator.image_tokens, s46 review B7: the count was "
        "named as not used and a resolution asked for)",
        json_schema_extra=_setting(json_order=127),
    )
    images_per_request: int | None = Field(
        None,
        ge=1,
        le=100,
        description="images in each served request ('2 images per request', 'each request has 2 images', "
        "'每个请求 2 张图片'): a vision-language model's visual tokens are added to each prompt — "
        "LLaVA-1.5's "
        "576 an image, a Qwen2-VL/Qwen2.5-VL release's from ``image_pixels`` (estimator.image_tokens); "
        "named as not counted where the model's image tokens are not known (s44)",
        json_schema_extra=_setting("serving", json_order=115),
    )
    draft_model: str | None = Field(
        None,
        max_length=120,
        description="the draft model of speculative decoding as stated (vLLM --speculative-config "
        "'{\"model\": ...}', SGLang --speculative-draft-model-path, 'Llama-3.2-1B as the draft', "
        "'用 Qwen2.5-0.5B 做草稿模型'): the catalog id when the catalog knows it, its weights (2 B a "
        "parameter) and KV cache then counted on each GPU with the target's TP (estimator.draft_model); "
        "else the name as typed, its memory not counted (said) (s44)",
        json_schema_extra=_setting("serving", json_order=116),
    )
    global_batch_asked: bool | None = Field(
        None,
        description="the user asks which global batch to use ('全局批大小多少合适', 'what global batch "
        "should I use'): the batch line also gives the optimizer steps the run takes at it and why it "
        "is that size (bot.render.batch_text.steps_text, trial s42 #7)",
        json_schema_extra=_setting(json_order=110),  # a cue, as cost_asked: never "not used"
    )
    epochs_asked: bool | None = Field(
        None,
        description="the user asks how many epochs their budget pays for ('能跑几轮', 'how many epochs'): "
        "the budget verdict adds budget ÷ cost per epoch in whole epochs, at the price range's high and low "
        "ends (estimator.budget_check, trial s43 q11_zh)",
        json_schema_extra=_setting(json_order=113),  # a cue, as cost_asked: never "not used"
    )
    checkpoint_asked: bool | None = Field(
        None,
        description="the user asks how large a training run's checkpoints are or how much storage they "
        "take ('checkpoint多大', '存储要准备多少T', 'how big is the checkpoint with optimizer states'): the "
        "reply's first line gives the weights-only and full-state checkpoint sizes "
        "(SizingReport.checkpoint_bytes); a checkpoint with no training stage said is a full fine-tuning's "
        "(bot.parse.checkpoint_asked, s45)",
        json_schema_extra=_setting(json_order=122),  # a cue, as cost_asked: never "not used"
    )
    merge_asked: bool | None = Field(
        None,
        description="the user asks what merging a LoRA adapter into its base needs ('how much memory to "
        "merge a LoRA into Llama 3.1 70B', '把 70B 的 LoRA 合并回基座需要多少内存'): no training is sized; "
        "the reply's first line gives the merge's memory, the base's 16-bit weights (PEFT "
        "merge_and_unload: no gradients, optimizer states or activations; bot.render.merge_head, s46)",
        json_schema_extra=_setting(json_order=125),  # a cue, as cost_asked: never "not used"
    )
    machines_asked: bool | None = Field(
        None,
        description="the user asks how many machines (servers, nodes) the job needs ('用 L20 需要几台机器', "
        "'how many servers do I need'): a serving headline names the machines the recommended GPUs fill, "
        "⌈GPUs ÷ the card's GPUs per node⌉ (bot.parse.machines_asked, s50)",
        json_schema_extra=_setting(json_order=134),  # a cue, as cost_asked: never "not used"
    )
