"""Wording of notes kept apart from :mod:`bot.render.wording` (which merges them into its NOTE_MESSAGES)
to keep that module within the 500-line limit: the RL rollout engine's (estimator.rollout) and the
machines the user stated (estimator.resolve)."""

from __future__ import annotations

from bot.render.i18n import N_
from bot.render.note_codes import NoteCode
from bot.render.serving_budget_text import SERVING_BUDGET_MESSAGES

EXTRA_NOTE_MESSAGES: dict[NoteCode, str] = {
    # verl's data.train_batch_size counts prompts, each with rollout.n responses (trial s30 #2)
    NoteCode.global_batch_prompts: N_(
        "The batch counts prompts: %(prompts)s prompts × %(responses)s responses = %(sequences)s sequences a "
        "step."
    ),
    # OpenRLHF's --rollout_batch_size counts prompts, --train_batch_size responses (s32 left item 1)
    NoteCode.rollout_batch_prompts: N_(
        "The rollout batch counts prompts (OpenRLHF's --rollout_batch_size): %(prompts)s prompts × "
        "%(responses)s samples each (--n_samples_per_prompt) = %(sequences)s responses a rollout, decoded "
        "up to vLLM's max_num_seqs at once per engine."
    ),
    NoteCode.rollout_batch_steps: N_(
        "The rollout batch counts prompts (OpenRLHF's --rollout_batch_size): %(prompts)s prompts × "
        "%(responses)s samples each (--n_samples_per_prompt) = %(sequences)s responses a rollout, decoded "
        "up to vLLM's max_num_seqs at once per engine; the training batch counts responses "
        "(--train_batch_size): %(train_batch)s a step, "
        "%(steps)s steps a rollout."
    ),
    NoteCode.ddp_does_not_fit: N_(
        "Without a deepspeed / fsdp setting, %(tool)s runs plain DDP: every GPU holds the whole "
        "model states, ≈ %(ddp_gib)s per GPU of %(usable_gib)s — it does not fit. With ZeRO-%(stage)s "
        "(a deepspeed / fsdp config) it fits at ≈ %(per_gpu_gib)s per GPU."
    ),
    # a tool that keeps the whole model on each GPU (Unsloth) and no one GPU holds it (s34)
    NoteCode.no_fit_tool_no_sharding: N_(
        "No number of these GPUs fits as you run it: Unsloth keeps the whole model on each GPU (one GPU, or "
        "a DDP copy on each) and does not shard it with ZeRO-3 or FSDP. A stack that shards the model "
        "(HF Trainer + DeepSpeed ZeRO-3, LLaMA-Factory with DeepSpeed or FSDP) would: see “What would "
        "change the answer”."
    ),
    # TRL GRPOConfig: generation_batch_size % num_generations must be 0 (estimator.grpo_batch; s34)
    NoteCode.grpo_batch_not_divisible: N_(
        "TRL stops before training: a step of %(batch)s completions (per-device batch × GPUs × accumulation) "
        'is not a multiple of num_generations %(num_generations)s — GRPOConfig raises "generation_batch_size '
        'must be divisible by num_generations". Use a step of %(next_batch)s (or a num_generations that '
        "divides %(batch)s)."
    ),
    NoteCode.tried_counts_failed: N_(
        "You said %(tried_low)s and %(gpu_count)s GPUs ran out of memory; the estimate agrees: ≈ "
        "%(per_gpu_gib)s per GPU on %(gpu_count)s, more than the %(usable_gib)s each card holds."
    ),
    NoteCode.tried_counts_failed_fit: N_(
        "⚠️ You said %(tried_low)s and %(gpu_count)s GPUs ran out of memory, but the estimate puts "
        "%(gpu_count)s at ≈ %(per_gpu_gib)s per GPU, within the %(usable_gib)s each card holds: your run "
        "disagrees with it (check the micro-batch, sequence length and ZeRO stage the run really used). "
        "Sized at %(next_gpus)s GPUs, the fewest above what failed."
    ),
    NoteCode.count_failed: N_(
        "You said %(gpu_count)s GPUs ran out of memory; the estimate agrees: ≈ %(per_gpu_gib)s per GPU on "
        "%(gpu_count)s, more than the %(usable_gib)s each card holds."
    ),
    NoteCode.count_failed_fit: N_(
        "⚠️ You said %(gpu_count)s GPUs ran out of memory, but the estimate puts %(gpu_count)s at ≈ "
        "%(per_gpu_gib)s per GPU, within the %(usable_gib)s each card holds: your run disagrees with it "
        "(check the micro-batch, sequence length and ZeRO stage the run really used). Sized at %(next_gpus)s "
        "GPUs, the fewest above what failed."
    ),
    NoteCode.count_failed_edge: N_(
        "You said %(gpu_count)s GPUs ran out of memory; that matches the high end of the estimate: ≈ "
        "%(per_gpu_gib)s per GPU on %(gpu_count)s is likely, but up to %(high_gib)s, more than the "
        "%(usable_gib)s each card holds, so %(gpu_count)s was borderline. Sized at %(next_gpus)s GPUs, the "
        "fewest above what failed."
    ),
    NoteCode.tried_counts_failed_edge: N_(
        "You said %(tried_low)s and %(gpu_count)s GPUs ran out of memory; that matches the high end of the "
        "estimate: ≈ %(per_gpu_gib)s per GPU on %(gpu_count)s is likely, but up to %(high_gib)s, more than "
        "the %(usable_gib)s each card holds, so %(gpu_count)s was borderline. Sized at %(next_gpus)s GPUs, "
        "the fewest above what failed."
    ),
    NoteCode.prefill_short: N_(
        "Prefill is the limit: %(rate)s requests/s × %(prompt)s prompt tokens = %(prefill_tokens_per_s)s "
        "prompt tokens/s to prefill, but these GPUs prefill ≈ %(prefill_capacity)s tokens/s (compute-bound, "
        "2 × parameters FLOPs a token), before any decoding; about %(replicas)s copies of %(per_copy)s GPUs "
        "each (%(gpus)s GPUs) prefill it."
    ),
    NoteCode.prefill_short_assumed: N_(
        "Prefill is the limit: %(target_tokens_per_s)s tokens/s ÷ %(output)s output tokens a request "
        "(assumed: the last quarter of the context; say your output length) = %(rate)s requests/s × "
        "%(prompt)s prompt tokens = %(prefill_tokens_per_s)s prompt tokens/s to prefill, but these GPUs "
        "prefill ≈ %(prefill_capacity)s tokens/s (compute-bound, 2 × parameters FLOPs a token), before any "
        "decoding; about %(replicas)s copies of %(per_copy)s GPUs each (%(gpus)s GPUs) prefill it."
    ),
    NoteCode.prefill_decode_share: N_(
        "Prefill and decode share the GPUs (chunked prefill runs both in the same steps): on "
        "%(load_gpus)s GPUs the %(prefill_tokens_per_s)s prompt tokens/s take %(prefill_share)s of each "
        "second (compute-bound, 2 × parameters FLOPs a token at the prefill MFU 67.5 %% fitted on MLPerf "
        "Inference v4.1) and decoding %(target_tokens_per_s)s tokens/s takes %(decode_share)s: more than "
        "the whole second, so sized at %(replicas)s copies of %(per_copy)s GPUs (%(gpus)s GPUs)."
    ),
    NoteCode.prefill_decode_share_assumed: N_(
        "Prefill and decode share the GPUs (chunked prefill runs both in the same steps). With no prompt "
        "length given, each request is assumed to be %(prompt)s prompt tokens and %(output)s output tokens "
        "(say yours): on %(load_gpus)s GPUs the %(prefill_tokens_per_s)s prompt tokens/s take "
        "%(prefill_share)s of each second and decoding %(target_tokens_per_s)s tokens/s takes "
        "%(decode_share)s: more than the whole second, so sized at %(replicas)s copies of %(per_copy)s GPUs "
        "(%(gpus)s GPUs)."
    ),
    NoteCode.prefill_decode_short: N_(
        "Prefill and decode share these %(load_gpus)s GPUs (chunked prefill runs both in the same steps): "
        "the %(prefill_tokens_per_s)s prompt tokens/s take %(prefill_share)s of each second (compute-bound, "
        "2 × parameters FLOPs a token) and decoding %(target_tokens_per_s)s tokens/s takes "
        "%(decode_share)s: more than the whole second, and prefill is the larger part. About %(replicas)s "
        "copies of %(per_copy)s GPUs each (%(gpus)s GPUs) do both."
    ),
    NoteCode.steps_past_deadline: N_(
        "With the steps fixed, more GPUs train more samples in about the same time: ≈ %(hours)s hours at "
        "best (%(gpus)s GPUs), past your %(deadline)s hours. Fewer steps (max_steps) or shorter sequences "
        "meet it."
    ),
    NoteCode.serving_count_failed: N_(
        "You said serving ran out of memory on %(gpu_count)s GPUs; the estimate agrees: the weights and "
        "workspace take ≈ %(weights_gib)s of the %(usable_gib)s usable per GPU, too little left for one "
        "sequence of %(context)s tokens. Sized at %(next_gpus)s GPUs."
    ),
    NoteCode.serving_count_failed_fit: N_(
        "⚠️ You said serving ran out of memory on %(gpu_count)s GPUs, but the estimate fits there: the "
        "weights and workspace take ≈ %(weights_gib)s of the %(usable_gib)s usable per GPU, leaving KV cache "
        "for ≈ %(kv_tokens)s tokens (%(max_concurrency)s sequences of %(context)s). Check the context "
        "%(runtime)s reserves for (%(window_key)s) and the memory it takes (%(share_key)s). Sized at "
        "%(next_gpus)s GPUs, the fewest above what failed."
    ),
    NoteCode.serving_count_failed_edge: N_(
        "You said serving ran out of memory on %(gpu_count)s GPUs; that matches the estimate without flash "
        "attention: with it the weights and workspace take ≈ %(weights_gib)s of the %(usable_gib)s usable "
        "per GPU, and a llama.cpp build without it (before b6327, or -fa off) adds ≈ %(scores_bytes)s of "
        "attention scores per GPU at %(context)s tokens, leaving under 10 %% of the card, so %(gpu_count)s "
        "was borderline. Sized at %(next_gpus)s GPUs, the fewest above what failed."
    ),
    NoteCode.serving_count_failed_share: N_(
        "You said serving ran out of memory on %(gpu_count)s GPUs; that matches the estimate for the "
        "lmdeploy release you named: its KV cache is a share of each card's total memory, which does not "
        "fit beside the ≈ %(weights_gib)s of weights and workspace per GPU (see the note below). Sized at "
        "%(next_gpus)s GPUs, the fewest above what failed."
    ),
    # estimator.serving_verdict.flash_unstated: llama.cpp / Ollama, flash attention not stated (s33)
    NoteCode.flash_unstated: N_(
        "Flash attention is llama.cpp's default since build b6327 (August 2025); an older build, -fa off, or "
        "Ollama without OLLAMA_FLASH_ATTENTION=1 also keeps one layer's attention scores in each GPU's "
        "compute buffer, ≈ %(scores_bytes)s at %(context)s tokens, and then leaves under 10 %% of the card: "
        "pass -fa on (or update llama.cpp)."
    ),
    # Ollama's switch is an environment variable, on by default for a few families only (s33 fix A)
    NoteCode.flash_unstated_ollama: N_(
        "Ollama turns flash attention on by itself only for some model families (Qwen3, Gemma 3, gpt-oss …), "
        "not this one: without it each GPU's compute buffer also keeps one layer's attention scores, "
        "≈ %(scores_bytes)s at %(context)s tokens, and then leaves under 10 %% of the card: set "
        "OLLAMA_FLASH_ATTENTION=1 where ollama serve runs."
    ),
    # estimator.serving_verdict.cuda_graphs_outside: vLLM's CUDA graphs beside gpu_memory_utilization (s34)
    NoteCode.cuda_graphs_outside: N_(
        "vLLM before v0.21 captures CUDA graphs after it has allocated the KV cache, outside "
        "gpu_memory_utilization: logged runs put them at %(low_bytes)s (typical) to %(high_bytes)s per GPU, "
        "and what the utilization leaves beside the CUDA context is ≈ %(room_bytes)s per GPU, so start-up "
        "can run out of memory while it captures them: lower --gpu-memory-utilization or pass "
        "--enforce-eager (no graphs, slower decoding). v0.21 and later count them inside the share; the "
        "release was not stated or is older."
    ),
    # estimator.lmdeploy_release.total_share_verdict: lmdeploy before v0.2.2, KV share of the total (s42)
    NoteCode.lmdeploy_total_share: N_(
        "lmdeploy %(release)s takes --cache-max-entry-count (%(share)s) as a share of the card's total "
        "memory, not of what the weights leave free (until v0.2.2), and allocates it at start-up: "
        "%(kv_bytes)s of KV cache per GPU beside %(beside_bytes)s of weights, CUDA context and prefill "
        "workspace is more than the %(total_bytes)s the card has. Set cache_max_entry_count to "
        "%(largest_share)s or less, or upgrade lmdeploy (v0.2.2 and later take the share of the free memory)."
    ),
    # bot.core.failed_serving._older_lmdeploy: an OOM the estimate disagrees with, no release stated (s42)
    NoteCode.lmdeploy_share_unstated: N_(
        "lmdeploy v0.2.0 and v0.2.1 (January 2024) took --cache-max-entry-count (default %(share)s) as a "
        "share of the card's total memory, not of what the weights leave free, and allocated it at "
        "start-up: %(kv_bytes)s of KV cache per GPU beside %(beside_bytes)s of weights, CUDA context and "
        "prefill workspace is more than the %(total_bytes)s here. If yours is one of those (pip show "
        "lmdeploy), set cache_max_entry_count to %(largest_share)s or less, or upgrade to v0.2.2 or later."
    ),
    # estimator.tgi_release.no_headroom_verdict: a stated TGI v0.9.4–v1.4.0 (s43)
    NoteCode.tgi_no_headroom: N_(
        "TGI %(release)s gives the KV cache all the memory free at its warm-up's peak and keeps none back "
        "(v0.9.4 to v1.4.0; v1.4.1 keeps 5 %%) and ignores --max-batch-total-tokens for flash-attention "
        "models: a request that allocates anything the warm-up did not can run out of memory. Set "
        "--cuda-memory-fraction 0.9 or upgrade TGI."
    ),
    # bot.core.failed_serving._older_tgi: an OOM the estimate disagrees with, no TGI release stated (s43)
    NoteCode.tgi_headroom_unstated: N_(
        "TGI v0.9.4 to v1.4.0 (July 2023 to February 2024) gave the KV cache all the memory free at the "
        "warm-up's peak, kept none back, and ignored --max-batch-total-tokens for flash-attention models: a "
        "request that allocated anything the warm-up did not ran out of memory. If yours is one of those, "
        "set --cuda-memory-fraction 0.9 or upgrade TGI (v1.4.1 and later keep memory back)."
    ),
    NoteCode.own_card_cost: N_(
        "%(gpu)s is your own card: there is no rental to price, and the power it draws is not modelled; "
        "the GPU-hours above are what the run takes."
    ),
    NoteCode.own_card_energy: N_(
        "%(gpu)s is your own card: there is no rental to price. Power: at its board power of %(watts)s W "
        "(NVIDIA's specification) the run draws at most ≈ %(kwh_low)s–%(kwh_high)s kWh (board power × the "
        "GPU-hours above); multiply by your electricity tariff. The rest of the PC is not counted."
    ),
    NoteCode.host_ram_short: N_(
        "⚠️ Host RAM too small for this plan: its CPU offload needs ≈ %(needed_bytes)s per machine and your "
        "%(stated_gib)s is %(short_bytes)s short — the run fails when the offloaded states are allocated."
    ),
    NoteCode.own_cards_option: N_(
        "With the %(context)s context this model is otherwise given (see the assumptions), it needs "
        "%(gpus)s × %(gpu)s: ≈ %(speed)s tokens/s for one sequence there."
    ),
    NoteCode.machines_as_stated: N_(
        "Laid out on your machines of %(gpus_per_node)s GPUs, not the %(catalog_per_node)s-GPU nodes of "
        "%(gpu)s servers: tensor parallelism stays inside one machine, and data or pipeline parallelism "
        "spans the machines over their network."
    ),
    NoteCode.rollout_tp_too_small: N_(
        "The rollout engine's TP %(tp)s does not hold the model: ≈ %(per_gpu_bytes)s per GPU for its share "
        "of the 16-bit weights and of one sequence's KV cache, more than the %(usable_bytes)s vLLM may use "
        "of each %(gpu)s (gpu_memory_utilization %(share)s), so the engine would not start. TP "
        "%(fits_tp)s holds them; any rollout time here is for it."
    ),
    NoteCode.rollout_colocated: N_(
        "vLLM colocated (vllm_mode colocate) shares the training GPUs: vllm_gpu_memory_utilization "
        "%(share)s takes %(engine_gib)s of each %(gpu)s, so training has %(left_gib)s of its %(total_gib)s; "
        "the memory per GPU and the verdict here count both."
    ),
    NoteCode.rollout_sleep_mode: N_(
        "vLLM colocated with sleep mode on (vllm_enable_sleep_mode): TRL offloads its weights and KV cache "
        "during the training step, so its %(share)s of each %(gpu)s (%(engine_gib)s) is not taken from "
        "training; waking it each step adds host-device transfer time."
    ),
    NoteCode.trainer_generate_assumed: N_(
        "No rollout engine named: generation is sized as TRL's GRPOTrainer runs it by default (use_vllm "
        "False: model.generate on each training GPU, its KV cache and, with sharded weights, their gathered "
        "copy counted above). With vLLM colocated (vllm_mode colocate) it would take "
        "vllm_gpu_memory_utilization %(share)s of each %(gpu)s, %(engine_gib)s, from training; in server "
        "mode (trl vllm-serve) it runs on GPUs of its own, on top of these."
    ),
    NoteCode.trainer_generate_assumed_ppo: N_(
        "No rollout engine named: generation is sized as TRL's PPOTrainer runs it (model.generate on each "
        "training GPU, its KV cache and, with sharded weights, their gathered copy counted above; it has no "
        "vLLM option). A separate vLLM rollout engine (OpenRLHF, verl) takes memory of its own."
    ),
    NoteCode.rollout_verl_not_modelled: N_(
        "verl's rollout engine (vLLM/SGLang) shares these GPUs: while it generates it takes "
        "actor_rollout_ref.rollout.gpu_memory_utilization 0.5 of each %(gpu)s, then frees its KV cache for "
        "the training step (free_cache_engine: True). The memory here is the training step's; the "
        "generation phase's is not modelled."
    ),
    NoteCode.rollout_openrlhf_apart: N_(
        "OpenRLHF runs its vLLM engines (--vllm.num_engines × --vllm.tensor_parallel_size GPUs, "
        "gpu_memory_utilization 0.95) on GPUs of their own unless --train.colocate_all: they are not "
        "counted in the %(gpu)s memory here; add them to the count."
    ),
    NoteCode.rollout_server: N_(
        "vllm_mode server: the rollouts run on a vLLM server of its own (trl vllm-serve), on GPUs apart "
        "from the %(gpu_count)s training GPUs sized here: count its GPUs on top of them."
    ),
    NoteCode.pipeline_never_fits: N_(
        "No pipeline of these GPUs holds the model: even %(pp)s stages of TP %(tp)s, one layer each, leave "
        "no room for it once each stage's own reserve is taken. Choose a card with more memory or lighter "
        "weights (FP8, int4)."
    ),
    NoteCode.dp_attention_never_fits: N_(
        "With data-parallel attention no number of %(gpu)s cards holds the model: the engine keeps more of "
        "each card the larger the group, so adding cards adds no room. Without it (each tensor-parallel "
        "rank keeping the whole MLA latent cache) the fewest that hold it are %(min_gpus)s."
    ),
    NoteCode.hourly_budget: N_(
        "Your %(budget)s an hour rents %(gpus_low)s – %(gpus_high)s GPUs at once at %(price_low)s – "
        "%(price_high)s per GPU-hour: on them the run's %(gpu_hours)s GPU-hours take about %(hours_low)s – "
        "%(hours_high)s hours, if it scales to that many GPUs."
    ),
    NoteCode.hourly_budget_short: N_(
        "Your %(budget)s an hour does not rent one GPU at %(price_low)s – %(price_high)s per GPU-hour."
    ),
    NoteCode.daily_budget: N_(
        "Your %(budget)s a day rents %(gpus_low)s – %(gpus_high)s GPUs around the clock at %(price_low)s – "
        "%(price_high)s per GPU-hour: on them the run's %(gpu_hours)s GPU-hours take about %(hours_low)s – "
        "%(hours_high)s hours, if it scales to that many GPUs."
    ),
    NoteCode.daily_budget_short: N_(
        "Your %(budget)s a day does not rent one GPU around the clock at %(price_low)s – %(price_high)s per "
        "GPU-hour."
    ),
    NoteCode.hourly_budget_few: N_(
        "Your %(budget)s an hour rents at most %(gpus_high)s GPUs at once at %(price_low)s – %(price_high)s "
        "per GPU-hour: fewer than the %(min_gpus)s that hold the model."
    ),
    NoteCode.daily_budget_few: N_(
        "Your %(budget)s a day rents at most %(gpus_high)s GPUs around the clock at %(price_low)s – "
        "%(price_high)s per GPU-hour: fewer than the %(min_gpus)s that hold the model."
    ),
    NoteCode.runtime_unsupported_gpu: N_(
        "%(runtime)s does not run on %(gpu)s: it needs compute capability 7.0 or higher (V100, T4, RTX 20xx "
        "and newer; vLLM's installation requirements), and %(generation)s cards are below it. The memory "
        "above is what the model needs, whichever engine runs it."
    ),
    NoteCode.price_other_variant: N_(
        "No public price list on file gives %(gpu)s its own rate in this currency: the cost uses the "
        "range quoted for %(priced)s."
    ),
    NoteCode.price_other_currency: N_(
        "No rental price on file for %(gpu)s in %(currency)s: the cost is in %(priced)s, from the %(priced)s "
        "price list on file (source under Assumptions), not converted."
    ),
    NoteCode.rope_scaling_needed: N_(
        "%(model)s runs %(window)s tokens natively: %(length)s tokens need %(method)s RoPE scaling "
        "(factor %(factor)s, documented up to %(extended)s tokens), which is off by default — %(how)s. "
        "Sized at %(length)s tokens as asked."
    ),
    NoteCode.later_version_window: N_(
        "%(later)s, the same size and shape, was released for %(window)s tokens: for %(length)s tokens run "
        "that version — the memory and time above are the same for it."
    ),
    NoteCode.release_config_windows: N_(
        "vLLM checks the max_model_len against the config.json of the release it loads: the Instruct "
        "release's says %(window)s tokens, so it refuses %(length)s there unless RoPE scaling is set or "
        "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1; the base release's says %(max_model_len)s, so it starts as typed."
    ),
    NoteCode.time_bound_padded: N_(
        "The time counts every sample at %(length)s tokens, the most you allow: an upper bound. Without "
        "packing each batch is padded to its own longest sample, not to %(length)s, so shorter samples "
        "train faster — give their average length for a closer time. The "
        "memory is sized at %(length)s, the longest a batch can be."
    ),
    NoteCode.time_bound_packed: N_(
        "Packing joins the samples into %(length)s-token sequences: the time counts every sample at "
        "%(length)s tokens, right when they fill it and an upper bound when they are shorter — give their "
        "average length for a closer time."
    ),
}
"""Notes on the machines, the rollout engine's layout, a serving pipeline that never fits, and a
training budget per hour or per day (a rate: estimator.budget_check.hourly_budget)."""
EXTRA_VERDICTS = {NoteCode.hourly_budget, NoteCode.hourly_budget_short, NoteCode.daily_budget}
EXTRA_VERDICTS |= {NoteCode.daily_budget_short} | set(SERVING_BUDGET_MESSAGES)
EXTRA_VERDICTS |= {NoteCode.hourly_budget_few, NoteCode.daily_budget_few}
EXTRA_VERDICTS |= {NoteCode.host_ram_short}  # the stated host RAM does not hold the plan's CPU offload
EXTRA_VERDICTS |= {NoteCode.tried_counts_failed, NoteCode.tried_counts_failed_fit}  # bot.core.failed_counts
EXTRA_VERDICTS |= {NoteCode.count_failed, NoteCode.count_failed_fit}  # one count failed (s18)
EXTRA_VERDICTS |= {NoteCode.serving_count_failed, NoteCode.serving_count_failed_fit}  # failed_serving
EXTRA_VERDICTS |= {NoteCode.serving_count_failed_edge}  # llama.cpp: fits only with flash attention (s33)
EXTRA_VERDICTS |= {NoteCode.serving_count_failed_share}  # lmdeploy before v0.2.2 (s42)
EXTRA_VERDICTS |= {NoteCode.count_failed_edge, NoteCode.tried_counts_failed_edge}  # borderline there (s19)
"""Budget verdicts shown right under the headline (merged into bot.render.wording.BUDGET_VERDICTS)."""
EXTRA_NOTE_MESSAGES[NoteCode.budget_epochs] = N_(  # 'how many epochs?' with a budget (s43 q11_zh)
    "Epochs your budget pays for: %(epochs_low)s – %(epochs_high)s (%(budget)s ÷ %(epoch_cost_low)s – "
    "%(epoch_cost_high)s an epoch, whole epochs)."
)  # estimator.budget_check.budget_epochs: ⌊budget ÷ an epoch's cost⌋ at the high and the low price
EXTRA_VERDICTS |= {NoteCode.budget_epochs}  # beside the budget's verdict, under the headline
EXTRA_MONEY = {"price_low", "price_high", "price_cap", "epoch_cost_low", "epoch_cost_high"}
"""Note parameters that are money (merged into bot.render.wording.MONEY_KEYS)."""

