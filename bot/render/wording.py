"""Keyed wording of replies: warnings by code, ledger labels, memory parts, verdicts (plans: plan_wording).
msgids (English) marked with N_ for extraction; translated at render time."""

from __future__ import annotations

from bot.render.chunked_texts import CHUNKED_NOTE_MESSAGES
from bot.render.dp_attention_texts import DP_ATTENTION_NOTE_MESSAGES
from bot.render.i18n import N_
from bot.render.note_codes import NoteCode
from bot.render.serving_budget_text import SERVING_BUDGET_MESSAGES
from bot.render.wording_extra import EXTRA_MONEY, EXTRA_NOTE_MESSAGES, EXTRA_VERDICTS

# Keyed wording (extracted by pybabel through N_)
NOTE_MESSAGES: dict[NoteCode, str] = {
    **EXTRA_NOTE_MESSAGES,
    **DP_ATTENTION_NOTE_MESSAGES,  # s44 fixserve #2 (bot.render.dp_attention_texts)
    **CHUNKED_NOTE_MESSAGES,  # s45: Llama 4's chunked layers per runtime (bot.render.chunked_texts)
    # estimator.eager_unstated: a card without FlashAttention-2, no runtime named (s51)
    NoteCode.eager_unstated: N_(
        "This card has no FlashAttention-2 (it needs Ampere or newer), and no runtime was named: this "
        "answer sizes vLLM, but Hugging Face code that runs eager attention here — a model's own "
        "trust_remote_code modeling, or transformers before 4.36 — keeps fp32 scores of ≈ %(scores_bytes)s "
        "per GPU for one layer at %(context)s tokens, leaving under 10 %% of the card: serve with vLLM "
        "(or transformers' SDPA attention), or shorten the context."
    ),
    NoteCode.global_batch_adjusted: N_(
        "Global batch %(global_batch)s is not a whole number of micro-batches × DP: the plan uses "
        "%(adjusted)s sequences (micro-batch %(micro_batch)s × %(gradient_accumulation)s accumulation × "
        "DP %(dp)s)."
    ),
    NoteCode.below_chinchilla: N_(
        "Training data (%(tokens)s tokens) is below the Chinchilla-optimal ≈ %(chinchilla_tokens)s tokens "
        "(20 × N): the model would be under-trained for its size."
    ),
    NoteCode.tiny_job: N_(
        "A small job (≈ %(gpu_hours)s GPU-hours): one node or even one GPU is enough; "
        "setup and evaluation will take longer than the training itself."
    ),
    NoteCode.huge_job: N_(
        "A very large job (%(gpus)s GPUs, %(days)s days): plan for hardware failures, restarts, "
        "checkpointing and spare nodes."
    ),
    NoteCode.mfu_outside_band: N_("MFU %(mfu)s is outside the usual 30–50%% band: please double-check it."),
    NoteCode.gpu_no_bf16: N_(
        "%(gpu)s has no bf16 tensor cores: sized at its fp16 peak (fp16 needs loss scaling)."
    ),
    NoteCode.consumer_no_nvlink: N_(
        "%(gpu)s is a consumer card without NVLink: GPUs talk over PCIe, so prefer data parallelism "
        "or ZeRO to tensor parallelism."
    ),
    NoteCode.memory_tight: N_(
        "Memory is tight (%(ratio)s of the card): shorter sequences, a smaller micro-batch or "
        "activation recompute leave headroom."
    ),
    NoteCode.memory_tight_recomputing: N_(
        "Memory is tight (%(ratio)s of the card) even with full recompute: shorter sequences, a smaller "
        "micro-batch or more GPUs leave headroom."
    ),
    NoteCode.offload_not_needed: N_(
        "CPU offload is not needed on these GPUs: without it the same setting takes ≈ %(per_gpu_gib)s "
        "per GPU (%(ratio)s of the card); offload only adds host RAM and slower steps."
    ),
    NoteCode.does_not_fit_requested: N_(
        "It does not fit on %(gpu_count)s GPUs: at least %(min_gpus)s are needed."
    ),
    NoteCode.deadline_missed: N_(
        "Not within %(deadline_days)s days: %(gpu_count)s GPUs take ≈ %(days)s days; the deadline needs "
        "≈ %(gpus)s GPUs."
    ),
    NoteCode.deadline_missed_hours: N_(
        "Not within %(deadline_hours)s hours: %(gpu_count)s GPUs take ≈ %(hours_taken)s hours; the deadline "
        "needs ≈ %(gpus)s GPUs."
    ),
    NoteCode.budget_max_params: N_(
        "The largest model %(budget)s trains on %(tokens)s tokens: ≈ %(params_total)s parameters "
        "(at the middle of the price range and the likely MFU)."
    ),
    NoteCode.compute_budget_optimal: N_(
        "Compute-optimal for %(flops)s FLOPs (Chinchilla, C = 6·N·D with D ≈ 20·N): a ≈ %(params_total)s "
        "model on ≈ %(tokens)s tokens."
    ),
    NoteCode.compute_budget_tokens: N_(
        "%(flops)s FLOPs train a %(params_total)s model on ≈ %(tokens)s tokens (C = 6·N·D)."
    ),
    NoteCode.total_memory_yes: N_(
        "%(total_gib)s of GPU memory in total is enough: the weights, one sequence's KV cache and the "
        "workspace need ≈ %(need_bytes)s."
    ),
    NoteCode.total_memory_borderline: N_(
        "%(total_gib)s of GPU memory in total is only just enough: the weights, one sequence's KV cache "
        "and the workspace need ≈ %(need_bytes)s — give the engine nearly all of it "
        "(gpu_memory_utilization above 0.9) and keep contexts short."
    ),
    NoteCode.total_memory_no: N_(
        "%(total_gib)s of GPU memory in total is not enough: the weights, one sequence's KV cache and "
        "the workspace need ≈ %(need_bytes)s."
    ),
    NoteCode.no_fit: N_(
        "No layout fits within %(gpus_searched)s GPUs of this type: choose a card with more memory, "
        "LoRA/QLoRA, or CPU offload."
    ),
    NoteCode.no_fit_stated: N_(
        "With your settings, no number of these GPUs fits (up to %(gpus_searched)s): what your ZeRO "
        "stage does not shard, or your recompute mode keeps, is on every GPU. See “What would change the "
        "answer” for what fits."
    ),
    NoteCode.moe_active_params: N_(
        "MoE model: compute uses the %(params_active)s active parameters per token; memory must hold "
        "all %(params_total)s."
    ),
    NoteCode.samples_to_tokens: N_(
        "Data converted to tokens: %(num_samples)s samples × %(tokens_per_sample)s tokens "
        "= %(tokens)s tokens."
    ),
    NoteCode.pairs_to_tokens: N_(
        "Data converted to tokens: %(num_samples)s pairs × 2 sequences (chosen and rejected) × "
        "%(tokens_per_sample)s tokens = %(tokens)s tokens."
    ),
    NoteCode.tp_across_nodes: N_(
        "Tensor parallelism TP=%(tp)s spans more than one node: it needs NVLink-class bandwidth and will "
        "be much slower across nodes."
    ),
    NoteCode.unknown_gpu_assumed: N_(
        "GPU “%(gpu)s” is not in the catalog: sized with the default GPU instead."
    ),
    NoteCode.personal_beyond_one_machine: N_(
        "That takes %(gpus)s cards, more than one machine holds (%(gpus_per_node)s): %(gpu)s cards in "
        "several machines have no fast links between them, so this is not a home setup — use datacenter "
        "GPUs, a smaller model or lighter weights."
    ),
    NoteCode.personal_machines_stated: N_(
        "Your %(gpus)s %(gpu)s cards span %(machines)s machines with no fast links between them: the traffic "
        "between the machines goes over your network — the times and speeds above assume it keeps up; over "
        "ordinary Ethernet expect them slower."
    ),
    NoteCode.released_weights_short: N_(
        "%(precision)s weights (%(weights_bytes)s) do not fit on %(gpu_count)s GPUs: at least %(min_gpus)s "
        "are needed; the answer is for FP8 weights on your %(gpu_count)s (check quality on your task)."
    ),
    NoteCode.generic_shape_mha: N_(
        "If your model is an older one with multi-head attention (Llama 2 7B/13B, Qwen1.5, Baichuan 2, "
        "Yi-6B), its KV cache is %(times)s× the figure above: name the model for its exact numbers."
    ),
    NoteCode.generic_gpu_no_time: N_(
        "No time or cost figures for %(gpu)s: I know its memory, not its TFLOPS. Give a measured "
        "throughput (“we get 100 TFLOPS per GPU”) or a catalog card to get them."
    ),
    NoteCode.known_duration: N_(
        "%(gpu_count)s GPUs × %(hours)s hours = %(gpu_hours)s GPU-hours, as you stated: cost follows from it."
    ),
    NoteCode.recompute_chosen: N_(
        "The plan switches on full recompute (gradient checkpointing) to fit with headroom: "
        "≈ %(per_gpu_gib)s per GPU with it, ≈ %(without_gib)s without it on %(gpu_count)s GPUs."
    ),
    NoteCode.vllm_refuses: N_(
        "vLLM refuses to start: the KV cache holds %(kv_tokens)s tokens, fewer than one "
        "%(max_model_len)s-token request (max_model_len)."
    ),
    NoteCode.vllm_starts_at_max_utilization: N_(
        "With gpu_memory_utilization %(utilization)s it would hold %(kv_tokens)s tokens and start, with "
        "little room for allocation spikes."
    ),
    NoteCode.implied_mfu: N_("That run implies an MFU of %(mfu)s (model FLOPs ÷ (GPU-hours × dense peak))."),
    NoteCode.duration_impossible: N_(
        "This cannot be done in %(hours)s hours on %(gpu_count)s GPUs: it needs an MFU of %(mfu)s, above the "
        "cards' dense peak. Sized below at a realistic MFU instead."
    ),
    NoteCode.measured_above_peak: N_(
        "Your %(tflops)s TFLOPS per GPU is above this card's dense peak (%(peak)s TFLOPS): set aside, "
        "the calibrated MFU is used instead. Model TFLOPS count 6·N per token, without recomputation."
    ),
    NoteCode.pipeline_across_nodes: N_(
        "The model is split over nodes (TP=%(tp)s × PP=%(pp)s): one copy across nodes holds the weights "
        "and this load on fewer GPUs than copies inside nodes would. Each token passes every stage in turn, "
        "so the stages do not make a sequence faster (its speed is one TP group reading all the weights, "
        "plus the hops between nodes)."
    ),
    NoteCode.tp_group_across_nodes: N_(
        "One copy of the model is one tensor-parallel group across %(nodes)s nodes (TP=%(tp)s, "
        "%(per_node)s GPUs a node: SGLang's multi-node launch, --tp %(tp)s --nnodes %(nodes)s). Every "
        "layer's all-reduces cross the network between the nodes: it needs a fast interconnect "
        "(InfiniBand or RoCE)."
    ),
    NoteCode.beyond_context_window: N_(
        "%(model)s was released for at most %(window)s tokens and documents no way beyond: it was not "
        "trained for %(length)s tokens (a longer-context version, or untested RoPE scaling) — sized as asked."
    ),
    NoteCode.rope_scaling_set: N_(
        "%(model)s was trained for %(window)s tokens: with the YaRN factor %(factor)s you set it runs up to "
        "%(extended)s — %(how)s. Its model card documents no RoPE scaling, so quality past %(window)s tokens "
        "is not guaranteed. Sized at %(length)s tokens as asked."
    ),
    NoteCode.vllm_long_max_model_len: N_(
        "vLLM refuses to start with a max_model_len of %(length)s tokens, past the model config's "
        "max_position_embeddings (%(window)s), unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 is set (the recipe "
        "sets it); positions past %(window)s can give wrong output."
    ),
    NoteCode.stated_layout_too_small: N_(
        "One copy of the model on TP %(tp)s × PP %(pp)s cannot hold its weights and one sequence: "
        "sized with TP %(free_tp)s × PP %(free_pp)s instead."
    ),
    NoteCode.stated_layout_needs_more: N_(
        "With your TP %(tp)s × PP %(pp)s every copy of the model uses that many GPUs: %(gpus)s to run "
        "%(load)s sequences at once; a layout chosen freely (TP %(free_tp)s × PP %(free_pp)s) needs "
        "%(free_gpus)s."
    ),
    NoteCode.engine_reserve_short: N_(
        "lmdeploy's KV cache takes %(share)s of the memory free after the weights (--cache-max-entry-count), "
        "leaving ≈ %(reserve_bytes)s per GPU for activations; one 8,192-token prefill needs ≈ "
        "%(need_bytes)s: lower --cache-max-entry-count (default 0.8)."
    ),
    NoteCode.stated_share_short: N_(
        "The figures below are at a memory share of %(needed)s, the smallest (in steps of 0.05) that holds "
        "the weights, the workspace and %(sequences)s sequence(s) on your GPUs."
    ),
    NoteCode.mla_dp_attention_assumed: N_(
        "Assumed: data-parallel attention (SGLang --enable-dp-attention; vLLM --data-parallel-size with "
        "--enable-expert-parallel), which keeps each sequence's MLA latent cache on one GPU: up to "
        "%(max_concurrency)s sequences of %(context)s tokens. With plain --tp %(tp)s every GPU keeps the "
        "whole latent cache: about %(concurrency)s."
    ),
    NoteCode.mla_vllm_plain_tp: N_(
        "Sized on vLLM's default, plain --tensor-parallel-size %(tp)s, where every GPU keeps the whole MLA "
        "latent cache. With --data-parallel-size %(tp)s --enable-expert-parallel each sequence's latent "
        "cache stays on one GPU: about %(concurrency)s sequences of %(context)s tokens."
    ),
    NoteCode.mla_sglang_plain_tp: N_(
        "Sized on SGLang's default, plain --tp %(tp)s, where every GPU keeps the whole MLA latent cache. "
        "With --enable-dp-attention each sequence's latent cache stays on one GPU: about %(concurrency)s "
        "sequences of %(context)s tokens."
    ),
    NoteCode.sglang_raised_fraction: N_(
        "With --mem-fraction-static %(fraction)s (SGLang's DeepSeek guide runs one 8 × H20 node so) the "
        "weights fit on your %(gpus)s GPUs: about %(concurrency)s sequences of %(context)s tokens. It leaves "
        "%(left_bytes)s per GPU for activations and CUDA graphs (the default leaves %(default_left_bytes)s): "
        "tight."
    ),
    NoteCode.sglang_raised_fraction_dp: N_(
        "With --mem-fraction-static %(fraction)s (SGLang's DeepSeek guide runs one 8 × H20 node so) the "
        "weights fit on your %(gpus)s GPUs: about %(concurrency)s sequences of %(context)s tokens, "
        "%(dp_concurrency)s with --enable-dp-attention. It leaves %(left_bytes)s per GPU for activations "
        "and CUDA graphs (the default leaves %(default_left_bytes)s): tight."
    ),
    NoteCode.max_model_len_from_model: N_(
        "No --max-model-len is set, so vLLM takes the model's own (%(max_model_len)s tokens): "
        "set --max-model-len to at most %(kv_tokens)s, or give it more memory (--gpu-memory-utilization, "
        "more GPUs with --tensor-parallel-size)."
    ),
    NoteCode.tokens_assumed_chinchilla: N_(
        "No data size given: %(tokens)s tokens assumed (20 per parameter, Chinchilla) — give yours for your "
        "own answer."
    ),
    NoteCode.duration_needs_data: N_(
        "How long it takes depends on your data: give the samples × tokens per sample, or the total "
        "tokens (e.g. “50k samples of 2k tokens” or “100M tokens”). The memory it needs is below."
    ),
    NoteCode.over_budget: N_(
        "Over budget: this costs %(cost_low)s – %(cost_high)s, more than the %(budget)s you have. "
        "Fewer tokens, a smaller model or cheaper GPUs would fit it."
    ),
    NoteCode.within_budget: N_("Within budget: %(cost_low)s – %(cost_high)s of your %(budget)s."),
    NoteCode.budget_borderline: N_(
        "Borderline for the budget: %(cost_low)s – %(cost_high)s against %(budget)s — it depends on the "
        "price you get."
    ),
    NoteCode.budget_no_price: N_(
        "Your budget of %(budget)s covers this run (at most %(gpu_hours)s %(gpu)s GPU-hours) at a rental "
        "price of up to %(max_price)s per GPU-hour."
    ),
    NoteCode.concurrency_limited_assumed: N_(
        "Only ≈ %(max_concurrency)s sequences fit at this context (I assumed %(concurrency)s): "
        "add GPUs, shorten the context or use an fp8 KV cache."
    ),
    NoteCode.tp_allreduce_internode: N_(
        "The decode and prefill times count TP=%(tp)s's all-reduces across the %(nodes)s nodes at %(gbps)s "
        "GB/s per GPU (InfiniBand/RoCE between the nodes), not at the %(link)s GB/s link inside a node."
    ),
    NoteCode.tp_allreduce_ethernet: N_(
        "The decode and prefill times count TP=%(tp)s's all-reduces across the %(nodes)s machines at "
        "≈ %(gbps)s GB/s per GPU (%(gbit)s Gb Ethernet between them), not at the %(link)s GB/s link inside "
        "a machine."
    ),
    NoteCode.prefill_in_decode: N_(
        "The decode speed counts the prompts' prefill: with chunked prefill (vLLM, SGLang) each "
        "%(length)s-token prompt (≈ %(prefill_s)s s of these GPUs) runs in the same steps as the others' "
        "decoding, %(prefill_share)s of each step at %(concurrency)s sequences; decoding alone would give "
        "≈ %(tokens_per_s)s tokens/s per sequence. The prefill is added to each step with no overlap, an "
        "upper bound: fused steps that share one pass over the weights run faster."
    ),
    NoteCode.speed_floor_held: N_(
        "Counted at a usable speed: the KV cache holds %(max_concurrency)s sequences, but at that many each "
        "decodes ≈ %(speed)s tokens/s; %(concurrency)s keep at least %(target_tokens_per_s)s tokens/s each "
        "(MLPerf's server bound, 200 ms per output token)."
    ),
    NoteCode.user_speed_held: N_(
        "Counted at your %(target_tokens_per_s)s tokens/s per user: the KV cache holds %(max_concurrency)s "
        "sequences, but at that many each decodes ≈ %(speed)s tokens/s; %(concurrency)s keep at least "
        "%(target_tokens_per_s)s tokens/s each."
    ),
    NoteCode.user_speed_unmet: N_(
        "Even one sequence decodes only ≈ %(speed)s tokens/s here, under your %(target_tokens_per_s)s "
        "tokens/s per user: no load reaches it on these GPUs (faster or more GPUs or lighter weights would)."
    ),
    NoteCode.user_speed_met: N_(
        "At %(concurrency)s sequences each decodes ≈ %(speed)s tokens/s: your %(target_tokens_per_s)s "
        "tokens/s per user is reached."
    ),
    NoteCode.user_speed_short: N_(
        "At %(concurrency)s sequences each decodes ≈ %(speed)s tokens/s, under your %(target_tokens_per_s)s "
        "tokens/s per user: fewer sequences per GPU (more GPUs) or lighter weights would reach it."
    ),
    NoteCode.tp_over_pcie: N_(
        "%(gpu)s has no NVLink: tensor parallelism runs over PCIe, so decoding is slower than on "
        "NVLink GPUs — or serve one replica per GPU if the model fits."
    ),
    NoteCode.concurrency_limited: N_(
        "Only ≈ %(max_concurrency)s of the %(concurrency)s requested sequences fit at this context: "
        "add GPUs, shorten the context or use an fp8 KV cache."
    ),
    NoteCode.throughput_short: N_(
        "At the load these GPUs hold they decode ≈ %(tokens_per_s)s tokens/s, short of the "
        "%(target_tokens_per_s)s asked: about %(replicas)s copies of %(per_copy)s GPUs each (%(gpus)s GPUs) "
        "reach it."
    ),
    NoteCode.throughput_copies: N_(
        "The %(concurrency)s sequences fit on %(load_gpus)s GPUs, which decode ≈ %(tokens_per_s)s tokens/s."
    ),
    NoteCode.no_price: N_(
        "No rental price on file for %(gpu)s in %(currency)s: cost not estimated. Give your price per "
        "GPU-hour (e.g. “%(gpu)s at 2 %(currency)s per GPU-hour”) and the cost is worked out."
    ),  # s39 fixw #4: which card lacks a price, and how to give one
    NoteCode.pp_bubble: N_(
        "Pipeline bubble: with PP %(pp)s and %(micro_batches)s micro-batches per step, idle stages add "
        "about %(bubble)s to the compute time ((PP − 1) / micro-batches, Narayanan et al. 2021 §2.2): a "
        "larger global batch or interleaved stages shrink it."
    ),
    NoteCode.fp8_not_supported: N_("%(gpu)s has no FP8 tensor cores: the time is for bf16 training."),
    NoteCode.fp8_weights_unsupported: N_(
        "FP8 does not run on %(gpu)s (no FP8 tensor cores, and vLLM's weight-only FP8 Marlin kernel needs "
        "compute capability 8.0+): sized in 16-bit weights; INT8 (W8A8) or INT4 weights are the smaller "
        "formats there."
    ),
    NoteCode.fp8_serving_16bit: N_(
        "%(gpu)s has no FP8 tensor cores: the FP8 weights are sized at 1 byte each, but the speed is "
        "timed at its bf16 peak (weight-only FP8, dequantized to 16-bit as it computes)."
    ),
    NoteCode.measured_mfu_unusual: N_(
        "Your %(tflops)s TFLOPS per GPU is an MFU of %(mfu)s — published runs reach 20–55 %%: is it per GPU "
        "(not per node or for the cluster), and model FLOPs (%(k)s·N per token)? The time uses it as given."
    ),
    NoteCode.int8_not_supported: N_(
        "%(gpu)s has no INT8 tensor-core peak in my catalog: int8 training is timed as bf16 training."
    ),
    NoteCode.int8_kv_as_fp8: N_(
        "%(runtime)s has no int8 KV cache (its --kv-cache-dtype is auto or fp8): the cache is sized at "
        "1 byte a value and run as fp8, the same size; LMDeploy (--quant-policy 8) runs an int8 one."
    ),
    NoteCode.fp8_no_faster: N_(
        "%(gpu)s's FP8 peak is no higher than its BF16 peak: FP8 would not shorten the run by a figure I "
        "can source, so the time is for bf16 training."
    ),
} | SERVING_BUDGET_MESSAGES  # a serving budget's verdicts (bot.render.serving_budget_text)
NOTE_FALLBACK = N_("Note: %(code)s %(details)s")


