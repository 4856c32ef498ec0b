"""Measure peak GPU memory of real fine-tuning steps on randomly initialised models (device machine only).

Each case builds a model from a real config's shapes (the same values as estimator/data/models/*.toml, which
cite the Hugging Face config.json they were read from), runs two optimizer steps on random token ids with
`labels = input_ids` (Hugging Face causal-LM loss), and records `torch.cuda.max_memory_allocated` and
`max_memory_reserved` (GiB) plus the CUDA context measured before the first allocation. Nothing here is
fitted: `bench/device/compare.py` sets the estimator's band beside these figures. Never imported by the
package.

Usage on the device machine: `python3 bench/device/finetune_memory.py $OUT/finetune_memory.json [edge]`.
"""

import gc
import json
import os
import sys
import time

import torch
import transformers
from transformers import AutoModelForCausalLM, LlamaConfig, Qwen2Config

GIB = 2**30

OPTIMIZERS = {"fused": {"fused": True}, "foreach": {"foreach": True, "fused": False}, "default": {}}
"""torch.optim.AdamW variants: fused (one kernel, no temporaries), foreach (list ops: a step allocates
fp32 temporaries the size of the parameter group), default (torch's own choice for CUDA tensors)."""
OPTIMIZER = os.environ.get("ADAMW", "fused")
OPTIMIZER_KW = OPTIMIZERS[OPTIMIZER]

# Shapes from the models' config.json (estimator/data/models/qwen.toml, llama.toml cite them).
SHAPES = {
    "Qwen2.5-1.5B": (
        Qwen2Config,
        dict(
            num_hidden_layers=28,
            hidden_size=1536,
            num_attention_heads=12,
            num_key_value_heads=2,
            intermediate_size=8960,
            vocab_size=151936,
            tie_word_embeddings=True,
        ),
    ),
    "Qwen2.5-3B": (
        Qwen2Config,
        dict(
            num_hidden_layers=36,
            hidden_size=2048,
            num_attention_heads=16,
            num_key_value_heads=2,
            intermediate_size=11008,
            vocab_size=151936,
            tie_word_embeddings=True,
        ),
    ),
    "Qwen2.5-7B": (
        Qwen2Config,
        dict(
            num_hidden_layers=28,
            hidden_size=3584,
            num_attention_heads=28,
            num_key_value_heads=4,
            intermediate_size=18944,
            vocab_size=152064,
            tie_word_embeddings=False,
        ),
    ),
    "Llama-3.1-8B": (
        LlamaConfig,
        dict(
            num_hidden_layers=32,
            hidden_size=4096,
            num_attention_heads=32,
            num_key_value_heads=8,
            intermediate_size=14336,
            vocab_size=128256,
            tie_word_embeddings=False,
        ),
    ),
    "Qwen2.5-32B": (
        Qwen2Config,
        dict(
            num_hidden_layers=64,
            hidden_size=5120,
            num_attention_heads=40,
            num_key_value_heads=8,
            intermediate_size=27648,
            vocab_size=152064,
            tie_word_embeddings=False,
        ),
    ),
    "Qwen2.5-14B": (
        Qwen2Config,
        dict(
            num_hidden_layers=48,
            hidden_size=5120,
            num_attention_heads=40,
            num_key_value_heads=8,
            intermediate_size=13824,
            vocab_size=152064,
            tie_word_embeddings=False,
        ),
    ),
}

# (model, method, seq_len, micro_batch, gradient_checkpointing); cheap first, the riskiest last.
CASES = [
    ("Qwen2.5-7B", "lora", 512, 1, True),
    ("Qwen2.5-7B", "lora", 2048, 1, True),
    ("Qwen2.5-7B", "lora", 8192, 1, True),
    ("Qwen2.5-7B", "lora", 2048, 4, True),
    ("Qwen2.5-7B", "lora", 2048, 1, False),
    ("Llama-3.1-8B", "lora", 2048, 1, True),
    ("Llama-3.1-8B", "lora", 4096, 2, False),
    ("Qwen2.5-14B", "lora", 2048, 1, True),
    ("Qwen2.5-14B", "lora", 4096, 1, False),
    ("Qwen2.5-1.5B", "full", 2048, 1, True),
    ("Qwen2.5-1.5B", "full", 2048, 4, False),
    ("Qwen2.5-3B", "full", 2048, 1, True),
    ("Qwen2.5-3B", "full", 4096, 2, True),
    ("Qwen2.5-7B", "full", 512, 1, True),
    ("Qwen2.5-7B", "full", 2048, 1, True),
]

