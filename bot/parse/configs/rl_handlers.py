"""The conversions the RL and wrapper trainers' keys need beyond the Hugging Face / LLaMA-Factory ones
(:data:`bot.parse.configs.meaning.CONVERSIONS`): ms-swift's ``--deepspeed zero3`` shorthand and tuner
type, an RL algorithm's name (ms-swift ``--rlhf_type``, verl ``algorithm.adv_estimator``), a boolean
optimizer offload (verl ``optimizer_offload``, OpenRLHF ``--adam_offload``), a quantized base's bits
(ms-swift ``--quant_bits``, OpenRLHF ``--load_in_4bit``) and verl's GPUs per node × nodes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.parse.attention_impl import VALUES as ATTENTION_VALUES
from bot.parse.configs.meaning import SWIFT_PROMPT_BOUNDED
from bot.parse.configs.model import StackConfig
from bot.parse.configs.training import _bool, _deepspeed, _int
from bot.parse.engine_keys import vllm_turned_off
from estimator.later import later

dataset_paths, demo_samples = later(
    "bot.parse.configs.demo_datasets", "dataset_paths", "demo_samples"
)  # on first call: a plain `ask` never calls it (s48-startup)

SWIFT_ZERO = {"zero0": (0, False), "zero1": (1, False), "zero2": (2, False), "zero3": (3, False),
              "zero2_offload": (2, True), "zero3_offload": (3, True)}  # fmt: skip
"""ms-swift's bundled DeepSpeed configs by name (swift/arguments/sft_args.py: 'zero0' … 'zero3_offload';
the offload ones move the optimizer states to CPU memory)."""
RL_TYPES = {"grpo": "grpo", "dpo": "dpo", "kto": "dpo", "orpo": "dpo", "simpo": "dpo", "cpo": "dpo",
            "ppo": "ppo", "gae": "ppo", "rloo": "rloo", "reinforce_plus_plus": "ppo", "gspo": "grpo",
            "dapo": "grpo"}  # fmt: skip
"""An RL algorithm's name → the request's algorithm: ms-swift --rlhf_type (dpo, orpo, simpo, kto, cpo:
preference pairs, sized as DPO; ppo, grpo), verl algorithm.adv_estimator (gae: PPO with a critic; grpo,
rloo; verl/trainer/ppo/core_algos.py AdvantageEstimator)."""
TUNERS = {"lora": "lora", "full": "full", "qlora": "qlora", "longlora": "lora", "adalora": "lora"}
"""ms-swift --train_type (3.x) / --tuner_type (4.x): the tuners it sizes as LoRA or full."""


def _swift_deepspeed(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
    named = SWIFT_ZERO.get(str(value).lower())
    if named is None:
        return _deepspeed(cfg, key, value, flat)  # a path: its name says the stage
    cfg.set(key, "zero_stage", named[0])
    cfg.values["offload"] = named[1]
    return True


def _rl_type(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
    algorithm = RL_TYPES.get(str(value).lower())
    if algorithm is not None:
        cfg.set(key, "algorithm", algorithm)
        if str(value).lower() not in (algorithm, "gae"):  # 'kto' sized as DPO: named (GAE is PPO's own)
            cfg.skip(key, value, "algorithm_family")
        if algorithm == "dpo":  # preference data: a chosen and a rejected sequence per sample
            cfg.values["samples_are_pairs"] = True
    return algorithm is not None


def _tuner(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
    method = TUNERS.get(str(value).lower())
    if method is not None and "method" not in cfg.values:
        cfg.set(key, "method", method)
    elif method is not None:
        cfg.used[key] = "method"
    return method is not None


Handler = Callable[[StackConfig, str, Any, dict[str, Any]], bool]
"""A conversion: (config, key, value, the flattened config) → whether the key was read."""


def _bool_field(name: str) -> Handler:
    """The handler of a boolean key that sets the request field ``name`` to its value (true / false, yes /
    no, 1 / 0: :func:`bot.parse.configs.training._bool`); a value that is no boolean is not read (False).
    s28 tidy: one factory for the five handlers that repeated this per field (:data:`BOOL_FIELDS`)."""

    def handler(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
        on = _bool(value)
        if on is None:
            return False
        cfg.set(key, name, on)
        return True

    handler.__name__ = handler.__qualname__ = f"_bool_{name}"
    return handler


BOOL_FIELDS = {
    "offload_bool": "offload",
    "sleep_bool": "rollout_sleep_mode",
    "packing_bool": "packing",
    "chunked_bool": "chunked_loss",
    "gather_bool": "ds3_gather_for_generation",
}
"""Conversion name → the request field its boolean key sets:

