"""The wording of the assumption ledger: one translatable sentence per reason key of the estimator
(:class:`estimator.reasons.Why`) and per word-valued entry (:class:`estimator.reasons.Word`).

The estimator stays language-free (docs/design.md §2): it records a key and its parameters; the sentences
live here only. ``tests/test_i18n.py`` checks that every key has a sentence and every sentence a
Chinese translation. Citations (model cards, price lists, papers) come with the assumption and stay
as written.
"""

from bot.render.card_texts import CARD_WHY_TEXTS
from bot.render.i18n import N_
from bot.render.rl_texts import RL_WHY_TEXTS
from bot.render.serving_why_texts import SERVING_WHY_TEXTS

WHY_TEXTS: dict[str, str] = {
    "deadline_default": N_("planning window when none is given (one month of training)"),
    "seq_len_pretrain": N_("typical pre-training context (Llama 2/3: 4,096/8,192)"),
    "seq_len_finetune": N_("typical SFT sequence length (Vicuna's recipe: 2,048; Alpaca's: 512)"),
    "seq_len_model_context": N_(
        "the longest sequence %(model)s runs (its config's position limit), below the usual default"
    ),
    "micro_batch": N_(
        "micro-batch of 1 sequence per GPU (memory-minimal; gradient accumulation for the rest)"
    ),
    "global_batch_pretrain": N_(
        "about %(tokens)s tokens per optimizer step (Llama 2 §2.2: a global batch of 4M tokens) ÷ "
        "%(seq_len)s tokens per sequence; gradient accumulation makes up the rest"
    ),
    "global_batch_finetune": N_(
        "sequences per optimizer step in the Stanford Alpaca recipe (batch size 128; Vicuna the same); "
        "gradient accumulation makes up the rest"
    ),
    "global_batch_finetune_long": N_(
        "about %(tokens)s tokens per optimizer step ÷ %(seq_len)s tokens per sequence: the fine-tuning "
        "default of 128 sequences would be more tokens a step than pre-training takes, and would leave few "
        "optimizer steps; Llama 2 Long kept Llama 2's 4M tokens per batch at 32,768-token sequences "
        "(Xiong et al. 2023 §2), LongAlign's long SFT used 8 × 64K (Bai et al. 2024); gradient accumulation "
        "makes up the rest"
    ),
    "tokens_per_sample": N_(
        "typical instruction-tuning sample: Alpaca's 52k examples average ≈ 270 tokens, ShareGPT "
        "conversations ≈ 1,000+; 512 is a stated middle (Taori et al. 2023; Zheng et al. 2023, Vicuna)"
    ),
    "seq_from_samples": N_("sequences as long as the samples you described (one sample per sequence)"),
    "seq_pairs_at_sample_tokens": N_(
        "each chosen and rejected sequence as long as the assumed tokens per sample: one length for the "
        "memory, the batch and the token count"
    ),
    "seq_at_sample_tokens": N_(
        "each sequence one sample of the assumed tokens per sample: one length for the memory, the batch "
        "and the token count"
    ),
    "tokens_per_sample_time": N_(
        "time: %(num_samples)s samples × %(tokens_per_sample)s tokens, the average sample (Alpaca's 52k "
        "examples ≈ 270 tokens, ShareGPT conversations ≈ 1,000+; 512 is a stated middle: Taori et al. "
        "2023; Zheng et al. 2023, Vicuna); memory: sequences up to %(length)s tokens"
    ),
    "seq_max_for_samples": N_(
        "memory: sequences up to this length, the longest a micro-batch holds (typical SFT max length: "
        "Vicuna's recipe 2,048; trainers cut each sample there: LLaMA-Factory cutoff_len, TRL max_length); "
        "time: the average sample, %(tokens_per_sample)s tokens"
    ),
    "tokens_per_pair_time": N_(
        "time: %(num_samples)s pairs × 2 sequences (chosen and rejected) × %(tokens_per_sample)s "
        "tokens, the average sample (Alpaca's 52k examples ≈ 270 tokens, ShareGPT conversations ≈ "
        "1,000+; 512 is a stated middle: Taori et al. 2023; Zheng et al. 2023, Vicuna); memory: chosen "
        "and rejected sequences each up to %(length)s tokens"
    ),
    "seq_max_for_pairs": N_(
        "memory: chosen and rejected sequences each up to this length, the longest a micro-batch holds "
        "(typical SFT max length: Vicuna's recipe 2,048; trainers cut each sequence there: TRL "
        "DPOConfig max_length, LLaMA-Factory cutoff_len); time: the average sample, "
        "%(tokens_per_sample)s tokens"
    ),
    "samples_at_seq_len": N_(
        "each sample as long as the sequence length you gave: an upper bound for the time (without "
        "packing, a batch is padded to its longest sample, not to this length)"
    ),
    "samples_packed": N_(
        "each sample as long as the sequence length you gave: samples are packed into sequences of it, so "
        "this is right when they fill it, an upper bound when they are shorter"
    ),
    "seq_packed_default": N_(
        "samples of %(tokens_per_sample)s tokens packed into full sequences of this length (LLaMA-Factory "
        "cutoff_len default 2,048; Vicuna's recipe 2,048): give cutoff_len / max_seq_len for yours"
    ),
    "samples_packed_average": N_(
        "samples packed into sequences of %(length)s tokens: the time counts the dataset's own tokens, each "
        "sample at an assumed average length (not padded to %(length)s); give the samples' length for yours"
    ),
    "epochs_finetune": N_("one pass over the data when epochs are not given"),
    "rl_completion_default": N_(
        "completion length of each rollout when none is given (TRL GRPOConfig max_completion_length "
        "default; the prompt is the rest of the sequence, or TRL's max_prompt_length 512)"
    ),
    "swift_completion_default": N_(
        "completion length of each rollout when none is given (ms-swift max_completion_length default, "
        "swift/arguments/rlhf_args.py; its --max_length in GRPO, PPO and GKD bounds the prompt)"
    ),
    "rollout_batch_without_gpus": N_(
        "completions each GPU decodes at once when the GPU count is not given: TRL's "
        "per_device_train_batch_size default; verl generates its whole step (data.train_batch_size × "
        "rollout.n) over the GPUs, which needs their count"
    ),
    "rollout_engine_share": N_(
        "the rollout engine's share of each GPU when none is given: vLLM's gpu_memory_utilization default "
        "(vllm/engine/arg_utils.py); verl rollout.gpu_memory_utilization and ms-swift/OpenRLHF "
        "vllm_gpu_memory_utilization set it"
    ),
    "verl_rollout_share": N_(
        "the rollout engine's share of each GPU when none is given: verl's "
        "actor_rollout_ref.rollout.gpu_memory_utilization default (verl/trainer/config/rollout/rollout.yaml)"
    ),
    "trl_colocate_share": N_(
        "the colocated vLLM engine's share of each GPU when none is given: TRL GRPOConfig "
        "vllm_gpu_memory_utilization default, used only with vllm_mode colocate"
    ),
    "openrlhf_prompt_default": N_(
        "prompt tokens of each rollout when none is given: OpenRLHF's --prompt_max_len default"
    ),
    "openrlhf_completion_default": N_(
        "completion length of each rollout when none is given: OpenRLHF's --generate_max_len default (one "
        "sample per prompt: its --n_samples_per_prompt default)"
    ),
    "verl_prompt_default": N_(
        "prompt tokens of each rollout when none is given: verl's data.max_prompt_length default"
    ),
    "verl_completion_default": N_(
        "completion length of each rollout when none is given: verl's data.max_response_length default"
    ),
    "rl_prompt_default": N_(
        "prompt tokens of each rollout when only the completion length is given (TRL GRPOConfig "
        "max_prompt_length default); each sequence is the prompt and its completion"
    ),
    "lora_rank": N_(
        "a common PEFT recipe (Hu et al. 2021 use 4–64; QLoRA's recipes 64; LLaMA-Factory's examples 8)"
    ),
    "lora_targets": N_(
        'every linear layer of attention and MLP (PEFT target_modules="all-linear"; QLoRA §4: adapting all '
        "layers is needed to match full fine-tuning)"
    ),
    "freeze_layers": N_("the last 2 layers train (LLaMA-Factory freeze_trainable_layers default)"),
    "prefix_tokens": N_("a 128-token prefix (ChatGLM-6B's P-tuning v2 example, PRE_SEQ_LEN=128)"),
    "quantized_base": N_(
        "%(bits)s-bit frozen base as %(tool)s's %(key)s runs it: 8 and 4 bits with "
        "bitsandbytes (LLM.int8, NF4), 3 and 2 bits with HQQ"
    ),
    "flops_freeze": N_(
        "derived: a forward pass over all weights (2ND) and a backward pass over the trained layers only "
        "(4 per trained parameter)"
    ),
    "recompute_flash": N_(
        "no gradient checkpointing: each layer keeps what autograd saves — Hugging Face models at TP 1 "
        "(16h + 4q + 4kv + 8I + 4·heads bytes per token in bf16: transformers modeling_llama.py with SDPA), "
        "Megatron layouts 34·s·b·h (Korthikanti et al. 2022, Table 2); no s×s scores with FlashAttention"
    ),
    "measured_throughput": N_(
        "implied by your measured %(tflops)s TFLOPS per GPU (model FLOPs ÷ dense peak)"
    ),
    "known_duration_one_gpu": N_("a duration without a GPU count: one GPU"),
    "known_duration_serving_gpus": N_("no GPU count given: the GPUs this serving answer needs"),
    "largest_one_gpu": N_("no GPU count given: one GPU"),
    "throughput_target": N_(
        "the sequences decoding at once that reach the %(target_tokens_per_s)s output tokens/s you asked "
        "(sequences × tokens/s per sequence)"
    ),
    "concurrency_asked": N_("you asked how many fit: the most your GPUs hold at this context"),
    "most_held": N_(
        "no load given: the most your GPUs hold at this context, so every figure is for the GPUs you named"
    ),
    "context_asked": N_(
        "you asked the longest context: the most your GPUs hold, up to the model's own limit"
    ),
    "tokens_chinchilla_assumed": N_(
        "you asked how long without a data size: the compute-optimal 20 tokens per parameter (Hoffmann et al. "
        "2022, Chinchilla); give your token count for your own answer"
    ),
    "largest_trained_shape": N_(
        "sizes are of a generic dense shape; each fits when the fewest GPUs of the layout search every "
        "training answer makes (ZeRO stage, recompute, micro-batch) are at most yours"
    ),
    "largest_generic_shape": N_(
        "sizes are of a generic dense shape with grouped-query attention (8 KV heads); a model without "
        "GQA holds fewer sequences"
    ),
    "gpu_stated_memory": N_(
        "sized at the %(memory_gib)s GiB per card you stated (the catalog's card has %(catalog_gib)s GiB); "
        "its compute and bandwidth as in the catalog"
    ),
    "serve_context": N_(
        "context per sequence (prompt + output) when none is given: 4k covers typical chat turns; "
        "never the model's maximum window"
    ),
    "users_active_share": N_(
        "%(users)s people use the service, not all at once: 10 %% of them with a request in flight (logged-in "
        "users run 15–25 %% of named users in enterprise software, and a chat user reads and types between "
        "requests; a planning assumption) — say the concurrency if you know it"
    ),
    "serve_concurrency": N_("concurrent sequences when none is given (a small team's chat service)"),
    "serve_concurrency_long_context": N_(
        "a context beyond 128K tokens is a long-document run: one sequence at a time when no load is given"
    ),
    "serve_concurrency_personal": N_(
        "a personal machine (a GeForce card or a Mac, or GGUF weights): one sequence at a time when none is "
        "given"
    ),
    "vllm_utilization": N_("vLLM default gpu_memory_utilization = 0.9"),
    "cuda_context": N_("CUDA context and library workspaces ≈ 1 GiB per GPU (observed, PyTorch/NCCL)"),
    "fragmentation": N_(
        "allocator fragmentation: + 8 %% of what each step allocates and frees (observed in PyTorch training)"
    ),
    "runtime_overhead": N_(
        "CUDA context and library workspaces ≈ 1 GiB per GPU (observed, PyTorch/NCCL); allocator "
        "fragmentation: + 8 %% of what each step allocates and frees — activations, the loss, temporaries "
        "(observed in PyTorch training)"
    ),
    "chinchilla": N_("Hoffmann et al. 2022 (Chinchilla): D ≈ 20·N compute-optimal"),
    "default_gpu": N_("reference GPU when none is named (the seed article's A100 80GB)"),
    "stage_training": N_("tokens, a budget or a duration were given: a training question"),
    "stage_serving": N_("no data size given: sized as serving"),
    "method_full": N_("full-parameter fine-tuning unless LoRA/QLoRA is named"),
    "unsloth_default": N_(
        "Unsloth's default, QLoRA (its loader: load_in_4bit = True, full_finetuning = False); name another"
    ),
    "flops_per_param_token": N_(
        "derived: LoRA/QLoRA need no weight gradients for frozen weights (4ND); DPO/GRPO/PPO add "
        "reference, reward and generation forward passes (2ND each)"
    ),
    "compute_optimal_size": N_("compute-optimal size for this data: N = D / 20 (Hoffmann et al. 2022)"),
    "budget_max_params": N_(
        "the largest model the budget trains on this data: N = budget ÷ price × peak × MFU × 3600 ÷ (6·D)"
    ),
    "compute_budget_optimal": N_(
        "your FLOPs budget C, compute-optimal: N = √(C / 120) with D = 20·N and C = 6·N·D (Hoffmann et al. "
        "2022 §3, Chinchilla)"
    ),
    "compute_budget_tokens": N_("the tokens your FLOPs budget C trains this size on: D = C / (6·N)"),
    "release_count": N_("the exact parameter count of %(model)s as released"),
    "generic_shape": N_(
        "no model named: a generic shape for this size in the form of every major release since 2024 — "
        "grouped-query attention with %(kv_heads)s KV heads for %(heads)s query heads (Llama 3, Qwen2.5, "
        "Mistral) — depth and width interpolated from the catalog's dense Llama/Qwen releases"
    ),
    "config_architecture": N_(
        "read from the config.json you gave: %(layers)s layers, hidden size %(hidden)s, %(heads)s attention "
        "heads and %(kv_heads)s KV heads; %(params_total)s parameters counted from these fields"
    ),
    "config_architecture_moe": N_(
        "read from the config.json you gave: %(layers)s layers, hidden size %(hidden)s, %(heads)s attention "
        "heads and %(kv_heads)s KV heads, %(experts)s experts with %(experts_top_k)s per token; "
        "%(params_total)s parameters (%(params_active)s active) counted from these fields"
    ),
    "generic_personal": N_(
        "a card of %(memory_gib)s is a personal card (every datacenter inference card has 16 GB or more): "
        "one user, llama.cpp/Ollama formats where 16-bit weights do not fit, one card unless you say more"
    ),
    "memory_one_card": N_(
        "a card known by its memory (%(memory_gib)s), with no count: one card of that memory"
    ),
    "gpu_memory_only": N_(
        "a card known by its memory (%(memory_gib)s): sized as that card, not as another vendor's card of "
        "that memory; no time, speed or price figures without its TFLOPS and bandwidth"
    ),
    "launcher_world_size": N_(
        "the server's world size: tensor parallel %(tp)s × pipeline parallel %(pp)s, no GPU count said"
    ),
    "personal_one_card": N_("%(gpu)s is a personal card, named without a count: the one card you have"),
    "gpu_by_memory": N_("the fastest catalog card with the memory you named"),
    "gpu_generic_memory": N_(
        "no catalog card has %(memory_gib)s: sized as a card of that memory alone; no time, speed or "
        "price figures without its TFLOPS and bandwidth"
    ),
    "mac_chip_assumed": N_(
        "a %(device)s with the memory you named, its chip not named: sized as the %(chip)s "
        "(%(bandwidth)s GB/s memory bandwidth and its compute); another chip decodes at its own bandwidth"
    ),
    "apple_config": N_(
        "the chip you named with the memory you named; bandwidth and compute of its top configuration "
        "(smaller M3/M4 Max configurations have less bandwidth: decode may be slower)"
    ),
    "price_catalog": N_("a market range per GPU-hour (as of %(as_of)s)"),
    "optimizer": N_("ZeRO (Rajbhandari et al. 2020) §3; QLoRA (Dettmers et al. 2023) §2"),
    "mfu_a100": N_("A100-class, ≥ 7B: the seed's 40 %% (Llama 2 7B–70B on A100: 35–43 %%)"),
    "mfu_a100_small": N_("A100-class below 7B: 40 %% × (N/7B)^0.09 (Pythia on A100: 22–34 %%)"),
    "mfu_h100": N_(
        "H100-class: one level fitted on the dense H100/H800 runs, which show no size trend (Llama 3 70B "
        "28 %%, Llama 3.1 405B 33 %%, Phi-4 24 %%, Llama 3 8B 16 %%)"
    ),
    "mfu_v100": N_("V100: GPT-3's 21 %% (PaLM Table 3)"),
    "mfu_uncalibrated": N_("no published runs on this class: 30 %% (PaLM on TPU v4 ≈ 30 %%), not calibrated"),
    "mfu_cdna3": N_(
        "no published whole runs on AMD CDNA3: the H100's per-GPU training throughput (MLPerf Training v5.0 "
        "Llama 2 70B LoRA, 8 GPUs: MI300X slightly behind H100; SemiAnalysis, Dec 2024: below it on AMD's "
        "public software), so the H100 level × 989.4 / 1,307.4 TFLOPS, the dense BF16 peaks; not calibrated"
    ),
    "mfu_moe": N_(
        "MoE counted on active parameters, × a factor fitted on bf16 MoE runs (Phi-3.5-MoE, DeepSeek-V2)"
    ),
    "mfu_fine_moe": N_(
        "MoE with a small active size (< 3B): counted on active parameters, × 0.49 instead of the large-MoE "
        "0.7 — small expert GEMMs (fitted on OLMoE-1B-7B, 18.6 %% of the H100 BF16 peak, and Ling-mini-2.0, "
        "13.9 %% in FP8: the two differ ×1.8)"
    ),
    "mfu_small": N_(
        "dense below 1B (cards other than A100-class): × (N/1B)^0.33 — small matrix multiplications reach "
        "a lower MFU (SmolLM-135M took about a day on 64 H100 for 600B tokens; fitted with SmolLM2-70M on "
        "one L40S)"
    ),
    "mfu_interval_tuned_small": N_(
        "80 %% prediction interval: ×%(low)s–×%(high)s of the likely GPU-hours; the likely figure is where "
        "a typical small-model run lands (SmolLM), the low end what hand-tuned small runs reach (llm.c, "
        "nanochat) (sizing-bot validate)"
    ),
    "mfu_fp8": N_("× the FP8 factor fitted on FP8 runs (DeepSeek-V3, Llama 4)"),
    "mfu_calibrated": N_("calibrated on published runs (sizing-bot validate)"),
    "mfu_qlora": N_(
        "÷ %(qlora_factor)s for QLoRA: the 4-bit NF4 base is de-quantized in every forward and backward "
        "pass, so steps are slower than bf16 LoRA (LitGPT's finetune benchmark: QLoRA ×1.39 the LoRA "
        "time on Llama-2-7B, ×1.44 on Mistral-7B; median of its 9 pairs)"
    ),
    "mfu_eager_moe": N_(
        "÷ %(eager_factor)s for an MoE trained on Hugging Face model code: transformers runs the experts "
        "one at a time in a loop, so a step takes at least as long as a dense model of all %(total_b)sB "
        "parameters (users report longer still: Qwen3-30B-A3B ×1.6 the time of QwQ-32B on the same "
        "setup, LLaMA-Factory#7921); Megatron-LM / ms-swift's Megatron backend run the experts as one "
        "grouped GEMM"
    ),
    "mfu_quantized_base_unmodelled": N_(
        "the %(bits)s-bit quantized base makes steps slower than bf16 LoRA (de-quantized on the fly): "
        "not modelled, no published measurement at this width"
    ),
    "mfu_interval": N_(
        "80 %% prediction interval: ×%(low)s–×%(high)s of the likely GPU-hours — 80 %% of comparable "
        "published runs (%(runs)s, each predicted by a model fitted without it) fell in this range; "
        "%(loo_coverage)s did on leave-one-out (sizing-bot validate)"
    ),
    "mfu_interval_tuned": N_(
        "80 %% prediction interval: ×%(low)s–×%(high)s of the likely GPU-hours; the likely figure is where "
        "a typical whole run lands, the low end what tuned FP8 runs reach (Megatron/NeMo in MLPerf "
        "Training v3.0–v4.0); %(loo_coverage)s of %(runs)s published runs fell in the interval on "
        "leave-one-out (sizing-bot validate)"
    ),
    "recompute_time": N_(
        "the layout on %(gpus)s GPUs needs full activation recomputation to fit: one more forward pass "
        "per token, (k + 2) / k of the compute (k = %(k)s; Korthikanti et al. 2022 §5)"
    ),
    "offload_time": N_(
        "CPU offload on %(gpus)s GPUs: each step adds ≈ %(seconds)s s outside the GPU — the CPU Adam pass "
        "over a node's share of the optimizer states (28 B/param at an assumed 200 GB/s of host memory) and "
        "the gradients and weights over PCIe (4 B/param at 25 GB/s) — to ≈ %(gpu_step)s s of GPU work "
        "(ZeRO-Offload, Ren et al. 2021 §4–§6; delayed parameter update off)"
    ),
    "ollama_slots": N_(
        "Ollama serves one request at a time unless OLLAMA_NUM_PARALLEL is set (default 1 since v0.10.0): "
        "these sequences at once need it set to this many, and each slot has its own num_ctx, a KV cache "
        "of %(context)s × slots = %(kv_tokens)s tokens"
    ),
    "ollama_num_parallel": N_(
        "Ollama's OLLAMA_NUM_PARALLEL default: one request at a time per loaded model, the rest queue "
        "(since v0.10.0)"
    ),
    "host_ram_buffer": N_(
        "DeepSpeed's own estimate of CPU offload's host RAM: %(per_param)s B per parameter (fp32 master "
        "weights, Adam's two moments and the fp32 gradients: %(states_bytes)s a machine) × %(factor)s, its "
        "additional_buffer_factor default, a margin for pinned staging buffers"
    ),
    "recompute_time_stated": N_(
        "the full activation recomputation you set (gradient checkpointing), on every GPU count: one more "
        "forward pass per token, (k + 2) / k of the compute (k = %(k)s; Korthikanti et al. 2022 §5)"
    ),
    "recompute_time_every": N_(
        "no GPU count keeps the activations without full activation recomputation (data parallelism "
        "does not split them): every count pays one more forward pass per token, ×%(factor)s — (k + 2) "
        "/ k of the compute (k = %(k)s; Korthikanti et al. 2022 §5)"
    ),
    "verl_train_batch_default": N_(
        "verl's default data.train_batch_size (prompts per step): its rollout engines decode the whole "
        "step's completions at once, up to vLLM's max_num_seqs (256) per engine"
    ),
    "tool_default_zero": N_(
        "%(tool)s shards with FSDP (FULL_SHARD, as ZeRO-3) when no other strategy is set: data parallel "
        "only, no tensor parallelism of the trained model"
    ),
    "tool_default_recompute": N_(
        "%(tool)s turns gradient checkpointing on unless you turn it off: every layer's activations are "
        "recomputed in the backward pass, only its input is kept"
    ),
    "tool_recompute_off": N_(
        "%(tool)s turns gradient checkpointing on unless you turn it off; here the activations fit without "
        "it, so the plan turns it off and skips the extra forward pass (≈ 1/3 more compute)"
    ),
    "recompute_time_below": N_(
        "below %(keep_from)s GPUs (the fewest that fit: %(gpus)s) the layout needs full activation "
        "recomputation: their days are ×%(factor)s — (k + 2) / k of the compute (k = %(k)s; Korthikanti et "
        "al. 2022 §5); from %(keep_from)s GPUs the activations are kept and train at the rate above"
    ),
    "hours_per_day_stated": N_(
        "as you stated: the deployment is rented only while it runs, %(gpu_hours)s hours a month per GPU "
        "instead of 730 around the clock, so the month costs %(hours)s/24 of an always-on one"
    ),
    "recompute_time_fewest": N_(
        "on the fewest GPUs that fit (%(gpus)s) the layout needs full activation recomputation: their "
        "days are ×%(factor)s — (k + 2) / k of the compute (k = %(k)s; Korthikanti et al. 2022 §5); more "
        "GPUs keep the activations and train at the rate above"
    ),
    "recompute_time_shown": N_(
        "on the fewest GPUs that fit (%(gpus)s) and on the %(shown)s GPUs shown, whose layout keeps a "
        "margin, the layout runs full activation recomputation: their days are ×%(factor)s — (k + 2) / k "
        "of the compute (k = %(k)s; Korthikanti et al. 2022 §5)"
    ),
    "mfu_scale_out": N_(
        "%(gpus)s GPUs where %(reference)s would do (whole runs are sized to finish in about %(days)s "
        "days; at least one node): the same job spread over more GPUs runs less efficiently, MFU × "
        "(GPUs / %(reference)s)^−%(alpha)s (fitted on the MLPerf Training GPT-3 175B series, 512–11,616 "
        "H100: sizing-bot validate)"
    ),
    "mfu_interval_wider": N_(
        "80 %% prediction interval: ×%(low)s–×%(high)s of the likely GPU-hours — 80 %% of comparable "
        "published runs (%(runs)s, each predicted by a model fitted without it) fell in this range, wider "
        "for %(widened)s runs, which scatter more; %(loo_coverage)s did on leave-one-out (sizing-bot validate)"
    ),
    "fp8_training": N_(
        "FP8 GEMMs, timed on the FP8 peak (%(peak_tflops)s TFLOPS) at ×%(factor)s the bf16 rate "
        "(%(mfu_bf16)s of the 16-bit peak), fitted on FP8 runs — not ×2: attention, communication and the "
        "non-GEMM work stay in 16-bit (DeepSeek-V3 §3.3.1; measured FP8/BF16 speed-ups ×1.1–1.5)"
    ),
    "int8_training": N_(
        "int8 training read as int8 matrix multiplications in the linear layers (SwitchBack, Wortsman et al. "
        "2023): ×%(factor)s the bf16 rate, fitted on SwitchBack's measured 13–25 %% end-to-end speed-up "
        "over bf16 — not ×2 of the INT8 peak (%(peak_tops)s TOPS): weight gradients, attention and the "
        "non-matmul work stay in 16-bit. An 8-bit optimizer (bitsandbytes) saves memory, not time."
    ),
    **SERVING_WHY_TEXTS,
    "chat_settings": N_("this chat's /settings"),
    "presales_prices": N_("the provider's price list (%(provider)s)"),
    "presales_monthly": N_(
        "%(provider)s's monthly price, %(month)s %(currency)s per GPU-month ÷ 730 hours: a service runs all "
        "month, and by the month is cheaper than by the hour"
    ),
    "presales_exchange": N_(
        "%(provider)s's price of %(from_price)s %(from_currency)s per GPU-hour at %(cny_per_usd)s CNY per USD "
        "(rate of %(as_of)s)"
    ),
    "presales_gpu": N_("the first GPU in %(provider)s's offer that fits this job (no GPU named)"),
    "presales_gpu_instead": N_(
        "the GPU named is not in %(provider)s's offer: the first offered GPU that fits this job"
    ),
    "presales_gpu_none_fits": N_(
        "no GPU in %(provider)s's offer fits this job: sized on the first one offered"
    ),
    "language_currency": N_("the conversation's language"),
    **RL_WHY_TEXTS,
    **CARD_WHY_TEXTS,
}
"""Reason key → the sentence shown in the ledger (%-parameters from the assumption)."""
