"""Explanations the estimator writes into the assumption ledger, marked for translation.

The estimator stays language-free (design §2): it records these English sentences as the ``source``
(or value) of an Assumption. The renderer looks each one up in the gettext catalog (whole, or split
at "; ") and shows the translation where there is one; citations (papers, model configs, price
sources) stay as written. tests/test_i18n.py checks that every default's text is translated.
"""

from bot.render.i18n import N_

LEDGER_TEXTS = (
    N_("planning window when none is given (one month of training)"),
    N_("typical pre-training context (Llama 2/3: 4,096/8,192)"),
    N_("typical SFT sample length (Alpaca/Vicuna recipes: 2,048)"),
    N_("micro-batch of 1 sequence per GPU (memory-minimal; gradient accumulation for the rest)"),
    N_(
        "typical instruction-tuning sample: Alpaca's 52k examples average ≈ 270 tokens, ShareGPT conversations ≈ 1,000+; 512 is a stated middle (Taori et al. 2023; Zheng et al. 2023, Vicuna)"
    ),
    N_("one pass over the data when epochs are not given"),
    N_("LoRA rank 16 on all linear layers of attention and MLP (common PEFT recipe; Hu et al. 2021)"),
    N_(
        "context per sequence (prompt + output) when none is given: 4k covers typical chat turns; never the model's maximum window"
    ),
    N_("concurrent sequences when none is given (a small team's chat service)"),
    N_("a personal machine (a GeForce card or a Mac, or GGUF weights): one sequence at a time when none is given"),
    N_("GPU memory counted as cards are sold: '80GB' is 80 GiB (HBM/GDDR sizes are binary)"),
    N_("vLLM default gpu_memory_utilization = 0.9"),
    N_("CUDA context and library workspaces ≈ 1 GiB per GPU (observed, PyTorch/NCCL)"),
    N_("allocator fragmentation: allocated memory + 8 % (observed in PyTorch training)"),
    N_(
        "CUDA context and library workspaces ≈ 1 GiB per GPU (observed, PyTorch/NCCL); allocator fragmentation: allocated memory + 8 % (observed in PyTorch training)"
    ),
    N_("Hoffmann et al. 2022 (Chinchilla): D ≈ 20·N compute-optimal"),
    N_("reference GPU when none is named (the seed article's A100 80GB)"),
    N_("tokens or a budget were given: a training question"),
    N_("no data size given: sized as serving"),
    N_("full-parameter fine-tuning unless LoRA/QLoRA is named"),
    N_(
        "derived: LoRA/QLoRA need no weight gradients for frozen weights (4ND); DPO/GRPO/PPO add reference, reward and generation forward passes (2ND each)"
    ),
    N_("compute-optimal size for this data: N = D / 20 (Hoffmann et al. 2022)"),
    N_("weights as released by the model's authors"),
    N_("the largest model the budget trains on this data: N = budget ÷ price × peak × MFU × 3600 ÷ (6·D)"),
    N_(
        "the released weights don't fit well on the GPUs you named; local runtimes (llama.cpp, Ollama, MLX) run quantized weights: Q8_0 is near-lossless, Q4_K_M (Ollama's default) trades a little quality"
    ),
    N_("llama.cpp has no utilization cap: all memory but the CUDA context"),
    N_(
        "MLA's latent KV cache kept once per sequence: attention runs data-parallel across the TP group (SGLang --enable-dp-attention; DeepSeek-V3 report §3.4); plain tensor parallelism keeps a copy on every GPU and fits about 1/TP as many sequences"
    ),
    N_(
        "activations of one forward pass and the sampler's logits, as vLLM profiles them (max_num_batched_tokens 2,048 / max_num_seqs 256; 8,192 / 1,024 on 70 GB+ cards other than A100)"
    ),
    N_("llama.cpp's compute buffer: one n_ubatch of 512 tokens and one sequence's logits"),
    N_(
        "the chip you named with the memory you named; bandwidth and compute of its top configuration (smaller M3/M4 Max configurations have less bandwidth: decode may be slower)"
    ),
    N_(
        "unified memory: the GPU's default working set (Metal recommendedMaxWorkingSetSize: ≈ 75 % with 64 GB or more, 2/3 below; raise with `sudo sysctl iogpu.wired_limit_mb`)"
    ),
    N_(
        "Llama-style shape interpolated from the catalog's dense Llama/Qwen releases (estimator.architecture.shape_for_size)"
    ),
    N_(
        "calibrated band: ×0.847–×1.694 of the likely GPU-hours (coverage: 67 % (held-out published runs), 81 % (all 32 runs); sizing-bot validate)"
    ),
    N_("A100-class, ≥ 7B: the seed's 40 % (Llama 2 on A100: 35–51 %)"),
    N_("A100-class below 7B: 40 % × (N/7B)^0.09 (Pythia on A100: 22–34 %)"),
    N_("H100-class (fitted on H100/H800 runs): 28 % at 30B and up, less below (Llama 3 70B 26–28 %)"),
    N_("V100: GPT-3's 21 % (PaLM Table 3)"),
    N_("no published runs on this class: 30 % (PaLM on TPU v4 ≈ 30 %), not calibrated"),
    N_("MoE counted on active parameters"),
    N_("calibrated on published runs (estimator.calibration)"),
    N_("the fastest catalog card with the memory you named"),
    N_("a card with the memory you named; compute and bandwidth of an A100"),
    N_("this chat's /settings"),
    N_("the conversation's language"),
    N_("AdamW (mixed precision, 16 B/param)"),
    N_("AdamW on adapters"),
    N_("paged 8-bit AdamW on adapters"),
    N_("a reasoning model writes long chains of thought: its model card's generation length"),
)