# Second set: near the card's limit and past it (an OOM is a reading too).
CASES_EDGE = [
    ("Qwen2.5-7B", "lora", 16384, 1, True),
    ("Qwen2.5-7B", "lora", 32768, 1, True),
    ("Qwen2.5-14B", "lora", 8192, 2, True),
    ("Qwen2.5-32B", "lora", 4096, 1, True),
    ("Qwen2.5-32B", "lora", 2048, 2, False),
    ("Qwen2.5-3B", "full", 8192, 1, False),
    ("Qwen2.5-7B", "full", 4096, 2, True),
    ("Qwen2.5-7B", "full", 2048, 2, False),
    ("Llama-3.1-8B", "full", 2048, 1, True),
    ("Qwen2.5-14B", "full", 512, 1, True),
]


def build(name: str, method: str) -> torch.nn.Module:
    cls, kw = SHAPES[name]
    cfg = cls(**kw, max_position_embeddings=32768, attn_implementation="sdpa", use_cache=False)
    # LoRA: bf16 frozen base (PEFT on a bf16 model); full: fp32 master weights under bf16 autocast
    # (Hugging Face Trainer with bf16=True on a model loaded in fp32).
    dtype = torch.bfloat16 if method == "lora" else torch.float32
    with torch.device("cuda"):
        model = AutoModelForCausalLM.from_config(cfg, dtype=dtype)
    if method == "lora":
        from peft import LoraConfig, get_peft_model

        model = get_peft_model(
            model, LoraConfig(r=16, lora_alpha=32, target_modules="all-linear", lora_dropout=0.0)
        )
    return model


def run_case(name: str, method: str, seq: int, batch: int, gc_on: bool) -> dict:
    model = build(name, method)
    if gc_on:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        if method == "lora":
            model.enable_input_require_grads()
    model.train()
    params = [p for p in model.parameters() if p.requires_grad]
    n_train = sum(p.numel() for p in params)
    n_total = sum(p.numel() for p in model.parameters())
    opt = torch.optim.AdamW(params, lr=1e-5, **OPTIMIZER_KW)
    torch.cuda.synchronize()
    weights_gib = torch.cuda.memory_allocated() / GIB
    torch.cuda.reset_peak_memory_stats()
    vocab = model.config.vocab_size
    t0 = time.time()
    for _ in range(2):
        ids = torch.randint(0, vocab, (batch, seq), device="cuda")
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=(method == "full")):
            loss = model(input_ids=ids, labels=ids).loss
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    torch.cuda.synchronize()
    out = {
        "weights_gib": round(weights_gib, 3),
        "peak_allocated_gib": round(torch.cuda.max_memory_allocated() / GIB, 3),
        "peak_reserved_gib": round(torch.cuda.max_memory_reserved() / GIB, 3),
        "params_total": n_total,
        "params_trainable": n_train,
        "seconds_two_steps": round(time.time() - t0, 2),
    }
    del model, opt, params
    return out


def _trainer_default_optim() -> str:
    """What Hugging Face TrainingArguments picks when `optim` is not set, on this torch/transformers."""
    try:
        from transformers import TrainingArguments

        return str(TrainingArguments(output_dir="/tmp/x").optim)
    except Exception as exc:
        return f"unknown ({type(exc).__name__})"


def main(path: str, cases: list) -> None:
    torch.cuda.init()
    torch.zeros(1, device="cuda")
    free, total = torch.cuda.mem_get_info()
    meta = {
        "gpu": torch.cuda.get_device_name(0),
        "total_gib": round(total / GIB, 3),
        "context_gib": round((total - free) / GIB, 3),
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "attention": "sdpa",
        "optimizer": f"torch.optim.AdamW({OPTIMIZER_KW})",
        "optimizer_variant": OPTIMIZER,
        "trainer_default_optim": _trainer_default_optim(),
        "lora": "PEFT r=16 alpha=32 all-linear",
    }
    rows = []
    for name, method, seq, batch, gc_on in cases:
        row = {
            "model": name,
            "method": method,
            "seq_len": seq,
            "micro_batch": batch,
            "gradient_checkpointing": gc_on,
        }
        try:
            row.update(run_case(name, method, seq, batch, gc_on))
            row["outcome"] = "ran"
        except torch.cuda.OutOfMemoryError as exc:
            row["outcome"] = "oom"
            row["error"] = str(exc)[:300]
        except Exception as exc:
            row["outcome"] = "error"
            row["error"] = f"{type(exc).__name__}: {exc}"[:300]
        gc.collect()
        torch.cuda.empty_cache()
        rows.append(row)
        print(json.dumps(row), flush=True)
        with open(path, "w") as fh:
            json.dump({"meta": meta, "rows": rows}, fh, indent=1)
    print(json.dumps(meta))


if __name__ == "__main__":
    chosen = {"edge": CASES_EDGE, "full": [c for c in CASES + CASES_EDGE if c[1] == "full"]}
    main(sys.argv[1], chosen.get(sys.argv[2] if sys.argv[2:] else "", CASES))