STATED_ALTERNATIVES = frozenset({"zero3", "full_recompute", "searched_layout", "other_stack"})
STATED_ALTERNATIVES |= {"sharding_stack"}  # ZeRO-3 in another stack, for a tool that never shards (s34)
"""Alternatives to a setting the user chose: shown with their memory per GPU, first."""
MAX_ALTERNATIVES = 4
MIN_CHART_BYTES = 0.05 * 2**30  # breakdown parts below this (0.0 GiB as shown) are left out of the chart

PERCENT_KEYS = {  # fractions shown as percentages; below: counts shown exactly, sizes as model sizes
    "mfu", "ratio", "gpu_memory_utilization", "rollout_gpu_memory_utilization", "utilization", "held_out",
    "all_runs", "loo_coverage", "bubble", "prefill_share", "decode_share", "prefill_mfu",
}  # fmt: skip
TOKEN_KEYS = {"tokens", "chinchilla_tokens", "num_samples"}
PARAM_KEYS = {"params_active", "params_total", "vision_params"}
COUNT_KEYS = {
    "window", "tokens_per_s", "target_tokens_per_s", "replicas", "per_copy", "free_gpus", "length",
    "gpu_hours", "gpus", "gpu_count", "min_gpus", "gpus_searched", "tp", "pp", "tokens_per_sample",
    "max_concurrency", "kv_tokens", "max_model_len", "seq_len", "context", "concurrency", "micro_batches",
    "micro_batch", "batch_size", "global_batch", "adjusted", "gradient_accumulation", "dp", "lora_rank",
    "epochs", "layers", "hidden", "heads", "kv_heads", "experts", "experts_top_k", "tried_low", "next_gpus",
    "draft_vocab", "target_vocab", "mm_items", "mm_item_tokens", "mm_patches",
}  # fmt: skip