EXTRA_FIELD_LABELS: dict[str, str] = {
    "expert_parallel": N_("Expert-parallel size"),  # s47 trialfix #6: 'EP=4' named (bot.parse.expert_degree)
    "rollout_completions_per_gpu": N_("Rollout completions per GPU"),
    "generation_context": N_("Tokens per generated sequence"),
    "rollout_gpu_memory_utilization": N_("Rollout engine's GPU share"),
    "recompute_time_fewest": N_("Full recomputation on the fewest GPUs"),
    "offload_time": N_("CPU offload"),
    "host_ram_bytes": N_("Host RAM per machine (CPU offload)"),
    "ollama_num_parallel": N_("Ollama's parallel slots (OLLAMA_NUM_PARALLEL)"),
    "hours_per_day": N_("Hours a day the GPUs run"),
    "rollout_prompts_per_step": N_("Rollout prompts per step"),
    "enforce_eager": N_("vLLM eager mode (--enforce-eager)"),
    "vllm_version": N_("vLLM release"),
    "lmdeploy_version": N_("lmdeploy release"),
    "tgi_version": N_("TGI release"),
    "chunked_hybrid_kv": N_("vLLM's per-chunk KV (VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE)"),
    "hybrid_kvcache_ratio": N_("SGLang's --hybrid-kvcache-ratio"),
    "draft_model": N_("draft model"),
    "target_tokens_per_s": N_("Output tokens/s needed"),
    "tokens_per_request": N_("Tokens per request"),
}
"""Assumption labels merged into :data:`bot.render.field_labels.FIELD_LABELS` (its 500-line limit)."""
SERVING_VERDICTS_EXTRA: dict[str, str] = {
    # the 16-bit weights fit; one sequence's KV cache / the workspace beside them does not (s43 fixans #3)
    "fp8_only_kv": N_(
        "only with FP8 weights (the bf16 weights fit, but not with one sequence's KV cache at this context) "
        "— standard on this GPU, check quality"
    ),
    "fp8_only_workspace": N_(
        "only with FP8 weights (the bf16 weights fit, but not with the engine's workspace) — standard on "
        "this GPU, check quality"
    ),
    "lmdeploy_total_share": N_(
        "does not fit: this lmdeploy release gives the KV cache a share of the card's total memory"
    ),
    "cuda_graphs_outside": N_(
        "fits, but vLLM's CUDA graphs may not fit beside it (outside gpu_memory_utilization)"
    ),
    "tgi_no_headroom": N_("fits, but this TGI release keeps no memory back beyond its warm-up"),
    "local_4bit_excluded": N_(
        "16-bit weights don't fit; without 8-bit, as you asked, only with 4-bit weights (Q4_K_M) — check "
        "quality"
    ),
}
"""Serving verdicts by reason merged into :data:`bot.render.wording.SERVING_VERDICTS` where rendered."""
SCHEDULED_MONTH = N_("%(money)s (rented %(hours)s hours a day)")
"""A serving month's cost on a stated daily schedule (estimator.serving_schedule)."""
OFFLOAD_UNTIMED = N_(
    "Borderline: it relies on CPU offload — about %(host)s of host RAM per node for the optimizer "
    "states, and slower steps (give the data size to have the time with it)."
)
"""The offload verdict when no time is sized (:data:`bot.render.wording.BORDERLINE_REASONS` 'offload')."""
OFFLOAD_PARAMS = N_(
    "Borderline: it relies on FSDP's CPU offload of the parameters — about %(host)s of host RAM per node "
    "for the sharded base and the adapters' states, and slower steps."
)
"""The offload verdict of an adapter run's FSDP parameter offload (estimator.adapter_offload, s34)."""