- ``offload_bool``: verl ``optimizer_offload``, OpenRLHF ``--adam_offload`` — the optimizer states in CPU
  memory;
- ``sleep_bool``: TRL ``vllm_enable_sleep_mode`` — true: the colocated vLLM offloads its weights and KV cache
  during the training step (``rollout_sleep_mode``: estimator.colocate takes no share of the card then);
- ``packing_bool``: LLaMA-Factory ``packing`` / ``neat_packing``, TRL ``packing``, axolotl
  ``sample_packing`` — true: samples packed into sequences of the cutoff (the time's tokens), false: padded
  per batch (issue 24);
- ``chunked_bool``: ``use_liger_kernel`` / ``enable_liger_kernel`` — true: Liger's fused linear cross-entropy,
  the loss without the whole fp32 logits (estimator.request_loss); false: the tool's own loss, said;
- ``gather_bool``: TRL / ms-swift ``ds3_gather_for_generation`` — false: the trainer generates on the ZeRO-3
  partitions, no whole policy gathered (estimator.trainer_generation); true: their default, said as stated.
"""


def _param_offload_bool(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
    """verl ``fsdp_config.param_offload``: False keeps the weights on the GPU, as sized (used: no offload
    unless the optimizer's says so); True offloads the parameters, which the sizing does not model
    (named, no_field) — never read as the optimizer offload."""
    on = _bool(value)
    if on is False:
        cfg.values.setdefault("offload", False)
        cfg.used[key] = "offload"
    elif on:
        cfg.skip(key, value, "no_field")
    return on is not None


def _bits(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
    """4 bits (or a bare flag) → QLoRA on NF4; 8 → 8-bit QLoRA; on a full fine-tune: named."""
    bits = 4 if _bool(value) is True else _int(value)
    if bits not in (4, 8):
        return _bool(value) is False
    if cfg.values.get("method") == "full":
        cfg.skip(key, value, "no_field")
        return True
    cfg.set(key, "method", "qlora")
    if bits == 8:
        cfg.values["precision"] = "int8"
    return True


def _gpu_product(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
    """verl ``trainer.n_gpus_per_node`` × ``trainer.nnodes`` (default 1): the GPUs of the run."""
    per, nodes = _int(flat.get("trainer.n_gpus_per_node")), _int(flat.get("trainer.nnodes", 1))
    if _int(value) is None:
        return False
    if per and nodes:
        cfg.set(key, "gpu_count", per * nodes)
    else:
        cfg.skip(key, value, "no_field")
    return True


ACTOR_NODES = ("actor_num_nodes", "actor.num_nodes")
ACTOR_PER_NODE = ("actor_num_gpus_per_node", "actor.num_gpus_per_node")
"""OpenRLHF's actor placement flags, before and after v0.10's dotted groups (defaults 1 node, 8 GPUs:
openrlhf/cli/train_ppo_ray.py)."""


def _actor_gpus(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
    """OpenRLHF ``--actor_num_nodes`` × ``--actor_num_gpus_per_node`` (defaults 1 and 8): the GPUs the
    policy trains on, the run's GPU count, with the GPUs per node (trial s11 item 4)."""
    if _int(value) is None:
        return False
    nodes = next((flat[k] for k in ACTOR_NODES if k in flat), 1)
    per = next((flat[k] for k in ACTOR_PER_NODE if k in flat), 8)
    if _int(nodes) is None or _int(per) is None:  # the pair's other flag was read already (prose reader)
        cfg.used[key] = "gpu_count"
        return True
    nodes, per = _int(nodes), _int(per)
    cfg.set(key, "gpu_count", nodes * per)
    cfg.values["gpus_per_node"] = per
    return True


def _placement(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
    """OpenRLHF's vLLM engines and reference / critic / reward placement: GPUs beside the actor's, which
    the sizing has no field for (the rollouts are timed on the actor's GPUs): named, never a run count."""
    if _int(value) is None:
        return False
    cfg.skip(key, value, "no_field")
    return True


OPENRLHF_ENTRIES = {"train_ppo_ray": "ppo", "train_dpo": "dpo", "train_kto": "dpo", "train_sft": "sft"}
"""OpenRLHF's entry points (openrlhf/cli/train_*.py) → the algorithm each trains; ``--advantage_estimator
group_norm`` in train_ppo_ray is GRPO (its README's GRPO recipe)."""


def openrlhf_entry(script: str, flat: dict[str, Any], cfg: StackConfig) -> None:
    """What an OpenRLHF command says beyond its flags: the algorithm of its entry point, and vLLM as the
    rollout engine when it starts vLLM engines (``--vllm_num_engines N``)."""
    algorithm = OPENRLHF_ENTRIES.get(script.rsplit(".", 1)[-1])
    if algorithm == "ppo" and str(flat.get("advantage_estimator", "")).lower() == "group_norm":
        algorithm = "grpo"
    if algorithm is not None:
        cfg.values.setdefault("algorithm", algorithm)
    if algorithm == "dpo":
        cfg.values["samples_are_pairs"] = True
    if _int(flat.get("vllm_num_engines")):
        cfg.values["runtime"] = "vLLM"
        cfg.used["vllm_num_engines"] = "runtime"
        flat.pop("vllm_num_engines")


def _swift_max_length(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
    """ms-swift ``--max_length``: the whole sample, but in GRPO/PPO/GKD the prompt's bound, so the RL
    sequence sized is it + the stated completion (``max_completion_length`` or ``max_new_tokens``); with
    none, the bound is the prompt (``prompt_tokens``) and ms-swift's 512 is assumed in the estimator."""
    n = _int(value)
    if n is None:
        return False
    if str(flat.get("rlhf_type", "")).lower() in SWIFT_PROMPT_BOUNDED:
        keys = ("max_completion_length", "max_new_tokens")
        completion = next((c for k in keys if (c := _int(flat.get(k))) is not None), None)
        if completion is None:  # the prompt's bound: ms-swift's completion is assumed in estimator.rollout
            cfg.set(key, "prompt_tokens", n)
            return True
        n += completion
    cfg.set(key, "seq_len", n)
    return True


def _rollout_switch(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
    """TRL / ms-swift ``use_vllm``: true → the rollout engine is vLLM (runtime); false → generated by the
    trainer itself, named as timed like vLLM (rollout_as_vllm), as the prose reads 'use_vllm false'."""
    text = str(value).lower()
    if text not in ("true", "1", "yes", "on", "false", "0", "no", "off"):
        return False
    if vllm_turned_off({key.split(".")[-1]: value}):
        cfg.skip(key, value, "rollout_as_vllm")
    else:
        cfg.set(key, "runtime", "vLLM")
        if cfg.tool == "trl" and not any(k.split(".")[-1] == "vllm_mode" for k in flat):
            cfg.skip(key, value, "vllm_server_default")  # how the engine is sized, said (trial s18 #4)
    return True


def _vllm_mode(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
    """TRL ``vllm_mode``: 'colocate' → the rollout engine shares the training GPUs (rollout_colocated, its
    share counted against training memory: estimator.colocate); 'server' → a vLLM server of its own."""
    mode = str(value).strip().strip("'\"").lower()
    if mode not in ("colocate", "server"):
        return False
    cfg.set(key, "rollout_colocated", mode == "colocate")
    return True


def _kl_beta(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
    """TRL ``beta`` (GRPO/RLOO/DPO's KL coefficient): a number ≥ 0, used — 0 loads no reference model, more
    loads one (estimator.rl_reference; s26 trial #6: 'beta: 0.04' was named as not changing the sizing)."""
    try:
        beta = float(value)
    except (TypeError, ValueError):
        return False
    if not 0 <= beta <= 100:
        return False
    cfg.set(key, "kl_beta", beta)
    return True


VERL_KL = (("actor_rollout_ref.actor.use_kl_loss", "actor_rollout_ref.actor.kl_loss_coef"),
           ("algorithm.use_kl_in_reward", "algorithm.kl_ctrl.kl_coef"))  # fmt: skip
"""verl's two KL terms, (switch, coefficient) each: a reference model when either switch is true
(estimator.rl_reference, verl/trainer/ppo/utils.py ``need_reference_policy``)."""


def _verl_kl(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
    """verl's KL switches and coefficients, read together as one coefficient: the coefficient of a switch
    that is on (its own default 0.001 when none is given: estimator.rl_reference.VERL_KL_LOSS_COEF), 0
    when both are off — no reference model is built then."""
    read = _float(value) if key.endswith("coef") else _bool(value)
    if read is None:
        return False
    on = [_float(flat.get(coef, 0.001)) for switch, coef in VERL_KL if _bool(flat.get(switch)) is True]
    cfg.set(key, "kl_beta", max((c for c in on if c is not None), default=0.0))
    return True


def _float(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _samples_cap(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
    """LLaMA-Factory ``max_samples``: "For debugging purposes, truncate the number of examples for each
    dataset" (src/llamafactory/hparams/data_args.py) — at most that many samples, sized as the count; with
    a ``dataset`` named (a file or hub name whose size the sizing cannot read) it is said to be the cap,
    not the dataset's size (trial s27 #4)."""
    count = _int(value)
    if count is None:
        return False
    demos = demo_samples(flat["dataset"], count) if flat.get("dataset") and cfg.tool in _LF else None
    if demos is not None:  # LLaMA-Factory's own demo files: min(rows, cap) each (s35 #3)
        cfg.set(key, "num_samples", demos)
        if demos == demo_samples(flat["dataset"], None):  # no file holds more: the cap truncates nothing
            cfg.skip(key, value, "cap_above_rows")
        return True
    cfg.set(key, "num_samples", count)
    if flat.get("dataset"):
        cfg.skip(key, value, "samples_cap")  # used, and said to be the cap
    return True


_LF = ("llamafactory", "inline")
"""Configs whose ``dataset`` may name LLaMA-Factory's demo files: its own, and keys written in prose (the
demo names are LLaMA-Factory's: data/dataset_info.json)."""


def _demo_rows(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
    """LLaMA-Factory ``dataset`` naming only its demo files (:mod:`bot.parse.configs.demo_datasets`): their
    rows are the samples (min(rows, max_samples) each, with the cap: :func:`_samples_cap`), said; any other
    name, or another tool's key, does not size the run (not_sized, as before)."""
    cap = _int(flat.get("max_samples")) if flat.get("max_samples") is not None else None
    demos = demo_samples(value, cap) if cfg.tool in _LF else None
    if demos is None:  # a Hub dataset or the user's file: its size is not read here (s36 fixc #1)
        echo = dataset_paths(value)
        cfg.skip(key, echo or value, "not_sized" if cap else "dataset_size_unknown")
        return True
    if cap is None:
        cfg.set(key, "num_samples", demos)
    cfg.skip(key, value, "demo_rows")  # used, and said: the rows of the demo file
    return True


def _output_adapter(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
    """torchtune ``apply_lora_to_output`` (torchtune/models/llama3_1/_component_builders.py lora_llama3_1:
    a LoRALinear on the final ``output`` projection): false changes nothing (not_sized); true adds an
    adapter the sizing has no target for (no_field), said (s36 fixc #2)."""
    on = _bool(value)
    if on is None:
        return False
    cfg.skip(key, value, "no_field" if on else "not_sized")
    return True


_AXOLOTL_ATTN = {"eager_attention": "eager", "sdp_attention": "sdpa", "flash_attention": "flash_attention_2"}


def _attn_impl(cfg: StackConfig, key: str, value: Any, flat: dict[str, Any]) -> bool:
    """The training run's attention (``attention_implementation``; s42 eager, :mod:`bot.parse.attention_impl`
    has the sources): transformers ``attn_implementation`` and LLaMA-Factory ``flash_attn`` by value
    (disabled/off → eager, sdpa, fa2 → flash_attention_2; LLaMA-Factory's early boolean ``flash_attn``: true →
    FlashAttention-2, false → its default, not sized); axolotl's ``eager_attention`` / ``sdp_attention`` /
    ``flash_attention`` true → that one, false → nothing set (the loader falls back to transformers'
    default, SDPA), not sized. Any other value (flash_attention_3, flex_attention) is not read."""
    name = key.split(".")[-1].lstrip("-")
    on = _bool(value) if name in _AXOLOTL_ATTN or isinstance(value, bool) else None
    if on is not None:
        if on:
            cfg.set(key, "attention_implementation", _AXOLOTL_ATTN.get(name, "flash_attention_2"))
        else:
            cfg.skip(key, value, "not_sized")
        return True
    impl = ATTENTION_VALUES.get(str(value).strip().strip("'\"").lower())
    if impl is None:
        return False
    cfg.set(key, "attention_implementation", impl)
    return True


RL_HANDLERS = {
    "swift_max_length": _swift_max_length, "swift_deepspeed": _swift_deepspeed,
    "rl_type": _rl_type, "tuner": _tuner, "vllm_mode": _vllm_mode,
    "bits": _bits, "gpu_product": _gpu_product,
    "param_offload_bool": _param_offload_bool, "actor_gpus": _actor_gpus,
    "placement": _placement, "rollout_switch": _rollout_switch, "kl_beta": _kl_beta,
    "verl_kl": _verl_kl, "samples_cap": _samples_cap, "demo_rows": _demo_rows,
    "output_adapter": _output_adapter, "attn_impl": _attn_impl,
    **{conversion: _bool_field(field) for conversion, field in BOOL_FIELDS.items()},
}  # fmt: skip
"""Conversion name → handler (:data:`bot.parse.configs.training.HANDLERS` dispatches through these)."""
