"""The ledger's sentences of the serving side (split off :mod:`bot.render.ledger_texts`, session 39): the
weights' released precision, the runtime's default context and local formats, each runtime's workspace and
memory share, a card's total memory as sold, MLA's KV cache under TP and DP attention; the time to first token's prefill MFU (s39 fixs #1). Merged into
:data:`bot.render.ledger_texts.WHY_TEXTS` in place (its key order kept)."""

from bot.render.i18n import N_

SERVING_WHY_TEXTS: dict[str, str] = {
    "release_precision": N_("weights as released by the model's authors"),
    "fp16_no_bf16": N_(
        "%(gpu)s has no bf16 (compute capability below 8.0): vLLM runs 16-bit weights in fp16 there "
        "(--dtype auto; the same 2 bytes per weight)"
    ),
    "release_fp8_as_bf16": N_(
        "released in FP8, but %(gpu)s has no FP8 and cannot load FP8 weights: sized as bf16 (converted, as "
        "DeepSeek-V3 is for Ascend and AMD MI200)"
    ),
    "reasoning_context": N_(
        "a reasoning model writes long chains of thought: its model card's generation length"
    ),
    "runtime_default_context": N_(
        "the runtime's default context when none is set (Ollama: num_ctx 4,096 tokens, its default from "
        "v0.6.7 to v0.15.4; since v0.15.5 it picks 4K, 32K or 256K by the GPUs' total memory, at most the "
        "model's own context); longer prompts are cut to it — set num_ctx (or OLLAMA_CONTEXT_LENGTH) to "
        "the context you need"
    ),
    "serve_context_model_window": N_(
        "the model's own context window (its config.json max_position_embeddings), shorter than the "
        "4,096-token serving default: a sequence cannot run past it"
    ),
    "ollama_default_tag": N_(
        "Ollama with no quantization in the tag: its library's default tags are Q4_K_M (ollama/ollama "
        "#1543) — a tag such as “:32b-q8_0” or “-fp16” picks another"
    ),
    "local_format": N_(
        "the released weights are over the usable memory of the GPUs you named; local runtimes (llama.cpp, Ollama, MLX) "
        "run quantized weights: Q8_0 is near-lossless, Q4_K_M (Ollama's default) trades a little quality"
    ),
    "fp8_on_count": N_(
        "the released 16-bit weights do not fit the GPUs you named, FP8 weights do (half the bytes per "
        "parameter: vLLM --quantization fp8, or an FP8 checkpoint): the answer is for FP8 on your GPUs"
    ),
    "total_memory_as_sold": N_(
        "GPU memory counted as cards are sold: '80GB' is 80 GiB (HBM/GDDR sizes are binary)"
    ),
    "unified_memory": N_(
        "unified memory: the GPU's default working set (Metal recommendedMaxWorkingSetSize: ≈ 75 %% with "
        "64 GB or more, 2/3 below; raise with `sudo sysctl iogpu.wired_limit_mb`)"
    ),
    "unified_memory_amd": N_(
        "unified memory shared with the CPU: the share AMD lets the GPU hold (Variable Graphics Memory: up to "
        "75 %% of system memory, 96 GB of 128 GB; on Linux the amdgpu GTT limit moves it)"
    ),
    "unified_memory_nvidia": N_(
        "unified memory shared with the CPU: CUDA allocates from it with no fixed GPU share, so the share "
        "left after the operating system and the CPU side is assumed (not a vendor figure)"
    ),
    "local_no_cap": N_("llama.cpp has no utilization cap: all memory but the CUDA context"),
    "vllm_workspace": N_(
        "what vLLM's start-up profiling keeps besides weights and KV cache: one forward pass of "
        "max_num_batched_tokens (V1, the default, chunks prefill whatever max_model_len) and the sampler's "
        "logits for max_num_seqs rows (2,048 / 256; 8,192 / 1,024 on 70 GB+ cards other than A100), plus non-torch "
        "memory; the CUDA context and CUDA graphs sit outside gpu_memory_utilization"
    ),
    "vllm_workspace_batched": N_(
        "what vLLM's start-up profiling keeps besides weights and KV cache: one forward pass of "
        "max_num_batched_tokens as set (the value you gave, or 131,072 in the vLLM recipe of Qwen's 1M-token "
        "model cards, which ask for at least 120 GB of GPU memory in total for the 7B at 1M tokens) and the "
        "sampler's logits, plus non-torch memory; the CUDA context and CUDA graphs sit outside "
        "gpu_memory_utilization"
    ),
    "local_workspace": N_("llama.cpp's compute buffer: one n_ubatch of 512 tokens and one sequence's logits"),
    "sglang_workspace": N_(
        "SGLang's share outside mem_fraction_static, left for activations (chunked prefill) and CUDA graphs"
    ),
    "lmdeploy_workspace": N_(
        "lmdeploy TurboMind: cache_max_entry_count (default 0.8) of the memory free after the weights load "
        "is the KV cache; the rest is its workspace (lmdeploy messages.py)"
    ),
    "tgi_workspace": N_(
        "TGI: its warm-up prefill's activations; the KV blocks fill the rest of --cuda-memory-fraction "
        "(default 1.0) × TGI_WIGGLE_ROOM of the card (0.90 since v3.3.0, 0.95 from v1.4.1, none before)"
    ),
    "exllama_workspace": N_(
        "ExLlamaV2's scratch buffers: one max_input_len chunk of 2,048 tokens and its attention matrix; "
        "the cache holds exactly max_seq_len tokens"
    ),
    "transformers_workspace": N_(
        "transformers generate(): the prompt's forward pass one layer at a time, the last position's logits, "
        "the KV cache's growth by torch.cat and, for quantized weights, one matrix dequantized to fp16"
    ),
    "sglang_mem_fraction": N_(
        "SGLang's default mem_fraction_static for this card (weights + KV pool as a share of the memory free "
        "at start-up; sglang server_args.py)"
    ),
    "transformers_no_cap": N_("transformers allocates as it goes: all memory but the CUDA context"),
    "mla_dp_attention": N_(
        "MLA's latent KV cache kept once per sequence: attention runs data-parallel across the TP group "
        "(SGLang --enable-dp-attention; DeepSeek-V3 report §3.4); plain tensor parallelism keeps a copy on "
        "every GPU and fits about 1/TP as many sequences"
    ),
    "dsa_indexer_cache": N_(
        "DeepSeek Sparse Attention's lightning indexer keeps its own key cache besides the MLA latent: "
        "index_head_dim fp8 values and an fp32 scale per 128 of them, per token and layer, whatever the KV "
        "cache's type (DeepSeek-V3.2-Exp inference/model.py Indexer; vLLM's indexer cache), counted in the "
        "KV cache per token above"
    ),
    "mla_tp_copies": N_(
        "your TP without DP attention: MLA's latent KV cache has one head, so every TP rank keeps all of it "
        "(SGLang MLATokenToKVPool, vLLM's MLA backend) and the pool is one GPU's free memory ÷ its size; "
        "SGLang --enable-dp-attention keeps each sequence on one GPU and holds about TP× as many"
    ),
    "mla_sglang_default": N_(
        "SGLang's default, plain tensor parallelism (enable_dp_attention=False, sglang server_args.py): MLA's "
        "latent KV cache has one head, so every TP rank keeps all of it and the pool is one GPU's free memory "
        "÷ its size; --enable-dp-attention keeps each sequence on one GPU and holds about TP× as many"
    ),
    "mla_vllm_default": N_(
        "vLLM's default, plain --tensor-parallel-size: MLA's latent KV cache has one head, so every TP rank "
        "keeps all of it and the pool is one GPU's free memory ÷ its size; --data-parallel-size with "
        "--enable-expert-parallel keeps each sequence on one GPU and holds about TP× as many"
    ),
    "prefill_fitted": N_(
        "the prefill MFU fitted on MLPerf Inference v4.1 (Llama 2 70B, Mixtral 8x7B): a serving engine's large "
        "GEMMs, no all-reduce on one GPU"
    ),
    "prefill_tp": N_(
        "the fitted %(mfu_fitted)s (MLPerf Inference v4.1), less the %(mfu_allreduce_share)s of the time spent in "
        "tensor-parallel all-reduces on TP %(tp)s: two a layer of prompt × hidden × 2 bytes (Megatron-LM)"
    ),
    "prefill_power_capped": N_(
        "capped at the %(sustained_tflops)s TFLOPS the card sustains in a long 16-bit matmul under its power "
        "limit, of the datasheet's %(peak_tflops)s"
    ),
}
"""Reason key → the sentence shown in the ledger, serving side (see :data:`bot.render.ledger_texts.WHY_TEXTS`)."""
