"""What a named training tool can run (issue 24 item 3): the layouts its code supports and its own
memory savings. The layout search (:mod:`estimator.layouts`) keeps to them; the plan's alternatives
name what another stack would allow (``other_stack``: Megatron-LM's TP/PP/SP/EP).

Sources, per tool:

* Hugging Face ``Trainer`` and TRL (``SFTTrainer``, ``DPOTrainer``, ``GRPOTrainer``): data parallel
  through Accelerate — DDP, DeepSpeed ZeRO 1–3 or FSDP (transformers ``TrainingArguments.deepspeed`` /
  ``fsdp``); no tensor or pipeline parallelism of the model code.
* LLaMA-Factory: the HF ``Trainer`` with DeepSpeed ZeRO or FSDP (``examples/deepspeed/ds_z3_config.json``,
  ``examples/accelerate/fsdp_config.yaml``); its README has no TP/PP training.
* axolotl: DeepSpeed ZeRO or FSDP on the HF ``Trainer`` (``deepspeed_configs/zero3_bf16.json``,
  ``examples/*/fsdp``).
* ms-swift (its ``swift sft`` path): the HF ``Trainer`` with DeepSpeed ZeRO (``--deepspeed zero3``);
  its Megatron path is named ``megatron`` and is Megatron-LM.
* Unsloth (open source): the whole model on one GPU — its trainer patch raised on more than one
  (unslothai/unsloth unsloth/models/_utils.py and llama.py, ``get_max_steps``: ``if
  training_args.world_size > 1: raise RuntimeError('Unsloth currently does not support multi GPU
  setups …')``, and the start-of-training check on every GPU's used memory, ``if ((a - PRE_CHECK) >=
  1).sum() > 1``); its later DDP guide (unsloth.ai docs, basics/multi-gpu-training-with-unsloth/ddp)
  runs a whole copy on each GPU. It never shards the model (no ZeRO-3 / FSDP of its patched model):
  :attr:`shards_model`; the alternatives name another stack that does (:data:`SHARDING_STACKS`). Its
  own savings: the loss computed in chunks without a full
  fp32 logits copy (unsloth ``fused_linear_cross_entropy`` / Cut Cross Entropy) — :attr:`chunked_loss`.
* OpenRLHF: the trained models (actor, critic, reward, reference) on DeepSpeed ZeRO 0–3
  (openrlhf/cli/train_ppo_ray.py ``--zero_stage``, ``--adam_offload``; openrlhf/utils/deepspeed), the
  rollouts in a vLLM engine with its own tensor parallelism (``--vllm_tensor_parallel_size``); no tensor
  or pipeline parallelism of the trained model (OpenRLHF/OpenRLHF@v0.9.0, the meaning table's source).
* verl: FSDP workers by default (``actor_rollout_ref.actor.strategy: fsdp`` in
  verl/trainer/config/ppo_trainer.yaml; FSDP FULL_SHARD = ZeRO-3, :attr:`default_zero`): data parallel
  only (s12 trial B4: a ``fsdp_config`` script was planned at TP 4); its Megatron-LM workers take the
  TP/PP the user states. Its rollout generates the whole step at once (:attr:`whole_step_rollout`).
* Megatron-LM and NeMo: tensor, pipeline, sequence and expert parallelism (Megatron-LM
  ``--tensor-model-parallel-size``, ``--pipeline-model-parallel-size``, ``--sequence-parallel``,
  ``--expert-model-parallel-size``): the full search.
* The Megatron family (s41 fixtrain #3), the same search and Megatron's layers: MindSpeed-LLM, Ascend's
  Megatron-LM port (gitee.com/ascend/MindSpeed-LLM, formerly ModelLink: ``--tensor-model-parallel-size``,
  ``--pipeline-model-parallel-size``, ``--sequence-parallel`` in its examples/mcore scripts, on MindSpeed's
  Megatron-Core patches); Megatron-DeepSpeed (deepspeedai/Megatron-DeepSpeed, Megatron-LM's fork with
  DeepSpeed's ZeRO and pipeline engine: the same TP/PP/SP arguments); Pai-Megatron-Patch
  (alibaba/Pai-Megatron-Patch: Megatron-Core training of Hugging Face models, its examples' ``TP``/``PP``/
  ``EP``/``SP`` script arguments); s48 round 44: Ascend's multimodal and RL suites on the same Megatron
  layers, each by its own name (gitee.com/ascend/MindSpeed-MM, gitee.com/ascend/MindSpeed-RL; before, both
  were named MindSpeed-LLM). :data:`MEGATRON_FAMILY` names them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from estimator.reasons import Why
from estimator.request import Method, Stage

if TYPE_CHECKING:
    from estimator.ledger import Ledger
    from estimator.request import SizingRequest


class ToolLimits(NamedTuple):
    """What one training tool allows."""

    data_parallel_only: bool
    """Only data parallelism (DDP, ZeRO 0–3, FSDP = ZeRO-3): no TP, PP or EP."""
    chunked_loss: bool = False
    """The tool computes the loss in chunks (no full fp32 logits copy)."""
    whole_step_rollout: bool = False
    """The rollout generates a whole step's batch at once: ``global_batch`` prompts × ``num_generations``
    completions over all the GPUs (verl: ``data.train_batch_size`` × ``actor_rollout_ref.rollout.n``,
    verl/trainer/ppo/ray_trainer.py ``gen_batch.repeat(repeat_times=…rollout.n)`` then
    ``generate_sequences``, volcengine/verl@b178a3c), not TRL's completions per GPU."""
    default_zero: int | None = None
    """The ZeRO stage the tool shards with when none is stated (verl's FSDP workers: 3); None: the
    search chooses (and a tool that needs a setting to shard runs DDP without it)."""
    on_deepspeed: bool = False
    """The tool always launches on DeepSpeed, its stage one flag (OpenRLHF ``--zero_stage``,
    openrlhf/cli/train_ppo.py): never plain DDP, and the search chooses the stage the plan needs."""
    backends: tuple[str, str] | None = None
    """(the default backend, the one with tensor parallelism) when the tool has both: verl's FSDP workers
    (``actor_rollout_ref.actor.strategy: fsdp``, the default: data parallel only) and its Megatron-LM
    workers (``strategy: megatron``: TP/PP). The limits above are the default backend's."""
    megatron_layers: bool = False
    """The tool runs the model as Megatron-LM's layers (fused kernels: Korthikanti et al. 2022, Table 2's
    34·s·b·h per layer without recompute), not the model's Hugging Face PyTorch code: Megatron-LM and
    NeMo (NeMo's LLM models are Megatron-Core's ``GPTModel``: NVIDIA/NeMo
    ``nemo/collections/llm/gpt/model/base.py``, ``GPTConfig.configure_model``). The others load
    transformers' model code (:mod:`estimator.eager_activations`)."""
    default_recompute: str | None = None
    """The activation recomputation the tool turns on when the user says nothing ('full': gradient
    checkpointing of every decoder layer); None: off by default, the search chooses. LLaMA-Factory:
    ``disable_gradient_checkpointing`` defaults to False (src/llamafactory/hparams/model_args.py), so
    ``model/model_utils/checkpointing.py`` ``prepare_model_for_training`` enables it; verl:
    ``enable_gradient_checkpointing: True`` (verl/trainer/config/model/hf_model.yaml); Unsloth:
    ``use_gradient_checkpointing="unsloth"`` in every notebook and ``FastLanguageModel.get_peft_model``'s
    default (its own checkpointing, activations offloaded to CPU)."""
    offloads_checkpoints: bool = False
    """Its gradient checkpointing moves each saved layer input to CPU memory and back for the backward
    pass (Unsloth: unsloth_zoo/gradient_checkpointing.py ``Unsloth_Offloaded_Gradient_Checkpointer``,
    ``hidden_states.to("cpu", non_blocking=True)``; "offloads activations to system RAM", unsloth.ai
    blog "Long-context training"): only the layers in flight stay on the GPU. Unsloth documents
    Llama-3.3-70B QLoRA in 41 GB of VRAM (unsloth.ai blog "Llama 3.3", README table "<48GB")."""
    shards_model: bool = True
    """The tool can shard the model over GPUs (DeepSpeed ZeRO-3 / FSDP). False (Unsloth): each GPU holds
    the whole model — one GPU, or a DDP copy on each — so the plan keeps ZeRO 0 unless the user sets a
    stage, the fewest GPUs is one or none, and a sharded layout is offered as another stack
    (:data:`SHARDING_STACKS`), never as the user's (session 34, issue 24 item 3)."""
    optim_by_name: bool = True
    """The optimizer is chosen by name from transformers' ``OptimizerNames`` (``TrainingArguments.optim``,
    transformers/training_args.py: ``adamw_torch_fused``, ``adamw_bnb_8bit``, ``paged_adamw_8bit``): the HF
    Trainer and TRL; LLaMA-Factory (its ``optim`` is TrainingArguments'); axolotl (``optimizer:``, passed
    to it); Unsloth (TRL's trainers; its notebooks set ``optim="adamw_8bit"``); ms-swift (``--optim``). Not
    OpenRLHF (DeepSpeed's FusedAdam / ``--adam_offload``), verl (its own ``optim`` config) nor Megatron-LM /
    NeMo (Megatron's distributed optimizer): the fit-change search offers an optimizer only where True."""


