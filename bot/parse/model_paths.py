"""Model paths in a command line or a flat config (issue 24 item 2, s21: zh14-009 kind): the model a job
trains is the one under the policy's key, not a helper model's.

'python train_math.py --model_name_or_path ./deepseek-math-7b-instruct --prm_model_name_or_path
./math-shepherd-mistral-7b-prm' trains deepseek-math-7b-instruct; the process reward model (PRM) scores its
samples. A key names a model path when it has 'model' or 'pretrain' in it ('--model_name_or_path',
'reward_model.path', OpenRLHF's '--pretrain' / '--reward_pretrain' / '--critic_pretrain', TRL's
'--reward_model_path', verl's 'actor_rollout_ref.model.path' / 'reward_model.model.path' /
'critic.model.path').
It is a helper's (:data:`HELPER_RE`: a reward, process or outcome reward, critic/value, reference, judge,
verifier, teacher or draft model) unless it names the actor or policy (verl's ``actor_rollout_ref`` holds
the actor and its reference); otherwise it is the policy's. The policy's path, when its last part is no
catalog name, is a model named as typed ('deepseek-math-7b-instruct', its size read from the name); a
model said inside a helper's path is part of the same job, named as not sized
(``rl_reward_model_not_sized``)."""

from __future__ import annotations

from collections.abc import Callable

from bot.parse.fixed_patterns import DIGIT_OR_MASK
from bot.parse.regex import rc

PATH_RE = rc(
    r"(?P<key>(?<![\w.\-/])-{0,2}[a-z_][\w.\-]*)\s*(?:=|:|\s)\s*['\"]?(?!-)"
    r"(?P<path>(?:\.{0,2}/|~/)?(?:[\w.\-]+/)*(?P<name>[\w.\-\ue001]*[a-z\ue001][\w.\-\ue001]*))['\"]?"
    r"(?![\w./\-\ue001])(?!\s*[:=])"
)
"""A key and its path value ('--model_name_or_path ./deepseek-math-7b-instruct', 'reward_model.path:
Qwen/Qwen2.5-7B', 'actor_rollout_ref.model.path=Qwen/Qwen2.5-7B'): the last part of the path is ``name``
(a model masked in it, :data:`bot.parse.normalize.MODEL_MARK`, is part of it)."""
MODEL_KEY_RE = rc(r"model|pretrain")
"""A key whose value is a model ('model_name_or_path', 'reward_model.path', '--pretrain')."""
HELPER_RE = rc(
    r"(?:^|[._\-])(?:prm|orm|rm|reward|critic|value|ref|reference|judge|verifier|teacher|draft|speculative)"
    r"(?=$|[._\-])"
)
"""A helper model's key: reward (PRM/ORM/RM), critic or value, reference, judge, verifier, teacher, draft."""
POLICY_RE = rc(r"actor|policy")
"""The trained model's key in RL tools (verl ``actor_rollout_ref``, ``policy_model``)."""
GATE = ("model", "pretrain")
"""Literal words one of which a message with a model path has."""


def _kind(key: str) -> str | None:
    """'policy', 'helper', or None when ``key`` names no model."""
    key = key.lstrip("-")
    if not MODEL_KEY_RE.search(key):
        return None
    if POLICY_RE.search(key):
        return "policy"
    return "helper" if HELPER_RE.search(key) else "policy"


def model_paths(s: str) -> list[tuple[str, int, int, int]]:
    """(kind, start of the path, start of its last part, end) of each model path in the normalized text
    ``s`` (kind 'policy' or 'helper'), in order; [] when no key of a model path is written."""
    for w in GATE:  # a loop, not any(genexpr): no generator frame a parse
        if w in s:
            break
    else:
        return []
    out = []
    for m in PATH_RE.finditer(s):
        kind = _kind(m.group("key"))
        if kind is not None and ("/" in m.group("path") or DIGIT_OR_MASK.search(m.group("name"))):
            out.append((kind, m.start("path"), m.start("name"), m.end("name")))
    return out


def policy_paths(
    s: str, resolve: Callable[[str], str | None], sizes: Callable[[str], tuple[float | None, float | None]]
) -> list[tuple[int, int, str, str | None, float | None, float | None]]:
    """(start, end, name, catalog id, size, active size) of the trained model's path in a command line or
    flat config: a catalog name (``resolve``), else the last part of the path with the size its name says
    (``sizes``); a path with neither is left to the other passes (:func:`bot.parse.models.extract_models`)."""
    out = []
    for kind, _, start, end in model_paths(s):
        name = s[start:end]
        model_id = resolve(name) or _without_tags(name, resolve)
        size, active = sizes(name)
        if kind == "policy" and (model_id or size) and "\ue001" not in name:
            out.append((start, end, name, model_id, size, active))
    return out


TAG_TAIL_RE = rc(r"[\-_.](?:instruct|chat|hf|base|it|sft|awq|gptq|python|pt)$")
"""A release tag at the end of a checkpoint's name ('-hf', '-instruct', '-python'): no other model, no other
size or context (a '-1m' or '-32k' long-context release is not one: bot.parse.context_release)."""


def _without_tags(name: str, resolve: Callable[[str], str | None]) -> str | None:
    """The catalog id of ``name`` with its release tags dropped from the end, one at a time
    ('codellama-34b-instruct-hf' → 'codellama-34b-instruct' → CodeLlama-34B; 'llama-7b-hf' → LLaMA-7B; s30
    census: a checkpoint path under a model key named as unknown), or None."""
    for _ in range(3):
        m = TAG_TAIL_RE.search(name)
        if m is None:
            return None
        name = name[: m.start()]
        if found := resolve(name):
            return found
    return None


def helper_at(s: str, at: int) -> bool:
    """Whether position ``at`` of ``s`` is inside a helper model's path (:func:`model_paths`)."""
    return any(kind == "helper" and a <= at < b for kind, a, _, b in model_paths(s))


def policy_candidate(s: str, found: list) -> object | None:
    """Of several candidates (:class:`bot.parse.asked_model.Candidate`), the one named in the policy's
    path when another is a helper's (in a helper's path, or said as one nearby); else None."""
    paths = model_paths(s)
    if not paths:
        return None
    policy = [c for c in found if any(k == "policy" and a <= c.start < b for k, a, _, b in paths)]
    helpers = [
        c for c in found if any(k == "helper" and a <= at < b for k, a, _, b in paths for at in c.starts)
    ]
    return policy[0] if len(policy) == 1 and helpers else None
