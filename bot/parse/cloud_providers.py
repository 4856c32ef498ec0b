"""A cloud or rental provider named by the user (s44 trial #5): 'AWS … vs Lambda H100', '阿里云和AutoDL比'.

The price catalog (estimator/data/prices.toml) holds one market range per card and currency, anchored on
several providers' listings (its ``source`` lines), never one provider's own price. Before, a provider
comparison got that one range and ``interpretation.ignored: []``: the names were dropped in silence and
'which is cheaper' went unanswered. Each provider named is now named as typed, ``provider_price``: no
price of that provider is on file, the cost is the card's market range, and a price per GPU-hour given
is what the answer uses. An instance type ('p5.48xlarge', 'a3-highgpu-8g') is read as its GPUs before
this (:mod:`bot.parse.instances`); its provider word is kept and named (s45; before, it was dropped).

Names (each a provider's own spelling): AWS / Amazon EC2, Google Cloud / GCP, Azure, Oracle Cloud / OCI,
Lambda (Labs / Cloud, or 'Lambda' beside a card or after 'on'/'vs'), RunPod, Vast.ai, CoreWeave, Nebius,
Paperspace, Jarvislabs, Fluidstack, Crusoe, Hyperbolic, Together AI; 阿里云 (Alibaba Cloud), 腾讯云
(Tencent Cloud), 华为云 (Huawei Cloud), 火山引擎 (Volcengine), 百度智能云, 京东云, 天翼云, 移动云, UCloud
(优刻得), AutoDL, 恒源云, 矩池云, 揽睿星舟, 优云智算. A bare 'lambda' (a loss weight, 'lambda=0.1', AWS
Lambda functions) is not a provider: Lambda the GPU cloud is read only with 'labs'/'cloud', a card after
it, 'on'/'vs'/'or' or 和/与/跟/还是 before it (a space allowed after the Chinese word), or one of these
words after it ('Lambda 和 AWS'; s45 review B5: 'AWS p5 和 Lambda' dropped Lambda).

Session 45 (fixread #3): each name is echoed as the user typed it ('AWS', 'CoreWeave'), not lower-cased;
more providers are named the same way (Hetzner, OVHcloud, Scaleway, Vultr, DigitalOcean, Linode, TensorDock,
Baseten, Hyperstack, DataCrunch, Voltage Park, Lepton, Cudo Compute, Massed Compute, Thunder Compute, IBM
Cloud, Alibaba / Tencent / Huawei Cloud in English, 硅基流动, 金山云, 七牛云; Modal, Replicate and Salad,
common words, only as 'Modal Labs', 'on Modal', 'replicate.com', 'SaladCloud'), and a provider not listed
is named when written as a capitalized name before 'Cloud' ('Genesis Cloud', 'Foo GPU Cloud'), never 'the
cloud', 'private cloud' (:data:`CLOUD_NAME_RE`, on the message as typed). None has a price of its own on
file: the same reason, ``provider_price``, for every one.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

_CARD_AFTER = r"(?=\s*(?:gpu|h100|h200|a100|a10|a6000|gh200|b200|b300|a800|h800|4090|l40s|instances?|cloud))"
PROVIDER_RE = rc(
    r"(?<![a-z0-9])(?:aws|amazon\s+ec2|ec2|google\s+cloud|gcp|azure|oracle\s+cloud|oci|runpod|vast\.ai|vastai"
    r"|coreweave|nebius|paperspace|jarvislabs|fluidstack|crusoe|hyperbolic|together\s+ai|ucloud|autodl"
    r"|lambda\s+(?:labs|cloud)|lambda" + _CARD_AFTER + r"|(?<=on\s)lambda|(?<=vs\s)lambda|(?<=vs\.\s)lambda"
    r"|(?<=和)lambda|(?<=和\s)lambda|(?<=与)lambda|(?<=与\s)lambda|(?<=跟)lambda|(?<=跟\s)lambda"
    r"|(?<=还是)lambda|(?<=还是\s)lambda|(?<=or\s)lambda|lambda(?=\s*(?:和|与|跟|还是|vs\b|or\s))"
    r"|hetzner|ovhcloud|ovh|scaleway|vultr|digitalocean|linode|tensordock|baseten|hyperstack|datacrunch"
    r"|voltage\s+park|lepton(?:\s+ai)?|cudo(?:\s+compute)?|massed\s+compute|thunder\s+compute|ibm\s+cloud"
    r"|alibaba\s+cloud|tencent\s+cloud|huawei\s+cloud|modal\s+labs|(?<=on\s)modal|replicate\.com"
    r"|(?<=on\s)replicate|salad\s*cloud)(?![a-z0-9])"
    r"|阿里云|腾讯云|华为云|火山引擎|百度智能云|百度云|京东云|天翼云|移动云|优刻得|恒源云|矩池云|揽睿星舟|优云智算"
    r"|硅基流动|金山云|七牛云"
)
"""A provider's name (normalized text: lower case)."""


CLOUD_NAME_RE = rc(r"(?<![\w.])(?P<n>[A-Z][A-Za-z0-9]*(?:[.\-][A-Za-z0-9]+)?)\s+(?:GPU\s+)?Cloud\b")
"""A provider not listed, written as a capitalized name before 'Cloud' (the message as typed)."""
_NOT_PROVIDERS = frozenset((
    "the", "a", "an", "my", "our", "your", "their", "own", "any", "some", "private", "public", "hybrid",
    "multi", "on", "in", "at", "from", "to", "with", "and", "or", "vs", "google", "oracle", "lambda",
    "alibaba", "tencent", "huawei", "ibm", "salad", "gpu", "ai",
))  # fmt: skip
"""Words before 'Cloud' that name no provider ('the Cloud', 'Private Cloud'), or whose provider
:data:`PROVIDER_RE` reads with its own name."""


_CONJUNCTION_RE = rc(r"(?:和|与|跟|还是)\s?lambda|lambda\s*(?:和|与|跟|还是|vs\b|or\s)")
"""A bare 'lambda' beside a conjunction (s45 review B5): read as the provider only beside another one."""


def as_typed(name: str, raw: str) -> str:
    """``name`` (normalized: lower case) as the user spelled it in ``raw`` ('aws' → 'AWS'); ``name`` when
    it is not found there."""
    m = re.search(r"\s+".join(map(re.escape, name.split())), raw, re.IGNORECASE) if raw else None
    return m.group(0) if m else name


def providers(s: str, raw: str = "") -> list[tuple[str, str]]:
    """Each provider named in the normalized text ``s`` once, as typed in ``raw`` (module doc), with
    ``provider_price`` (first mention first), then each not listed (:data:`CLOUD_NAME_RE`). The caller
    gates on :data:`bot.parse.side_phrases.PROVIDER_CUES`."""
    seen: dict[str, None] = {}
    found = list(PROVIDER_RE.finditer(s))
    for m in found:
        if m.group(0) == "lambda" and len(found) == 1 and _CONJUNCTION_RE.search(s, max(0, m.start() - 4)):
            continue  # 'lambda 和 beta' (a loss weight): beside a conjunction, only with another provider
        seen.setdefault(as_typed(" ".join(m.group(0).split()), raw), None)
    if "Cloud" in raw:
        for m in CLOUD_NAME_RE.finditer(raw):
            if m.group("n").lower() not in _NOT_PROVIDERS:
                seen.setdefault(" ".join(m.group(0).split()), None)
    return [(name, "provider_price") for name in seen]