TRAINING_TOOL_LIMITS: dict[str, ToolLimits] = {
    "HF Trainer": ToolLimits(True),
    "PyTorch DDP": ToolLimits(True),  # torchrun of a script with nothing that shards (bot.parse.ddp_launch)
    "TRL": ToolLimits(True),
    "LLaMA-Factory": ToolLimits(True, default_recompute="full"),
    "axolotl": ToolLimits(True),
    "ms-swift": ToolLimits(True),
    "Unsloth": ToolLimits(
        True, chunked_loss=True, default_recompute="full", offloads_checkpoints=True, shards_model=False
    ),
    "OpenRLHF": ToolLimits(True, on_deepspeed=True, optim_by_name=False),
    "verl": ToolLimits(
        True,
        whole_step_rollout=True,
        default_zero=3,
        backends=("FSDP", "Megatron"),
        default_recompute="full",
        optim_by_name=False,
    ),
    "Megatron-LM": ToolLimits(False, megatron_layers=True, optim_by_name=False),
    "NeMo": ToolLimits(False, megatron_layers=True, optim_by_name=False),
    "MindSpeed-LLM": ToolLimits(False, megatron_layers=True, optim_by_name=False),
    "MindSpeed-MM": ToolLimits(False, megatron_layers=True, optim_by_name=False),
    "MindSpeed-RL": ToolLimits(False, megatron_layers=True, optim_by_name=False),
    "Megatron-DeepSpeed": ToolLimits(False, megatron_layers=True, optim_by_name=False),
    "Pai-Megatron-Patch": ToolLimits(False, megatron_layers=True, optim_by_name=False),
}
"""The training tools the sizing models, by the name the reply uses (``SizingRequest.training_tool``)."""