PARAM_NOTE_MESSAGES_EXTRA: dict[tuple[NoteCode, str], str] = {
    # the 16-bit weights fit the user's GPUs; one sequence's KV cache or the workspace beside them does not
    # (estimator.serving_capacity.short_cause; s42 trial #13: 'bf16 weights do not fit' on one L4)
    (NoteCode.released_weights_short, "kv_in_gib"): N_(
        "%(precision)s weights (%(weights_in_gib)s per GPU) fit, but not with one %(context)s sequence's KV "
        "cache (%(kv_in_gib)s) and the engine's workspace beside them: %(need_in_gib)s per GPU against "
        "%(usable_in_gib)s usable, so at least %(min_gpus)s GPUs are needed at this context; the answer is "
        "for FP8 weights on your %(gpu_count)s (check quality on your task)."
    ),
    (NoteCode.released_weights_short, "workspace_in_gib"): N_(
        "%(precision)s weights (%(weights_in_gib)s per GPU) fit, but not with the engine's workspace "
        "(%(workspace_in_gib)s) beside them: %(need_in_gib)s per GPU against %(usable_in_gib)s usable, so "
        "at least %(min_gpus)s GPUs are needed; the answer is for FP8 weights on your %(gpu_count)s (check "
        "quality on your task)."
    ),
    (NoteCode.concurrency_limited, "gguf_kv"): N_(
        "Only ≈ %(max_concurrency)s of the %(concurrency)s slots fit at this context: llama.cpp allocates "
        "every slot's KV cache at start, so lower -c or --parallel, add GPUs, or quantize the KV cache "
        "(-ctk q8_0 -ctv q8_0, with flash attention -fa for the quantized V cache)."
    ),
    (NoteCode.concurrency_limited_assumed, "gguf_kv"): N_(
        "Only ≈ %(max_concurrency)s sequences fit at this context (I assumed %(concurrency)s): llama.cpp "
        "allocates every slot's KV cache at start, so lower -c or --parallel, add GPUs, or quantize the KV "
        "cache (-ctk q8_0 -ctv q8_0, with flash attention -fa for the quantized V cache)."
    ),
    (NoteCode.offload_not_needed, "slower"): N_(
        "CPU offload is not needed on these GPUs: without it the same setting takes ≈ %(per_gpu_gib)s per "
        "GPU (%(ratio)s of the card); offload only adds host RAM and slower steps (×%(slower)s in the time "
        "above)."
    ),
    (NoteCode.prefill_decode_short, "decode_limit"): N_(
        "Prefill and decode share these %(load_gpus)s GPUs (chunked prefill runs both in the same steps): "
        "the %(prefill_tokens_per_s)s prompt tokens/s take %(prefill_share)s of each second (compute-bound, "
        "2 × parameters FLOPs a token) and decoding %(target_tokens_per_s)s tokens/s takes "
        "%(decode_share)s: more than the whole second, and decode is the larger part. About %(replicas)s "
        "copies of %(per_copy)s GPUs each (%(gpus)s GPUs) do both."
    ),
    (NoteCode.samples_to_tokens, "steps"): N_(
        "Data converted to tokens: %(num_samples)s samples × %(tokens_per_sample)s tokens = %(tokens)s "
        "tokens (%(steps)s steps on %(gpus)s GPUs). The GPUs → time table keeps the %(steps)s steps: each "
        "count trains its own samples (micro-batch × accumulation × its GPUs a step), so the time stays "
        "about the same and the GPU-hours and cost grow with the GPUs."
    ),
    (NoteCode.time_bound_padded, "tool"): N_(
        "The time counts every sample at %(length)s tokens, the most you allow: an upper bound. Without "
        "packing %(tool)s pads each batch to its own longest sample, not to %(length)s, so shorter samples "
        "train faster — give their average length for a closer time. The memory is sized at %(length)s, "
        "the longest a batch can be."
    ),
    (NoteCode.runtime_unsupported_gpu, "assumed"): N_(
        "You named no engine and the sizing assumed %(runtime)s, which does not run on %(gpu)s: it needs "
        "compute capability 7.0 or higher (V100, T4, RTX 20xx and newer; vLLM's installation requirements), "
        "and %(generation)s cards are below it. The memory above is what the model needs, whichever engine "
        "runs it; name the engine you use (llama.cpp, transformers) to size it with that engine."
    ),
    (NoteCode.no_fit, "offloaded"): N_(
        "No layout fits within %(gpus_searched)s GPUs of this type, with CPU offload already: choose a card "
        "with more memory, or LoRA/QLoRA."
    ),
    (NoteCode.no_fit, "same_card_fix"): N_(
        "With these settings no number of these GPUs fits (up to %(gpus_searched)s); the changes below "
        "fit on your own GPUs."
    ),
    (NoteCode.hourly_budget, "price_cap"): N_(
        "Your %(budget)s an hour rents the %(gpus_low)s GPUs that hold the model only at up to %(price_cap)s "
        "per GPU-hour (the catalog's range is %(price_low)s – %(price_high)s; at %(price_low)s it rents "
        "%(gpus_high)s): on %(gpus_low)s – %(gpus_high)s GPUs the run's %(gpu_hours)s GPU-hours take about "
        "%(hours_low)s – %(hours_high)s hours, if it scales to that many GPUs."
    ),
    (NoteCode.daily_budget, "price_cap"): N_(
        "Your %(budget)s a day rents the %(gpus_low)s GPUs that hold the model around the clock only at up "
        "to %(price_cap)s per GPU-hour (the catalog's range is %(price_low)s – %(price_high)s; at "
        "%(price_low)s it rents %(gpus_high)s): on %(gpus_low)s – %(gpus_high)s GPUs the run's "
        "%(gpu_hours)s GPU-hours take about %(hours_low)s – %(hours_high)s hours, if it scales to that many "
        "GPUs."
    ),
}
"""Notes worded by a parameter (merged with bot.render.wording.PARAM_NOTE_MESSAGES in note_text): a
budget that rents the GPUs holding the model only below the catalog's high price (estimator.budget_check:
``price_cap``), said beside the range, never in its place; an engine the sizing assumed that does not
run on the card (s13 review 11: the note read as if the user had chosen it)."""
