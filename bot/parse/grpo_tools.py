"""The GRPO codebases named as the job's tool: training with one is GRPO (session 18, part fxb).

X-R1 (dhcode-cpp/X-R1: ``src/x_r1/grpo.py``), Open-R1 (huggingface/open-r1: ``src/open_r1/grpo.py``, and
``sft.py`` for its distillation step), VLM-R1 and R1-V (``grpo_*.py``), Video-R1 (T-GRPO), simple_GRPO and
EasyR1 (hiyouga/EasyR1, verl's GRPO examples) train with GRPO unless the message says another algorithm:
before, '用 X-R1 训练 3B，4 卡 24G 够吗' was sized as plain full fine-tuning. SFT or distillation said with
it ('用 Open-R1 复现 DeepSeek-R1 的蒸馏') is that job, not GRPO; a serving job ('部署 Video-R1-7B') names a
model. :func:`bot.parse.written_names.written_names` writes the names as one word ('x-r1' → 'xr1')
before the parse reads them.
"""

from __future__ import annotations

from bot.parse.regex import rc

GRPO_TOOL_RE = rc(
    r"(?<![a-z0-9])(?:x[\s\-_]?r1|open[\s\-_]?r1|vlm[\s\-_]?r1|r1[\s\-_]?v|video[\s\-_]?r1"
    r"|simple[\s\-_]?grpo|easy[\s\-_]?r1)(?![a-z0-9])"
)
"""The GRPO codebases, as written or as :mod:`bot.parse.written_names` joins them ('xr1', 'r1v')."""
OTHER_JOB_RE = rc(
    r"\bsft\b|蒸馏|distill|监督微调|\bdpo\b|\bppo\b|\brloo\b|\bdapo\b|\bgspo\b|\bkto\b|\borpo\b"
    r"|部署|推理|\bserv(?:e|es|ed|ing)\b|\bdeploy|\binference\b"
)
"""Another algorithm, distillation, or a serving job said in the message: the codebase does not set GRPO."""
TRAINING_RE = rc(r"训练|微调|\btrain(?:s|ed|ing)?\b|fine[\s\-]?tun|复现|\brun(?:s|ning)?\b|跑")


VLLM_ROLLOUT_RE = rc(r"(?<![a-z0-9])(?:x[\s\-_]?r1|open[\s\-_]?r1|easy[\s\-_]?r1)(?![a-z0-9])")
"""The codebases whose GRPO recipes generate their rollouts with vLLM, not the trainer's ``model.generate``:
X-R1 (recipes/*.yaml ``use_vllm: true``, ``vllm_device: auto``: one GPU of the node decodes), Open-R1
(recipes/*/grpo/config_*.yaml ``use_vllm: true``), EasyR1 (verl's vLLM rollout worker)."""


def grpo_tool_algorithm(s: str) -> str | None:
    """'grpo' when the normalized text ``s`` trains with a GRPO codebase and says no other algorithm,
    distillation or serving job; else None. Call behind a literal gate ('r1' or 'grpo' in ``s``)."""
    if GRPO_TOOL_RE.search(s) and TRAINING_RE.search(s) and not OTHER_JOB_RE.search(s):
        return "grpo"
    return None


def vllm_rollout_codebase(s: str, fields: dict) -> None:
    """A GRPO job's rollout engine from the codebase named: ``fields["runtime"]`` vLLM when ``s`` trains
    with one of :data:`VLLM_ROLLOUT_RE` and no engine is stated — its recipes decode with vLLM (s37: before,
    no tool named meant TRL's in-trainer ``model.generate``, ~3x slower than X-R1's published 2:23 run).
    The caller checks the algorithm is GRPO and no runtime is set."""
    if VLLM_ROLLOUT_RE.search(s) and TRAINING_RE.search(s) and not OTHER_JOB_RE.search(s):
        fields["runtime"] = "vLLM"