MEGATRON_FAMILY = frozenset(name for name, limits in TRAINING_TOOL_LIMITS.items() if limits.megatron_layers)
"""The Megatron-family tools (TP/PP/SP/EP, Megatron's layers): their answers get Megatron's advice."""

OTHER_STACK = "Megatron-LM"
"""The stack the alternatives name when a tool allows data parallelism only."""


SHARDING_STACKS = "HF Trainer + DeepSpeed ZeRO-3, LLaMA-Factory (DeepSpeed or FSDP)"
"""The stacks an answer names when the user's tool does not shard the model (:attr:`ToolLimits.shards_model`):
transformers ``TrainingArguments.deepspeed`` with a ZeRO-3 config, LLaMA-Factory's
``examples/deepspeed/ds_z3_config.json`` / ``examples/accelerate/fsdp_config.yaml`` (QLoRA too: its
FSDP+QLoRA example, ``examples/extras/fsdp_qlora``). Tool names, not translated."""


def tool_limits(name: str | None) -> ToolLimits | None:
    """The limits of the named tool; None: no tool named (the search is free)."""
    return TRAINING_TOOL_LIMITS.get(name) if name else None


LOAD_IN_BITS_TOOLS = frozenset({"axolotl", "Unsloth", "TRL", "HF Trainer"})
"""Tools whose quantized frozen base is switched on with transformers' bitsandbytes flags
``load_in_8bit`` / ``load_in_4bit`` (axolotl docs, config reference: ``load_in_4bit: true`` with
``adapter: qlora``; Unsloth ``FastLanguageModel.from_pretrained(load_in_4bit=True)``; TRL
``ModelConfig.load_in_4bit``; transformers ``BitsAndBytesConfig(load_in_4bit=True)``). LLaMA-Factory
(and no tool named) says ``quantization_bit``."""


