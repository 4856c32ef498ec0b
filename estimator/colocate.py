"""The RL rollout engine on the training GPUs (trial s16 #2): TRL ``GRPOConfig(use_vllm=True,
vllm_mode="colocate")`` runs vLLM in the training process, on the same cards ("vLLM will run in the same
process and share the training GPUs"), and takes ``vllm_gpu_memory_utilization`` of each card's memory
for its weights and KV cache (TRL's default 0.3, "only used when vllm_mode is colocate":
trl/trainer/grpo_config.py @006d32c9). The training plan then has the rest of each card: a 3B GRPO
plan of 29.1 GiB per A100 40G was declared to fit while vLLM held 12 GiB of the same card.

``vllm_mode="server"`` (TRL's default) runs vLLM as its own server (``trl vllm-serve``) on GPUs apart
from training: nothing is taken from the training cards. verl, OpenRLHF and ms-swift colocate their
engines with sleep / offload between the phases, so only TRL (or no tool named) is sized here.

``vllm_enable_sleep_mode=True`` (TRL, default False): "Enable vLLM sleep mode to offload weights/cache during
the optimizer step. Keeps GPU memory usage low, but waking the engine adds host–device transfer latency"
(trl/trainer/grpo_config.py @006d32c9). TRL documents nothing that stays resident, so the training plan
keeps the whole card; the ledger says so (``rollout_sleep_mode``).
"""

from __future__ import annotations

from estimator.copying import replace
from estimator.ledger import Ledger
from estimator.models import Algorithm, SizingRequest
from estimator.reasons import Why
from estimator.resolve import Resolved

TRL_COLOCATE_SHARE = 0.3
"""TRL ``GRPOConfig.vllm_gpu_memory_utilization`` default: the colocated vLLM engine's share of each GPU
(trl/trainer/grpo_config.py @006d32c9, "Parameters that control colocated vLLM execution")."""
TRL_SOURCE = "TRL trl/trainer/grpo_config.py (GRPOConfig.vllm_gpu_memory_utilization = 0.3)"
_RL = frozenset({Algorithm.grpo, Algorithm.rloo, Algorithm.ppo})


def colocated(req: SizingRequest) -> bool:
    """Whether the RL rollout engine shares the training GPUs as TRL colocates it (module doc)."""
    tool = (req.training_tool or "TRL").upper()
    return bool(req.rollout_colocated) and req.algorithm in _RL and tool == "TRL"


def engine_share(req: SizingRequest, ledger: Ledger | None = None) -> float | None:
    """The engine's share of each GPU, 0 < x ≤ 1: the user's, else TRL's colocate default
    (:data:`TRL_COLOCATE_SHARE`, said as assumed in ``ledger``) when colocated, else None (the runtime's
    own default, vLLM 0.9, applies: a server of its own)."""
    if req.rollout_gpu_memory_utilization or not colocated(req):
        return req.rollout_gpu_memory_utilization
    if ledger is not None:
        ledger.assume(
            "rollout_gpu_memory_utilization", TRL_COLOCATE_SHARE, Why.trl_colocate_share, citation=TRL_SOURCE
        )
    return TRL_COLOCATE_SHARE


def beside_engine(req: SizingRequest, r: Resolved, ledger: Ledger) -> Resolved:
    """``r`` with each card's memory less the colocated engine's share (bytes = share × the card's
    memory, as vLLM's gpu_memory_utilization counts it), for the training plan; a ``rollout_colocated``
    note with the figures. ``r`` unchanged when the engine has GPUs of its own, or sleeps during training
    (``rollout_sleep_mode``: a ``rollout_sleep_mode`` note names the share not taken)."""
    share = engine_share(req)
    _note_trainer_generate(req, r, ledger)
    if req.rollout_colocated is False and req.algorithm in _RL and req.gpu_count:  # TRL server mode
        ledger.note("rollout_server", gpu_count=req.gpu_count)
    if share is None or not colocated(req):
        return r
    gpu = r.gpu
    total = gpu.visible_gib  # ECC on: nvidia-smi's memory.total
    if req.rollout_sleep_mode:  # TRL sleep mode: vLLM's weights and KV cache leave the card while training
        ledger.note("rollout_sleep_mode", share=share, gpu=gpu.name, engine_gib=total * share)
        return r
    left = total * (1.0 - share)
    ledger.note(
        "rollout_colocated",
        share=share,
        gpu=gpu.name,
        engine_gib=total * share,
        left_gib=left,
        total_gib=total,
    )
    return replace(r, gpu=gpu.model_copy(update={"memory_gib": max(left, 0.01), "ecc_visible_mib": None}))


ENGINE_NOTES = {"verl": "rollout_verl_not_modelled", "OpenRLHF": "rollout_openrlhf_apart"}
"""A named tool's own rollout engine, named as not counted (s37 grpo #1): verl's vLLM/SGLang takes
``actor_rollout_ref.rollout.gpu_memory_utilization`` 0.5 of each card while it generates and frees its KV
cache for the training step (``free_cache_engine: True``; volcengine/verl@b178a3cd
verl/trainer/config/rollout/rollout.yaml L32, L47); OpenRLHF's vLLM engines
(``--vllm.num_engines`` × ``--vllm.tensor_parallel_size``, ``--vllm.gpu_memory_utilization`` 0.95) run on
GPUs of their own unless ``--train.colocate_all`` (OpenRLHF@3c3be623 openrlhf/cli/train_ppo_ray.py
L224–254)."""


def _note_trainer_generate(req: SizingRequest, r: Resolved, ledger: Ledger) -> None:
    """With no tool nor engine named, an RL job is sized on TRL's default path (s37 grpo #1:
    ``GRPOConfig.use_vllm`` False, trl/trainer/grpo_config.py @f2cd5771 L577–583: the policy's own
    ``model.generate``, :mod:`estimator.trainer_generation`): a ``trainer_generate_assumed`` note says so,
    with what vLLM colocate (:data:`TRL_COLOCATE_SHARE` of each card, L646–653) or server mode (GPUs of its
    own, L584–592) would change."""
    if req.algorithm not in _RL:
        return
    if req.training_tool in ENGINE_NOTES and not (
        req.rollout_gpu_memory_utilization or req.rollout_colocated
    ):
        ledger.note(ENGINE_NOTES[req.training_tool], gpu=r.gpu.name)
        return
    if req.training_tool:
        return
    from estimator.trainer_decode import generates_in_trainer

    if generates_in_trainer(req):
        total = r.gpu.visible_gib
        if req.algorithm == Algorithm.ppo:  # TRL's PPOTrainer: generate only, no use_vllm (s39 fixz #4)
            ledger.note("trainer_generate_assumed_ppo", gpu=r.gpu.name)
            return
        ledger.note(
            "trainer_generate_assumed",
            share=TRL_COLOCATE_SHARE,
            gpu=r.gpu.name,
            engine_gib=total * TRL_COLOCATE_SHARE,
        )
