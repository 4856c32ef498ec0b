"""A cloud or rental provider named by the user (s44 trial #5): 'AWS … vs Lambda H100', '阿里云和AutoDL比'.

The price catalog (estimator/data/prices.toml) holds one market range per card and currency, anchored on
several providers' listings (its ``source`` lines), never one provider's own price. Before, a provider
comparison got that one range and ``interpretation.ignored: []``: the names were dropped in silence and
'which is cheaper' went unanswered. Each provider named is now named as typed, ``provider_price``: no
price of that provider is on file, the cost is the card's market range, and a price per GPU-hour given
is what the answer uses. An instance type ('p5.48xlarge', 'a3-highgpu-8g') is read as its GPUs before
this (:mod:`bot.parse.instances`), and its provider word with it.

Names (each a provider's own spelling): AWS / Amazon EC2, Google Cloud / GCP, Azure, Oracle Cloud / OCI,
Lambda (Labs / Cloud, or 'Lambda' beside a card or after 'on'/'vs'), RunPod, Vast.ai, CoreWeave, Nebius,
Paperspace, Jarvislabs, Fluidstack, Crusoe, Hyperbolic, Together AI; 阿里云 (Alibaba Cloud), 腾讯云
(Tencent Cloud), 华为云 (Huawei Cloud), 火山引擎 (Volcengine), 百度智能云, 京东云, 天翼云, 移动云, UCloud
(优刻得), AutoDL, 恒源云, 矩池云, 揽睿星舟, 优云智算. A bare 'lambda' (a loss weight, 'lambda=0.1', AWS
Lambda functions) is not a provider: Lambda the GPU cloud is read only with 'labs'/'cloud', a card after
it, or 'on'/'vs'/'和' before it.
"""

from __future__ import annotations

from bot.parse.regex import rc

_CARD_AFTER = r"(?=\s*(?:gpu|h100|h200|a100|a10|a6000|gh200|b200|b300|a800|h800|4090|l40s|instances?|cloud))"
PROVIDER_RE = rc(
    r"(?<![a-z0-9])(?:aws|amazon\s+ec2|ec2|google\s+cloud|gcp|azure|oracle\s+cloud|oci|runpod|vast\.ai|vastai"
    r"|coreweave|nebius|paperspace|jarvislabs|fluidstack|crusoe|hyperbolic|together\s+ai|ucloud|autodl"
    r"|lambda\s+(?:labs|cloud)|lambda" + _CARD_AFTER + r"|(?<=on\s)lambda|(?<=vs\s)lambda|(?<=vs\.\s)lambda"
    r"|(?<=和)lambda|(?<=or\s)lambda)(?![a-z0-9])"
    r"|阿里云|腾讯云|华为云|火山引擎|百度智能云|百度云|京东云|天翼云|移动云|优刻得|恒源云|矩池云|揽睿星舟|优云智算"
)
"""A provider's name (normalized text: lower case)."""


def providers(s: str) -> list[tuple[str, str]]:
    """Each provider named in the normalized text ``s`` once, as written, with ``provider_price``
    (first mention first). The caller gates on :data:`bot.parse.side_phrases.PROVIDER_CUES`."""
    seen: dict[str, None] = {}
    for m in PROVIDER_RE.finditer(s):
        seen.setdefault(" ".join(m.group(0).split()), None)
    return [(name, "provider_price") for name in seen]
