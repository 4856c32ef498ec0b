"""Parameter offload (issue 24, s17): the model's weights kept in CPU memory between uses (DeepSpeed ZeRO-3
``offload_param: {device: cpu}``, accelerate ``offload_param_device: cpu``, ColossalAI
``offload_param_frac``),
besides the optimizer offload the sizing models (``request.offload``: ZeRO-Offload's optimizer states in
CPU memory, DeepSpeed docs config-json 'Optimizer offloading'). The sizing has no setting for the weights'
own offload, so it is named as not used (``no_field``) — before, 'optimizer and params offloaded to CPU'
was read as the optimizer offload alone and the parameters' part was dropped silently."""

from __future__ import annotations

from bot.parse.regex import rc

_PARAMS = r"param(?:eter)?s?(?![a-z])"  # round 12: whole ('offload_params false' is no 'offload_param')
_OFF = r"(?:offload\w*|卸载)"
_NOT_ON = r"(?![\"'\s:=\{_\-]*(?:device[\"'\s:=_\-]*)?(?:none|false|0|gpu)(?![a-z0-9]))"
PARAM_OFFLOAD_RE = rc(
    rf"(?<![a-z])(?<!no )(?<!no_)(?<!not )(?<!without )(?<!w/o )(?<!不开)(?<!不开 )(?<!关闭)(?<!关闭 )"
    rf"(?:{_OFF}[_\s\-]*{_PARAMS}(?:[_\s\-]*(?:frac|device))?{_NOT_ON}"
    rf"|{_PARAMS}[_\s\-]*offload(?:[_\s\-]*device)?{_NOT_ON}"
    rf"|(?:optimizer|optim)(?:\s+states?)?\s*(?:and|&|\+|/|,)\s*(?:the\s+)?(?:model\s+)?{_PARAMS}"
    rf"(?:\s+(?:are|were|both|also|all))*\s+{_OFF}"
    rf"|{_PARAMS}\s*(?:and|&|\+|/|,)\s*(?:the\s+)?optimizer(?:\s+states?)?(?:\s+(?:are|were|both|also|all))*\s+{_OFF}"
    rf"|{_OFF}\s*(?:the\s+)?(?:optimizer|optim)(?:\s+states?)?\s*(?:and|&|\+|/|,)\s*(?:the\s+)?{_PARAMS}"
    rf"|{_OFF}\s*[(（]?\s*(?:优化器|optimizer)\s*(?:[、,，和与及/+&]|and)\s*(?:模型)?参数"
    rf"|(?:优化器|optimizer)(?:状态)?\s*(?:[、,，和与及/+&]|and)\s*(?:模型)?参数\s*(?:都|也|全)?\s*(?:{_OFF}|放到?\s*(?:cpu|内存))"
    rf"|(?:模型)?参数\s*(?:都|也)?\s*{_OFF}\s*(?:到|至)?\s*(?:cpu|内存|nvme)"
    rf"|{_OFF}\s*(?:模型)?参数)"
)
"""'offload_param: cpu', 'offload params', verl's 'param_offload=True' (not '…=False', nor DeepSpeed's
``offload_param: {device: none}``), 'optimizer and params offloaded to CPU', 'offload the optimizer and
parameters', 'zero3+offload（优化器、参数）', '优化器和参数都卸载到 CPU', '参数 offload 到 cpu'."""
"""'No offload_param' / '不开 offload_param' is none of these (s35 #4: the parameters stay on the GPUs)."""
OPTIMIZER_OFFLOAD_RE = rc(
    r"offload[_\s\-]*optim(?:izer)?(?![a-z])|optim(?:izer)?(?:\s+states?)?[_\s\-]*offload"
    r"|优化器\s*(?:状态)?\s*(?:卸载|offload)|(?:卸载|offload)\s*(?:到\s*(?:cpu|内存)\s*)?(?:的)?\s*优化器"
)
"""The optimizer's offload named ('offload_optimizer', 'optimizer offload', '优化器卸载到CPU')."""


def optimizer_offload_alone(s: str) -> bool | None:
    """False (the parameters are not offloaded) when ``s`` names the optimizer's offload and no parameter
    offload (DeepSpeed ``offload_optimizer`` without ``offload_param``: ZeRO-Offload moves the optimizer
    states alone, DeepSpeed docs config-json 'Optimizer offloading'); None otherwise (trial s35 #4)."""
    if OPTIMIZER_OFFLOAD_RE.search(s) and not PARAM_OFFLOAD_RE.search(s):
        return False
    return None