SINGULAR_NOTE_MESSAGES = {
    NoteCode.does_not_fit_requested: N_("It does not fit on one GPU: at least %(min_gpus)s are needed."),
    NoteCode.recompute_chosen: N_(
        "The plan switches on full recompute (gradient checkpointing) to fit with headroom: "
        "≈ %(per_gpu_gib)s per GPU with it, ≈ %(without_gib)s without it on one GPU."
    ),
}
"""English needs a singular for a count of one (Chinese reads the same either way)."""
NO_FIT_STATED_BARE = N_(
    "With your settings, no number of these GPUs fits (up to %(gpus_searched)s): what your ZeRO stage "
    "does not shard, or your recompute mode keeps, is on every GPU."
)
"""'no_fit_stated' when the reply has no alternatives section to point to (no other option fits either)."""
SAMPLES_TO_TOKENS_EPOCHS = N_(
    "Data converted to tokens: %(num_samples)s samples × %(tokens_per_sample)s tokens × %(epochs)s "
    "epochs = %(tokens)s tokens."
)
"""'samples_to_tokens' when the data is read more than once."""
PAIRS_TO_TOKENS_EPOCHS = N_(
    "Data converted to tokens: %(num_samples)s pairs × 2 sequences (chosen and rejected) × "
    "%(tokens_per_sample)s tokens × %(epochs)s epochs = %(tokens)s tokens."
)
"""'pairs_to_tokens' when the data is read more than once."""
PARAM_NOTE_MESSAGES = {
    (NoteCode.concurrency_limited, "kv_fp8"): N_(
        "Only ≈ %(max_concurrency)s of the %(concurrency)s requested sequences fit at this context, with "
        "the fp8 KV cache already: add GPUs or shorten the context."
    ),
    (NoteCode.concurrency_limited_assumed, "kv_fp8"): N_(
        "Only ≈ %(max_concurrency)s sequences fit at this context (I assumed %(concurrency)s), with the "
        "fp8 KV cache already: add GPUs or shorten the context."
    ),
    (NoteCode.within_budget, "cost_high_band"): N_(
        "Within budget at the likely speed: %(cost_low)s – %(cost_high)s of your %(budget)s; a slower run "
        "(the low end of the MFU range) could cost up to %(cost_high_band)s."
    ),
}
"""A note's wording when it carries the extra parameter named (same code, so the JSON contract keeps it)."""

