"""The reasons an ``ignored`` entry of the interpretation gives (split off :mod:`bot.core.interpretation`,
session 39): every stable key the bot words (:data:`IGNORED_REASONS`; a new one gets its sentence in
bot.render.ignored_texts), those the answer uses through its settings (:data:`USED_REASONS`), and a model
mention's substitution → the reason the reply gives (:data:`MODEL_SUBSTITUTIONS`).
"""

from __future__ import annotations

from bot.parse.configs.model import UNUSED_REASONS

IGNORED_REASONS = (
    "absurd",  # far beyond any real model, dataset or cluster
    "nonpositive",  # a count or size of zero or below
    "unusable",  # outside a setting's allowed range (an MFU of 1e-20, a deadline of 1e23 days)
    "unread",  # no word said what the number is
    "network_port",  # '-p 8080:80', '--port 8000', '端口 8080': a port does not change the sizing (s36)
    "volume_not_load",  # a request volume beside a stated load (s35 fixc)
    "steps_need_batch",  # training steps without a global batch and a sequence length
    "steps_default_batch",  # steps × the global batch and length assumed: the tokens timed (s33 #2)
    "steps_default_length",
    "steps_default_global",
    "steps_stated_batch",  # one or neither assumed (s33 fixa)
    "steps_accum_batch",  # the global batch of their accumulation × an assumed micro-batch (s34 #7)
    "steps_accum_batch_length",
    "fractional_count",  # "3.5 A100s": sized on the next whole count
    "repeated",  # a second value for a field that takes one
    "asked_alternative",  # 'do I need int8?': an option asked about, not the run's setting (s44 fixread)
    "product_not_count",  # '16 A100 (4x8)': a product in brackets that is not the count stated (s44)
    "replaced_by_later_value",  # a setting's earlier value ('batch size from 8 down to 2': the 8)
    "original_context",  # the start of a context extension (from 32k to 128k): the model's own window (s46)
    "rope_factor_used",  # s47: a YaRN / RoPE scaling factor: the engine's length is the model's window × it
    "sharding_conflict",  # an FSDP sharding strategy beside reshard_after_forward, which sets the stage
    "training_only",  # a training setting in a serving question
    "training_tool_serving",  # a training tool named in a serving question (s32 fixb)
    "serving_only",  # a serving setting in a training question
    "not_for_method",  # e.g. a LoRA rank for full fine-tuning
    "unknown_module",  # a LoRA target no projection of the model is called
    "above_peak",  # a measured throughput above the card's dense peak
    "cluster_rate",  # a training rate of the whole cluster, with no GPU count to divide it by (s42 zhleft)
    "cluster_rate_used",  # that rate ÷ the job's GPU count: the measured rate per GPU the answer times with
    "measured_wins",  # an MFU next to a measured throughput: the measurement is used
    "training_precision",  # int8/int4 for full training: weights train in bf16
    "config_model",  # a model name or size next to a config.json: the config gives the model
    "launch_line_model",  # a model name or size next to a launch line whose shape builds the model (s37 fixd)
    "no_fp8",  # FP8 training asked on a card without FP8 tensor cores: timed in bf16
    "no_fp8_weights",  # FP8 serving asked on a card that cannot load FP8 weights: sized in bf16
    "no_int8",  # int8 training asked on a card without an INT8 tensor-core peak in the catalog: bf16
    "more_than_gpus",  # a TP × PP larger than the GPU count: the layout was searched instead
    "fp8_in_mfu",  # FP8 training beside a stated MFU: the MFU is of the 16-bit peak, the time not on FP8's
    "fp8_time_only",  # FP8 training with nothing to time: FP8 changes the time; memory is sized in bf16
    "config_differs",  # the text said another value than the pasted config: the config's is used
    "prose_changes",  # the text asks to change the pasted config's length: the text's is used (s19)
    "param_offload",  # offload_param cpu/nvme, params offloaded: not modelled; memory an upper bound (s26)
    "offload_adapters",  # CPU offload with LoRA/QLoRA: sized without it (only full fine-tuning models it)
    "optimizer_offload_adapters",  # LoRA/QLoRA offload_optimizer alone: small states, base on the GPUs (s35)
    "tool_inferred",  # a tool not named, read from its settings (ZeRO-3: DeepSpeed); no model of the tool
    "settings_applied",  # a tool named with its settings ('DeepSpeed ZeRO-3'): the settings are used
    "megatron_backend",  # s46: ms-swift named with its Megatron backend: sized as Megatron-LM's layouts
    "launcher_ddp",  # torchrun with nothing that shards: read as plain DDP, a whole model a GPU (s32)
    "nearest_format",  # a GGUF format the sizing lacks (Q5_K_S): sized as the next larger one (Q5_K_M)
    "sdpa_default",  # s42 eagerfix: 'flash attention off' with no eager cue: transformers' SDPA, no scores
    "card_unsized",  # s42 r38zh: another card named while the model's size is unknown: named with its memory
    "fp8_kind",  # s42: an FP8 kind typed ('--kv-cache-dtype fp8_e5m2'): sized as FP8, one byte a value
    "qps_needs_output",  # requests per second without the output tokens per request ('qps 20')
    "per_user_rate",  # a rate per user with no count of users written (s18: 'each sends 2 requests a minute')
    "sample_range",  # '2k~4k tokens per sample': the time at the mean, the memory at the longer end
    "sample_avg_max",  # 'average 800, max 4096': the time at the average, the memory at the longest (s24)
    "rate_times_output",  # 'QPS 5，每次输出 300 token': the rate × output tokens, the tokens/s sized (s17)
    "users_active_share",  # '200 employees': the people a service is for, 10 % of them at once (s21 #3)
    "users_at_once",  # '200 users': read as sequences at once; the head-count reading said (s31 left #6)
    "steps_per_device",  # TRL steps × per-device batch × GPUs (÷ G completions): the prompts trained (s18)
    "output_in_context",  # an output length with no prompt ('max_tokens 512'): in the context, named
    "currency_unsupported",  # s46 r42zh: a budget or price in euros, pounds, yen …: named, not priced
    "apple_gpu_cores",  # s50 #6: 'MacBook Pro 16 核 GPU': the chip's GPU cores, not a count of devices
    "other_card_job",  # s50 #3: '另一张跑 embedding': the other card does another job; the model on one card
    "retrieval_model",  # s46 r42zh: an embedding or reranker model beside the language model sized, named
    "ttft_target",  # '首token 500ms 内': compared with the estimated time to first token (s37 fixb #1)
    "per_user_speed",  # a speed per user ('each user 20 tok/s'): compared with the per-sequence speed
    "ktransformers_split",  # KTransformers named beside its experts-in-CPU split: that layout sized (s40 #3)
    "llama_cpp_based",  # a front-end that runs llama.cpp (koboldcpp, LM Studio): sized as llama.cpp
    "kv_cache_layer",  # LMCache, NIXL, Mooncake … beside the engine: the KV cache is sized in GPU memory
    "algorithm_family",  # DAPO, KTO, SimPO …: sized as the family the estimator has (GRPO, DPO …)
    "lora_variant",  # DoRA, AdaLoRA, rsLoRA, LoRA+, PiSSA …: low-rank adapters, sized as LoRA (s17)
    "vague",  # '几十万条': an amount with no number in it; never read as its smallest value
    "vague_count",  # '几十张卡': a count of cards or machines with no number in it (s32)
    "rollout_share",  # '2 卡给 vllm' in online RL: the rollout engine's share of the job's cards
    "stated_need",  # '推理显存是 140GB', 'needs 140GB VRAM': a memory the model needs, not the cards'
    "cards_total",  # '8 x A10G with 192 GB VRAM': the cards' memory together (count × card), as sized
    "unknown_other_device",  # 'my macbook / rtx 3090': a device outside the catalog beside the card (s23)
    "cpu_not_gpu",  # 'Xeon E5-2690', 'i9-13900K' with no GPU named: a CPU, not sized; the GPU used said (s32)
    "ppo_models",  # '四个模型' of PPO: actor, critic, reference and reward, counted at the trained size (s23)
    "eval_cards",  # '4 A100 for eval' beside a training rig: not the cards that train (s23)
    "eval_share",  # '8张A100，其中2张做评测': a share of the rig, the rest trains (s24 review #9)
    "not_compared",  # a card named for comparison beyond the six one answer sizes (trial s18 #3)
    "memory_room",  # '加载后剩 8G 的空闲显存': the room after loading, not the card's memory (s19)
    "over_card",  # 'one 4090, the node's 128GB of GPU memory': above the card's own memory, the card's sized
    "utilization_bounds",  # 'gpu_memory_utilization 1.5': outside (0, 1], sized at the engine's default
    "period_as_total",  # '预算每月5万' for a training run: compared with the whole run's cost
    "alternative_engine",  # 'vLLM 也行', 'or vLLM is fine too': accepted, not sized (the one asked first is)
    "budget_no_cost",  # a serving budget with no rental cost to compare it with (no price on file)
    "serving_offload",  # weights in CPU memory on a server that holds every weight on GPUs: not modelled
    "all_on_gpu",  # host memory stated, every weight on the GPUs (estimator.layer_offload): not needed
    "cpu_host_ram",  # a CPU and its RAM with no GPU named: compared with the model under the headline (s34)
    "no_experts",  # experts on the CPU for a dense model: it has none
    "rollout_as_vllm",  # an RL rollout engine other than vLLM (SGLang): the rollouts are timed as vLLM's
    "step_time_target",  # '希望每步不超过 2 秒': a time per step wanted; the sizing times the whole run
    "negated",  # '128k context is not needed', '不需要 128k 上下文': a value the message says is not wanted
    "worked_share",  # 'dataset 80000/8=10000 per GPU': a worked share of a stated total, which is used (s25)
    "liger_asked",  # 'would Liger help?', '要不要开 liger': asked about, not stated on or off (s25)
    "users_not_load",  # '200 users, about 30 concurrent': the users counted, the concurrency sized
    "unknown_other_device_memory",  # 'Jetson Orin 64GB' beside another setup: ask alone, sized by memory
    "per_card_load",  # '单卡能撑 50 并发，要支持 200': one card's observed concurrency, not the load (s29)
    "catalog_peak",  # '910B（280T）', 'A100 (312 TFLOPS)': a chip's peak rate; the catalog's is used
    "card_slots",  # '4 个卡槽', '4 PCIe slots': at most that many cards; the count needed is sized
    "gpu_kinds",  # 'H20、L40S和A800三种卡', 'three GPU types': the kinds listed, each card's count sized
    "mixed_rig",  # 'an RTX 5090 plus an RTX 3080': one machine, sized as that many of its smallest card
    "other_machine",  # '一台 8×4090 和一台 4×A100': two machines of different cards, the larger sized (s32)
    "other_machine_dp",  # the same used together in ZeRO/FSDP/DDP: all sized at the smaller card (s32 fixf)
    "other_machine_training",  # the same in training, no data parallelism said: one TP group (s32 fixf)
    "other_stage_machine",  # '训练用一台 8×H100，部署用一台 4×4090': the other stage's machine (s32 fixf)
    "colocate_not_trl",  # 'colocate' with verl or OpenRLHF: the engine sleeps, nothing to size (s16)
    "mixed_rig_largest",  # the same rig on llama.cpp or no engine: sized on its largest card alone (s16)
    "mixed_rig_sum",  # the same rig on llama.cpp/Ollama named: layers split by memory, the sum sized (s19)
    "current_load",  # '现在 20 并发，峰值 100', '20 users now, scale to 64': the load today, the target sized
    "measured_load",  # '96 tok/s at concurrency 1 to 772 at 16': a load of the user's sweep, one sized (s46)
    "memory_target",  # 'bring it down to 48GB per GPU', '降到 48G 以下': a memory per GPU wanted (s46)
    "observed",  # a figure reported from a run ('uses 60 GB', 'got 35 tokens/s'): what happened, no setting
    "team_size",  # '4 people on the team' on a training question: no load, no training setting (s14)
    "daily_schedule",  # '8 hours a day': the cards' hours each day, not the run's duration (s14)
    "daily_schedule_calendar",  # the same on a training run's days: its calendar days (s21)
    "provider_price",  # 'vs Lambda H100', '阿里云和AutoDL比': no provider's own price on file (s44 trial #5)
    "p5_as_48xlarge",  # 'AWS p5' with no size: sized as p5.48xlarge (8 x H100); a p5.4xlarge holds 1 (s45)
    "power_price",  # '0.12 USD/kWh', '电费': electricity is not priced (GPU rental is); no budget (s18)
    "interconnect",  # 'with RoCE (not IB)', 'IB网络': the network between nodes, not modelled (s45 trial #5)
    "link_compare",  # 'NVLink vs PCIe, how much difference?': asked, no link timing model to answer it (s47)
    "expert_parallel_training",  # s47 trialfix #6: 'EP=4' in training: the plan places experts itself
    "ep_no_experts",
    "ep_not_dividing",
    "ep_over_gpus",
    "ep_dp",  # s48: a stated EP the MoE plan cannot use
    "audio_hours",  # s47 cat: '1 万小时音频' for a speech model: named, not sized as tokens
    "purchase_price",  # 'rent … or buy a server?': no purchase price on file, renting priced (s45 trial #2)
    "tax_rate",  # '含税13%', 'incl. 6% VAT': the costs are rental prices before tax (s45 trial #4)
    "prefix_caching",  # 'with prefix caching', '开前缀缓存': on by default, no memory figure changes (s46)
    "weekdays_only",  # 'on weekdays', '工作日': not billed (every day of the month is); ≈ 5/7 of it (s18)
    "calendar_date",  # 'by end of Q3 2025', '2026年3月前': a date, no days without a start date (s20)
    "step_label",  # 'DeepSpeed-Chat step 3', '第3步': which step of a procedure, not a count (s35)
    "time_ago",  # 'two months ago', '两个月前': when something happened, no deadline nor duration (s21)
    "tool_global_batch",  # verl's / OpenRLHF's plain batch size: their global batch, sized as such (s21)
    "rollout_batch_other_tool",  # 'rollout batch 256' with TRL etc.: OpenRLHF's setting, not used (s32)
    "past_date",  # 'by last quarter', '上个季度完成': a deadline already past, flagged (s21)
    "rounded_context",  # 'at only 4k context' beside 'max_seq_length=4608': the key's exact value (s21)
    "earlier_run",  # s14: an earlier run on the same data and cards: its throughput times the new job
    "earlier_run_same_job",  # s14: an earlier run of the same model and method: its MFU times the new job
    "earlier_run_other_job",  # s14: an earlier run of another model or method: its MFU named, not used
    "earlier_run_other_card",  # s17: the same model and method on another card: its MFU times the new job
    "earlier_run_scaled",  # s17-2: no data size: the run's GPU-hours × its card's peak ÷ the new card's
    "earlier_run_other_model",  # s15: an earlier run of another model on the same cards and method: its MFU
    "earlier_run_above_peak",  # s14: an earlier run implying more FLOPs than the cards' peak: set aside
    "earlier_run_rl",  # s16: an earlier GRPO/RLOO/PPO run: mostly generation, not k·N·D — not used
    "claimed_size",  # s37-models: 'DeepSpeed says it can train models of up to 13B': a claim, not the job
    "distill_teacher",  # s43 fixjob #1: a distillation's teacher — its generation is inference, not sized
    "rl_reward_model_not_sized",  # an RL job's reward/critic/reference model: counted at the actor's size
    "weights_file",  # '模型文件 21G' beside a named model: its file's size, the weights sized from the model
    "image_not_vl",  # s40 fixt #2: an image resolution or count beside a model with no vision tower
    "image_no_resolution",  # s40 fixt #1: images per sample with no resolution: their tokens not counted
    "image_tokens_processor",  # s46 review B7: tokens an image stated beside a resolution the processor reads
    "image_request_uncounted",  # s44: a served request's images whose tokens are not known: not counted
    "no_chunked_attention",  # s45: a chunked-KV setting said for a model with no chunked attention layers
    *UNUSED_REASONS,  # keys of a pasted training/serving config (bot.parse.configs.model)
)
MODEL_SUBSTITUTIONS = {
    "vision_language": "vision_language_llm",
    "alias": "model_alias",
    "speech": "speech_llm",
    "long_context": "long_context_release",
    "fine_tune": "fine_tune_base",
    "same_architecture": "same_architecture_release",
}
"""A model mention's substitution (:mod:`bot.parse.vision_names`) → the reason the reply gives."""
USED_REASONS = frozenset(
    {
        "settings_applied",
        "rope_factor_used",
        "launcher_ddp",
        "tool_inferred",
        "zero_from_file_name",
        "samples_cap",
        "demo_rows",
        "earlier_run",
        "earlier_run_same_job",
        "earlier_run_other_model",
        "earlier_run_other_card",
        "earlier_run_scaled",
        "cards_total",
        "rate_times_output",
        "fp8_kind",
        "ttft_target",
        "users_active_share",
        "users_at_once",
        "steps_per_device",
        "steps_default_batch",
        "steps_default_length",
        "steps_default_global",
        "steps_stated_batch",
        "colon_missing",
        "steps_accum_batch",
        "steps_accum_batch_length",
        "vllm_server_default",
        "cap_only",
        "cap_at_load",
        "cap_as_load",  # lmdeploy's/TGI's batch size, its cap, sized as the load (s32 fixb)
        "sample_range",
        "sample_avg_max",
        "daily_schedule_calendar",
        "script_fp32",
        "script_defaults",
        "script_reference",
        "dschat_critic",
        "dschat_critic_trained",
        "script_tool",
        "ktransformers_split",
        "cluster_rate_used",
        "megatron_backend",  # s46 trial #3: ms-swift's Megatron backend, sized as Megatron-LM
        "p5_as_48xlarge",  # s45 review B4: the family sized as its 8-GPU size, said
        "speculative_speed",  # s44 fixspec2: the draft counted, its speed-up alone not (not 'Not used')
    }
)
"""Reasons of an ``ignored`` entry the answer uses through its settings (a tool named with them or read from
them: ZeRO-3 → DeepSpeed; the cards' total memory; a rate times the output; an engine's cap alone; s33: a
script that loads in fp32): the reply names them apart, never under "Not used" (render reads this set)."""
KT_NAMED = ("runtime: KTransformers", "runtime_not_modelled")
"""KTransformers as bot.parse.stack_words names it (bot.render.ktransformers_text.NAMED)."""
KT_USED = "ktransformers_split"
"""Its reason when the answer sized its experts-in-CPU layout (s40 fixs #3: the reply sized KTransformers'
layout and launch while the not-used line said its engine was not modelled): used, and what is not (its
kernels' speed) said in the reason's wording."""
