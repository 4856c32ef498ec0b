"""Which tools the reply's stage section recommends, and why (keys; the sentences live in
``templates/_frameworks.j2``, written out in place in ``reply.j2``). The same rules pick the launch recipes
(:mod:`bot.recipes.training`, :mod:`bot.recipes.serving`)."""

from __future__ import annotations

from bot.core.chosen import chosen_plan
from bot.render.describe import is_unified
from estimator.models import Method, Plan, SizingReport, Stage
from estimator.runtimes import runtime_named
from estimator.training_tools import MEGATRON_FAMILY

_FROM_REPORT = object()
"""``framework_keys``' default plan: derived from the report (a caller without the Answer at hand)."""


ADVISED_RUNTIMES = ("vLLM", "SGLang", "llama.cpp", "Ollama")
"""Engines the framework sentences name: a named engine outside these gets no engine advice."""


def framework_keys(report: SizingReport | None, plan: Plan | object | None = _FROM_REPORT) -> list[str]:
    """Keys of the framework sentences for this answer, most fitting first:

    * ``megatron``: pre-training, or a plan with a pipeline (TP/PP/sequence parallelism at scale);
    * ``megatron_tp``: full training with no tool named whose shown layout has TP (the plan explained, the
      one at the count, the recommended one; the fewest GPUs' layout shows only as the count's, s39
      fixz): Megatron-FSDP runs TP beside ZeRO-2/3 (:mod:`bot.recipes.megatron`),
      LLaMA-Factory and the HF Trainer run data parallelism only, DeepSpeed's AutoTP TP at ZeRO 0–2 only
      (deepspeed.ai/tutorials/autotp-training);
    * ``deepspeed_fsdp``: full training that data parallelism + ZeRO (or FSDP) can carry;
    * ``llamafactory``: fine-tuning (LoRA/QLoRA/full from one YAML); ``torchtune`` when it ships a config
      for the model; neither, unless named, when the plan shown splits the model (TP or PP above 1: they
      run data parallelism only; s35 fixd #3 — an adapter run then gets ``megatron_tp``);
    * ``vllm_sglang``: a server; ``llama_cpp``: a personal machine (GGUF weights, a Mac);
    * ``megatron_family``: the user runs a Megatron-family tool (Megatron-LM, NeMo, MindSpeed-LLM,
      Megatron-DeepSpeed, Pai-Megatron-Patch: :data:`estimator.training_tools.MEGATRON_FAMILY`): its own
      TP/PP/SP/EP arguments run the layout shown; no data-parallel-only stack is offered instead (after
      ``megatron`` when that applies);
    * ``ascend``: a server on Huawei Ascend NPUs (910B/910C): vLLM-Ascend, the vLLM hardware plugin the vLLM
      project maintains for Ascend (docs.vllm.ai/projects/ascend), or Huawei's MindIE (hiascend.com MindIE
      docs); a MindIE named is no advised engine (:data:`ADVISED_RUNTIMES`): named as not modelled instead.

    ``plan``: the layout the answer recommends (:attr:`bot.core.answer.Answer.chosen_plan`, computed
    once in core); without it, :func:`bot.core.chosen.chosen_plan` of the report.
    """
    if report is None:
        return []
    inf = report.inference
    req = report.request
    if inf is not None:
        if req.runtime is not None and req.runtime.value not in ADVISED_RUNTIMES:
            return []  # they run lmdeploy, TGI, ExLlama…: no advice to run another engine
        if report.gpu_spec is not None and report.gpu_spec.vendor == "Huawei":
            return ["ascend"]  # vLLM's and SGLang's CUDA builds do not run on an Ascend NPU (s37-left)
        if not runtime_named(inf.runtime).local:
            return ["vllm_sglang"]
        return [] if is_unified(report) else ["llama_cpp"]  # a Mac: its own tip names llama.cpp/MLX
    if req.stage == Stage.inference:
        return []
    if plan is _FROM_REPORT:
        plan = chosen_plan(report)
    assert plan is None or isinstance(plan, Plan)
    keys: list[str] = []
    pretraining = req.stage in (Stage.pretrain, Stage.continued_pretrain)
    if pretraining or (plan is not None and plan.pp > 1):
        keys.append("megatron")
    if req.training_tool in MEGATRON_FAMILY:  # s41 fixtrain #3: their tool runs TP/PP/SP; no other stack
        return ["megatron_family"]  # its own paragraph; the generic 'megatron' one says it twice (review #7)
    method = req.method or Method.full
    tool = req.training_tool  # axolotl, Unsloth, TRL…: the tool they run, not another one
    split = plan is not None and (plan.tp > 1 or plan.pp > 1)  # model parallel: no DP-only tool (s35)
    if req.stage == Stage.finetune:
        if tool == "LLaMA-Factory" or (tool is None and not split):
            keys.append("llamafactory")
        from bot.recipes.refs import TORCHTUNE_BASES  # a leaf data module; imported when used (s26)

        if req.model in TORCHTUNE_BASES and (tool == "torchtune" or (tool is None and not split)):
            keys.append("torchtune")
        if split and tool is None and method != Method.full and "megatron" not in keys:
            keys.append("megatron_tp")  # LoRA at TP: Megatron/NeMo or DeepSpeed AutoTP (ZeRO 0-2)
    if method == Method.full:
        keys.insert(1 if pretraining else 0, "deepspeed_fsdp")
        if tool is None and "megatron" not in keys and report.memory is not None:
            m = report.memory  # the plans the reply shows: explained, the count's, the recommended (s39 fixz)
            for shown in (plan, m.plan, m.recommended_plan):
                if shown is not None and shown.tp > 1:
                    keys.append("megatron_tp")  # DeepSpeed / FSDP / the HF Trainer cannot run it
                    break
    return keys