MONEY_KEYS = {"budget", "cost_low", "cost_high", "cost_high_band", "max_price", "per_month"} | EXTRA_MONEY
FLOPS_KEYS = {"flops"}
"""Note parameters that are a FLOP count (a compute budget C), shown as ``1×10²³`` (bot.render.fmt.sci)."""
BUDGET_VERDICTS = {
    NoteCode.over_budget,
    NoteCode.within_budget,
    NoteCode.budget_borderline,
    NoteCode.budget_no_price,
    NoteCode.budget_max_params,
    NoteCode.compute_budget_optimal,
    NoteCode.compute_budget_tokens,
    NoteCode.deadline_missed,
    NoteCode.deadline_missed_hours,
    NoteCode.tokens_assumed_chinchilla,  # the headline's tokens were assumed: said right under it
} | EXTRA_VERDICTS  # the serving budget's and a budget per hour's
"""Shown right under the headline: they answer "is my budget enough?"."""
TOTAL_MEMORY_VERDICTS = {
    NoteCode.total_memory_yes, NoteCode.total_memory_borderline, NoteCode.total_memory_no,
}  # fmt: skip
"""Shown first: they answer "is my total GPU memory enough?" before the cards it would take."""

BORDERLINE_REASONS = {
    "tight": N_("Borderline: %(share)s of each card — allocation spikes can still run out of memory."),
    "offload": N_(
        "Borderline: it relies on CPU offload — about %(host)s of host RAM per node for the "
        "optimizer states, and slower steps (%(slower)s in the time above)."
    ),
    "sharded_4bit_base": N_(
        "Borderline: the 4-bit base does not fit on one card and must be sharded "
        "(FSDP-QLoRA / ZeRO-3) — works with recent PEFT and bitsandbytes, but is fiddly."
    ),
    "range_upper_end": N_("Borderline: only at the upper end of the GPU range you gave."),
    "recompute_unstated": N_(
        "Borderline: it fits only with gradient checkpointing on, which the Hugging Face Trainer, axolotl "
        "and plain PyTorch leave off by default: set gradient_checkpointing=True."
    ),
}

PRECISION_LABELS = {"fp8": "FP8/INT8", "int4": "INT4 (GPTQ/AWQ)"}
SERVING_VERDICTS = {  # by verdict, or by the reason of a borderline one
    "fp8_only": N_("only with FP8 weights (bf16 does not fit) — standard on this GPU, check quality"),
    "full_memory": N_(
        "fits only if the engine may use nearly all GPU memory (gpu_memory_utilization above 0.9) "
        "and contexts stay short"
    ),
    "local_4bit": N_("only with 4-bit weights (Q4_K_M): 8-bit and 16-bit don't fit — check quality"),
    "flash_unstated": N_("fits with flash attention (-fa, the default since build b6327); without it, tight"),
    "flash_unstated_ollama": N_(
        "fits with flash attention (set OLLAMA_FLASH_ATTENTION=1); without it, Ollama's default for this "
        "model, tight"
    ),
    "range_upper_end": N_("only at the upper end of the GPU range you gave"),
    "yes": N_("fits"),
    "borderline": N_("fits, but tight: little room left for the KV cache"),
    "no": N_("does not fit at the requested load"),
}
