"""The reasons of a serving flag that changes the sizing but is not modelled (s43 trial #3/#4,
bot.parse.configs.serve_flag_reasons) in words, kept apart from :mod:`bot.render.ignored_texts` (at its
500-line cap), which merges them into ``IGNORED_TEXTS``."""

from __future__ import annotations

from bot.render.i18n import N_

SERVE_FLAG_TEXTS = {
    "prefix_caching": N_(
        "prefix caching: vLLM's V1 engine has it on by default (SGLang's RadixAttention too), and the cached "
        "prefixes share the same KV cache pool, so no memory figure here changes; a shared prefix only skips "
        "its prefill (not in the speeds)"
    ),
    "speculative_not_modelled": N_(
        "speculative decoding is not modelled: the draft model's weights and KV cache also take GPU memory "
        "(not counted above), and the decode speed shown is without it — its speed-up depends on how many "
        "drafted tokens are accepted"
    ),
    "speculative_draft": N_(
        "the draft model of your speculative decoding, not another setup: its weights and KV cache also take "
        "GPU memory (not counted above), and the decode speed shown is without speculation"
    ),
    "speculative_speed": N_(
        "speculative decoding's speed-up is not modelled: the decode speed shown is without it (it depends "
        "on how many drafted tokens are accepted); the draft model's weights and KV cache are counted above"
    ),
    "draft_tp": N_(
        "the draft model's own tensor-parallel size does not start apart from the target's: vLLM's V1 "
        "engine (the default) raises 'draft_tensor_parallel_size must match tensor_parallel_size' "
        "(DraftModelProposer, vllm/v1/spec_decode/draft_model.py), so the draft's weights and KV cache are "
        "counted split over the target's TP, the layout that starts"
    ),
    "expert_parallel": N_(
        "expert parallelism is not modelled as its own layout: the experts are sized split over the same "
        "GPUs by tensor parallelism (each GPU holds about the same bytes of them either way); the "
        "all-to-all exchange of tokens between GPUs is not in the speed"
    ),
}
"""``speculative_not_modelled``, ``speculative_draft`` (s43 fixserve2 #2), ``draft_tp`` (s45 fixserve #3:
vLLM V1 refuses a draft TP that differs from the target's) and ``expert_parallel`` → words (sources in
:mod:`bot.parse.configs.serve_flag_reasons`)."""

SERVE_FLAG_TEXTS["expert_parallel_training"] = N_(
    "a stated expert-parallel size is not a setting of the training plan: the plan places the experts "
    "itself — ZeRO-3/FSDP shards them over the data-parallel GPUs (each GPU holds about the same bytes "
    "of them either way), and a Megatron-family plan shows its own EP in the layout; the all-to-all "
    "exchange of tokens between GPUs is not in the time"
)
"""A training question's expert-parallel degree or words (s47 trialfix #6, bot.parse.expert_degree)."""

SERVE_FLAG_TEXTS["audio_hours"] = N_(
    "hours of audio: not modelled — Whisper is a speech-recognition model; the figures above are its "
    "memory and its text decoding in tokens per second, not hours of audio transcribed per hour, which "
    "depend on its encoder's 30-second windows"
)
"""Whisper served with hours of audio said (s47 trialfix #4, bot.parse.non_llm.with_audio_hours)."""

SERVE_FLAG_TEXTS["distill_teacher"] = N_(
    "the teacher of the distillation: generating the student's data with it is an inference job, not in the "
    "GPU-hours above (they are the student's training on that data) — ask to serve the teacher (its output "
    "tokens on your cards) to size the generation"
)
"""A distillation's teacher (trial s43 q09_zh, q28_en; bot.parse.teacher_model.is_teacher): the student is
sized, the teacher named with why. Kept here beside the other not-modelled reasons: bot.render.ignored_texts
is at its line cap."""

SERVE_FLAG_TEXTS["image_request_uncounted"] = N_(
    "the images' tokens are known here only for LLaVA-1.5 (576 an image) and Qwen2-VL/Qwen2.5-VL with a "
    "resolution (one token per 28 × 28 pixels): each request is sized by its text alone — add the image "
    "tokens to the prompt length to count them"
)
"""A served request's images the answer does not count (s44 fixserve #3, bot.core.unused_local
.unused_request_images): a model without a vision tower or whose tokens per image are not known."""


LORA_SERVING = N_(
    "multi-LoRA serving, not sized: vLLM (--enable-lora) keeps --max-loras adapters on the GPU at once "
    "(default 1) in slots of --max-lora-rank (default 16), each rank × (d_in + d_out) × 2 B per adapted "
    "matrix and layer (≈ 84 MB for an 8B Llama at rank 16 on all its linear layers), and the others in "
    "CPU memory (--max-cpu-loras): the memory above is the base model's"
)
"""'method: lora' named in a serving answer (bot.parse.served_adapters): vLLM's LoRAConfig defaults
(vllm/config/lora.py: max_loras 1, max_lora_rank 16, max_cpu_loras = max_loras when unset); the slot's bytes
for Llama 3.1 8B (32 layers; q, o 4096→4096, k, v 4096→1024, gate, up 4096→14336, down 14336→4096):
16 × (8192 + 5120 + 5120 + 8192 + 3 × 18432) × 32 × 2 B = 83.9 MB. Before, 'it changes the answer, but the
sizing has no setting for it yet' (s45 trial leftover: the wrong reason)."""
SERVE_FLAG_TEXTS["ep_no_experts"] = N_(
    "expert parallelism splits a mixture-of-experts model's routed experts over GPUs: this model has none "
    "(a dense model), so there is nothing to split"
)
SERVE_FLAG_TEXTS["ep_not_dividing"] = N_(
    "not usable: the expert-parallel size must divide the model's routed experts (Megatron-Core asserts "
    "that num_moe_experts is a multiple of expert_model_parallel_size), so the plan chooses its own"
)
SERVE_FLAG_TEXTS["ep_over_gpus"] = N_(
    "not usable: the expert-parallel size is more than your GPUs (the EP group is made of data-parallel "
    "GPUs), so the plan chooses its own"
)
SERVE_FLAG_TEXTS["ep_dp"] = N_(
    "not usable on your GPUs: the expert-parallel size must divide the data-parallel GPUs (GPUs ÷ (TP × "
    "PP)) of the layout that fits, so the plan runs without it"
)
"""s48: a stated training EP the MoE full-training plan cannot use (estimator.expert_parallel.stated_ep,
bot.core.unused_local.unused_ep)."""
