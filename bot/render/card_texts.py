"""Ledger sentences of a card typed but not in the catalog (its memory given, none given, or a family
typed without a model), merged into :data:`bot.render.ledger_texts.WHY_TEXTS` (split from it at 500 lines;
``tests/test_i18n.py`` checks each has a Chinese translation)."""

from bot.render.i18n import N_
from bot.render.model_texts import MODEL_WHY_TEXTS
from bot.render.stack_texts import STACK_WHY_TEXTS

CARD_WHY_TEXTS: dict[str, str] = {
    # a TPU's runtime reserve: no CUDA context (trial s30 #1)
    "runtime_overhead_tpu": N_(
        "no CUDA context on a TPU: ≈ 1 GiB per chip kept for the XLA runtime and its compiled programs (the "
        "GPU figure, not measured on TPU); allocator fragmentation: + 8 %% of what each step allocates and "
        "frees — activations, the loss, temporaries"
    ),
    "gpu_unknown_memory": N_(
        "“%(gpu)s” is not in my catalog: sized as a %(memory_gib)s card by memory alone; no time, "
        "speed or price figures without its TFLOPS and bandwidth"
    ),
    "gpu_unknown_default": N_(
        "“%(gpu)s” is not in my catalog and no memory was given: sized on the default GPU instead — "
        "name its memory (e.g. “%(gpu)s 32GB”) to size it by memory"
    ),
    "gpu_family_flagship": N_(
        "“%(gpu)s” names a family of accelerators, not one model: sized on its flagship %(used)s "
        "— name the model to size that one"
    ),
    "previous_answer_load": N_(
        "the previous answer's load: only the card changed, so the load it assumed stays (say a load to "
        "change it)"
    ),
    **STACK_WHY_TEXTS,  # the user's stack (s34: a tool that never shards the model)
    **MODEL_WHY_TEXTS,  # a catalog model's own parts (s31: a VL release's vision tower)
    "request_volume_daily": N_(
        "%(requests)s requests a day, at the busiest hour %(peak)s× the day's average (a planning "
        "assumption: traffic peaks at 2–3× its average hour) = %(rate)s requests/s × %(tokens)s tokens each, "
        "counted as generated (the prompt's prefill is faster, so this errs high)"
    ),
    "request_volume_hourly": N_(
        "%(requests)s requests an hour = %(rate)s requests/s × %(tokens)s tokens each, counted as generated "
        "(the prompt's prefill is faster, so this errs high)"
    ),
    "token_volume_daily": N_(
        "%(tokens)s tokens a day, at the busiest hour %(peak)s× the day's average (a planning assumption: "
        "traffic peaks at 2–3× its average hour), counted as generated (the prompt's prefill is faster, so "
        "this errs high)"
    ),
    "token_volume_hourly": N_(
        "%(tokens)s tokens an hour ÷ 3,600 s, counted as generated (the prompt's prefill is faster, so this "
        "errs high)"
    ),
    "tokens_per_request_default": N_(
        "generated tokens per request when none are given: a chat reply of a few hundred tokens (a "
        "planning assumption) — say yours"
    ),
    "volume_concurrency": N_(
        "sequences at once by Little's law: the arrival rate × the time each request is decoded, i.e. the "
        "sequences whose tokens/s add up to %(target_tokens_per_s)s tokens/s"
    ),
    "rate_concurrency": N_(
        "sequences at once by Little's law on the GPUs sized: QPS %(qps)s × ≈ %(seconds)s s per request "
        "(first token ≈ %(ttft)s s + %(output)s output tokens at ≈ %(speed)s tokens/s each, the decode "
        "speed less the %(prefill)s of each second the prompts' prefill takes)"
    ),
    "previous_answer_weights": N_(
        "the previous answer's weights: only the context changed, so the weights (and the runtime that "
        "runs them) stay (name a precision to change them)"
    ),
    "compared_load": N_(
        "one load for every option compared: no load was given, so each card is sized for the largest "
        "default among them (state a load to change it)"
    ),
    "budget_finetune_data": N_(
        "the data of a fine-tuning budget with no data size given: 100,000 samples × 1,024 tokens, a typical "
        "instruction-tuning set (tell me your samples and their length to size yours)"
    ),
    "budget_pick": N_(
        "the budget's choice: lighter weights on fewer GPUs, the option within your budget that the "
        "first line names (name a precision to size another)"
    ),
    # experts in host memory, no quantization said: the documented setup's (s38 fixs #4)
    "host_experts_q4": N_(
        "experts kept in CPU memory (KTransformers, llama.cpp -ot exps=CPU / --n-cpu-moe) run GGUF weights: "
        "Q4_K_M when none is said — KTransformers' DeepSeek-R1/V3 guide runs its q4km weights on one 24 GB "
        "card and 382 GB of DRAM (kvcache-ai/ktransformers doc/en/DeepseekR1_V3_tutorial.md); say Q8_0, "
        "Q2_K or IQ1_S for another"
    ),
}
"""Reason key → the ledger sentence (%-parameters from the assumption; estimator.resolve.resolve_gpu;
previous_answer_load: bot.core.carried_load; budget_pick: bot.core.budget_lead)."""