def quantization_key(name: str | None, bits: int) -> tuple[str, str]:
    """(tool, config key) that turns on a ``bits``-bit frozen base in the user's tool, as the ledger names
    it: 'axolotl', 'load_in_4bit'; LLaMA-Factory's ``quantization_bit`` when no such tool is named or for
    3 and 2 bits (HQQ, which those flags do not reach)."""
    if name in LOAD_IN_BITS_TOOLS and bits in (8, 4):
        return name, f"load_in_{bits}bit"
    return "LLaMA-Factory", "quantization_bit"


EAGER_EXPERT_FREE = frozenset({"Unsloth"})
"""Tools on transformers' model code whose MoE layers are not transformers' eager expert loop (Unsloth
patches them with its own kernels): :func:`runs_eager_experts` leaves them out."""


def grouped_experts(req: SizingRequest) -> bool:
    """The user's transformers runs an MoE's experts as grouped GEMMs: ``experts_implementation`` stated
    'grouped_mm', or none stated on transformers 5 or later, whose default it is (transformers
    modeling_utils.py ``get_correct_experts_implementation``: ``"grouped_mm" if requested_experts is None``;
    integrations/moe.py ``grouped_mm_experts_forward`` over ``torch._grouped_mm``). 'eager' and
    'batched_mm' stated are not (the per-expert loop; one bmm per routed token)."""
    if req.experts_implementation is not None:
        return req.experts_implementation == "grouped_mm"
    version = req.transformers_version
    return version is not None and int(version.split(".")[0]) >= 5


def runs_eager_experts(req: SizingRequest, stage: Stage) -> bool:
    """An MoE trained here runs transformers' eager expert loop: a Hugging Face stack (HF Trainer, TRL,
    LLaMA-Factory, axolotl, ms-swift, OpenRLHF, verl's FSDP workers — :attr:`ToolLimits.megatron_layers`
    false), or no tool named for a fine-tune (the stacks people fine-tune with); never with a stated TP or
    PP above 1 (a Megatron backend) or Megatron-LM / NeMo, nor on transformers 5 and later, whose experts
    run grouped GEMMs (:func:`grouped_experts`). transformers 4's MoE blocks loop over the experts
    a batch hit, one small matrix multiply each (``modeling_qwen3_moe.py``, ``Qwen3MoeSparseMoeBlock``:
    ``for expert_idx in expert_hit``; the "eager" experts backend of the transformers docs,
    ``experts_interface``)."""
    if (req.tp or 1) > 1 or (req.pp or 1) > 1 or req.training_tool in EAGER_EXPERT_FREE:
        return False
    if grouped_experts(req):
        return False
    limits = tool_limits(req.training_tool)
    if limits is None:
        return req.training_tool is None and stage == Stage.finetune
    return not limits.megatron_layers


def tool_method(req: SizingRequest, stage: Stage, ledger: Ledger) -> Method:
    """The stated fine-tuning method; else (fine-tuning) the tool's own, said in ``ledger``: Unsloth's QLoRA
    (``FastLanguageModel.from_pretrained``: ``load_in_4bit = True  # 4bit QLoRA``, ``full_finetuning =
    False``, unslothai/unsloth unsloth/models/loader.py; trial s28 H3, bot.parse.tool_method), any other
    tool's full fine-tuning (design.md §3.1); outside fine-tuning, full training of every weight."""
    if stage != Stage.finetune or req.method is not None:
        return req.method or Method.full
    if (req.training_tool or "").lower() == "unsloth":
        return Method(ledger.assume("method", Method.qlora.value, Why.unsloth_default))
    return Method(ledger.assume("method", Method.full.value, Why.method_full))
