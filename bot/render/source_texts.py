"""Price-list sources in the reply's language (issue #22 item 11: Chinese replies are Chinese).

The price catalog (``estimator/data/prices.toml``) gives each market range a ``source``: prose about
how the range was found, with the citations it rests on (sites, titles, vendors, dates). The estimator
stays language-free, so the prose is translated here, through the Babel catalogs, keyed by the exact
text (whole, and each currency's part as :func:`bot.render.notes.citation_for` cuts it). Names, units,
figures and the cited titles stay as written. ``tests/test_chinese_prose.py`` checks that every source
in the catalog has its entry, so a changed source cannot slip through untranslated.
"""

import re

from bot.render.i18n import N_, translate

PRICE_SOURCES: tuple[str, ...] = (
    N_(
        "Approximation: domestic rental platforms list the RTX 3090 24GB below the RTX 4090 on the same "
        "platforms (AutoDL-class listings ≈ ¥1.3–1.6/GPU-hour; higher on big clouds), the range anchored "
        "on this catalog's RTX 4090 ¥1.8–3.5; low confidence. No USD range on file."
    ),
    N_(
        "Approximation: China-only L20 48GB rents below the L40S (the same 48 GB, a third of its BF16 "
        "tensor rate): domestic rental listings ≈ ¥3–5/GPU-hour, big-cloud instances higher; the range "
        "anchored below this catalog's L40S ¥5–12; low confidence. No USD market."
    ),
    N_("seed article (A100 rental ¥15–30 per GPU-hour on China clouds)"),
    N_(
        "public on-demand listings (A100 80GB ~$1.2–2.5 at neoclouds; aiapiplaybook.com 'GPU Cloud "
        "Pricing 2026' and yobitel.com A100 page give $0.9–2.25)"
    ),
    N_(
        "CNY: seed article (A100 rental ¥15–30 per GPU-hour on China clouds). USD: public on-demand "
        "listings (A100 80GB ~$1.2–2.5 at neoclouds; aiapiplaybook.com 'GPU Cloud Pricing 2026' and "
        "yobitel.com A100 page give $0.9–2.25)"
    ),
    N_(
        "Approximation: China-only A800 rents at or slightly below A100 (same compute, trimmed NVLink); "
        "range anchored on the seed's A100 ¥15–30 and domestic rental listings (AutoDL-class platforms to"
        " big-cloud list prices). No USD market."
    ),
    N_(
        "approximation from China rental market reports (monthly 8-GPU server rentals ≈ ¥12–17/GPU-hour; "
        "hourly on-demand higher); low confidence"
    ),
    N_(
        "neocloud on-demand H100 SXM 80GB — aiapiplaybook.com 'GPU Cloud Pricing 2026' ($1.49–2.10), "
        "cliffcenter.com 2026-05 (Lambda $2.99, RunPod $3.49), spheron.network 2026-05 (RunPod Secure "
        "$2.69), aimultiple.com GPU index 2026-05 (median ~$2.95)"
    ),
    N_(
        "USD: neocloud on-demand H100 SXM 80GB — aiapiplaybook.com 'GPU Cloud Pricing 2026' ($1.49–2.10),"
        " cliffcenter.com 2026-05 (Lambda $2.99, RunPod $3.49), spheron.network 2026-05 (RunPod Secure "
        "$2.69), aimultiple.com GPU index 2026-05 (median ~$2.95). CNY: approximation from China rental "
        "market reports (monthly 8-GPU server rentals ≈ ¥12–17/GPU-hour; hourly on-demand higher); low "
        "confidence"
    ),
    N_(
        "Approximation: China-only H800 rents in the same band as H100 in China (same compute); from "
        "domestic rental market reports (monthly server rentals ≈ ¥12–17/GPU-hour, hourly listings "
        "higher); low confidence. No USD market."
    ),
    N_(
        "Approximation: China-only H20 (96 GB, 148 TFLOPS) rents well below H800; from domestic rental "
        "market reports for 8-GPU H20 servers (≈ ¥7–10/GPU-hour monthly, hourly listings higher); low "
        "confidence. No USD market."
    ),
    N_(
        "USD: neocloud on-demand H200 SXM 141GB — packet.ai (2026, $2.25), deploybase.ai (RunPod $3.59), "
        "spheron.network 2026-03 ($4.54); AWS/Azure list $8+ (packet.ai). No public China market "
        "(export-restricted)."
    ),
    N_(
        "neocloud on-demand H200 SXM 141GB — packet.ai (2026, $2.25), deploybase.ai (RunPod $3.59), "
        "spheron.network 2026-03 ($4.54); AWS/Azure list $8+ (packet.ai). No public China market "
        "(export-restricted)"
    ),
    N_(
        "USD: neocloud on-demand B200 — packet.ai (2026, $3.75 lowest of 26 providers tracked), "
        "deploybase.ai (RunPod $5.98), spheron.network 2026-03 ($6.03); hyperscalers $8–14 (packet.ai). "
        "No public China market (export-restricted)."
    ),
    N_(
        "neocloud on-demand B200 — packet.ai (2026, $3.75 lowest of 26 providers tracked), deploybase.ai "
        "(RunPod $5.98), spheron.network 2026-03 ($6.03); hyperscalers $8–14 (packet.ai). No public China"
        " market (export-restricted)"
    ),
    N_(
        "Approximation from public on-demand listings: USD neocloud L40S ~$0.8–1.6 (aimultiple.com cloud "
        "GPU price table 2026-05 lists L40S among 'modern' cards in this band); CNY from domestic rental "
        "listings; low confidence"
    ),
    N_(
        "domestic rental platforms (AutoDL-class listings ≈ ¥1.9–2.6/GPU-hour for a 4090 24GB; higher on "
        "big clouds)"
    ),
    N_("marketplace/neocloud listings (Vast.ai, RunPod community ≈ $0.3–0.8). Approximate"),
    N_(
        "CNY: domestic rental platforms (AutoDL-class listings ≈ ¥1.9–2.6/GPU-hour for a 4090 24GB; "
        "higher on big clouds). USD: marketplace/neocloud listings (Vast.ai, RunPod community ≈ "
        "$0.3–0.8). Approximate."
    ),
    N_(
        "Approximation: legacy card; aimultiple.com GPU index 2026-05 ('legacy GPUs slid from $1.78 to "
        "$0.97', V100 cohort) for USD; CNY from domestic rental listings (≈ ¥2–3 on rental platforms, "
        "list prices on big clouds far higher); low confidence"
    ),
    N_(
        "Approximation from public listings: USD A10/A10G on-demand ≈ $0.6–1.3 (Lambda A10, AWS g5.xlarge"
        " A10G ≈ $1.0); CNY from China cloud A10 instance prices (Alibaba Cloud gn7i class) and rental "
        "platforms; low confidence"
    ),
    N_(
        "Approximation: China domestic rental market reports for Atlas 800T A2 (8 × 910B) servers; no "
        "public per-hour list price found; low confidence. No USD market."
    ),
    N_(
        "USD: neocloud on-demand MI300X — cliffcenter.com research note 2026-05 (TensorWave $1.50, Crusoe"
        " spot $1.71, Vultr $1.85, median $1.99); Azure/Oracle list ~$6 (same source). No China market."
    ),
    N_(
        "neocloud on-demand MI300X — cliffcenter.com research note 2026-05 (TensorWave $1.50, Crusoe spot"
        " $1.71, Vultr $1.85, median $1.99); Azure/Oracle list ~$6 (same source). No China market"
    ),
    N_(
        "USD: Lambda on-demand A100 40GB SXM4 — $1.29/GPU-hour is its 8x A100 40GB SXM4 instance at "
        "$10.32/h on its 2024–25 price list (not dated there), $1.48 for 1x as listed 2026-05-07 "
        "(techbytes.app 'Serverless GPU Pricing Matrix 2026'). No CNY list on file."
    ),
    N_(
        "Lambda on-demand A100 40GB SXM4 — $1.29/GPU-hour is its 8x A100 40GB SXM4 instance at $10.32/h on "
        "its 2024–25 price list (not dated there), $1.48 for 1x as listed 2026-05-07 (techbytes.app "
        "'Serverless GPU Pricing Matrix 2026'). No CNY list on file"
    ),
    N_(
        "USD: AWS EC2 G5 on-demand, us-east-1 Linux, the instance price ÷ its A10G GPUs: g5.xlarge $1.006/h "
        "(1 GPU; factualminds.com 'Amazon EC2 On-Demand Pricing' 2026-06), g5.12xlarge $5.672 (4 GPUs: "
        "$1.42), g5.48xlarge $16.288 (8 GPUs: $2.04), as transcribed from instances.vantage.sh in "
        "github.com/tsaol/aws-gpu data/g5_instances.js. AWS-only card: no CNY market."
    ),
    N_(
        "USD: AWS EC2 G6 on-demand, us-east-1 Linux, the instance price ÷ its L4 GPUs: g6.xlarge $0.8048/h "
        "(1 GPU), g6.12xlarge $4.6016 (4 GPUs: $1.15), g6.48xlarge $13.3504 (8 GPUs: $1.67), as transcribed "
        "from instances.vantage.sh in github.com/tsaol/aws-gpu data/g6_instances.js (updated 2026-08-26). "
        "No CNY list on file."
    ),
    N_(
        "AWS EC2 G5 on-demand, us-east-1 Linux, the instance price ÷ its A10G GPUs: g5.xlarge $1.006/h (1 "
        "GPU; factualminds.com 'Amazon EC2 On-Demand Pricing' 2026-06), g5.12xlarge $5.672 (4 GPUs: $1.42), "
        "g5.48xlarge $16.288 (8 GPUs: $2.04), as transcribed from instances.vantage.sh in "
        "github.com/tsaol/aws-gpu data/g5_instances.js. AWS-only card: no CNY market"
    ),
    N_(
        "AWS EC2 G6 on-demand, us-east-1 Linux, the instance price ÷ its L4 GPUs: g6.xlarge $0.8048/h (1 "
        "GPU), g6.12xlarge $4.6016 (4 GPUs: $1.15), g6.48xlarge $13.3504 (8 GPUs: $1.67), as transcribed "
        "from instances.vantage.sh in github.com/tsaol/aws-gpu data/g6_instances.js (updated 2026-08-26). "
        "No CNY list on file"
    ),
    N_(
        "USD: RunPod RTX 5090 32GB $0.69/h spot – $1.22/h on-demand (deploybase.ai 'RunPod GPU Pricing: 2026 "
        "Comprehensive Pricing Guide', data as of 2026-03); Spheron from $0.86/h (spheron.network 'RTX 5090 "
        "vs RTX 4090', prices as of 2026-05-03); Vast.ai on-demand $0.865–1.141/h (usagepricing.com 'Vast.ai "
        "pricing', captured 2026-06). No CNY list on file."
    ),
    N_(
        "RunPod RTX 5090 32GB $0.69/h spot – $1.22/h on-demand (deploybase.ai 'RunPod GPU Pricing: 2026 "
        "Comprehensive Pricing Guide', data as of 2026-03); Spheron from $0.86/h (spheron.network 'RTX 5090 "
        "vs RTX 4090', prices as of 2026-05-03); Vast.ai on-demand $0.865–1.141/h (usagepricing.com 'Vast.ai "
        "pricing', captured 2026-06). No CNY list on file"
    ),
)
"""The catalog's price sources, as the ledger cites them."""

_KNOWN = frozenset(PRICE_SOURCES)


ENGLISH_WORDS_RE = re.compile(r"(?<![\w%(])[A-Za-z][A-Za-z'’-]*(?:,? [A-Za-z][A-Za-z'’-]*)+")
"""Two English words or more in a row ("model card", "read via copies of"): prose, where a reference
('Qwen/Qwen-72B config.json', 'trl/trainer/grpo_config.py') or a card's name ('H100 SXM') has none."""

_REFERENCE_RE = re.compile(
    r"https?://[^\s,;)]+|[\w.-]+/[\w.@/-]+(?: config\.json)?|[A-Z][\w-]+ et al\.,? \d{4}"
)
"""The first reference a catalog citation names: a URL, a repository path ('Qwen/Qwen-72B config.json',
'trl/trainer/grpo_config.py') or a paper ('Brown et al. 2020')."""

CITED_AMONG = N_("%(reference)s, among others")
CITED_ENGLISH = N_("a source noted in English (the JSON answer has it)")


def source_text(lang: str, citation: str) -> str:
    """A price source in ``lang`` when it is one of :data:`PRICE_SOURCES`; any other citation (a model
    card, a paper, a provider's own words) as written — except prose in a Chinese reply (issue 24, s24
    trial 2 #20: the model catalog's English notes on where a parameter count was read): there the first
    reference it names ('Qwen/Qwen-72B config.json 等'), the full text staying in the JSON's
    ``assumptions[].citation`` and in the English reply."""
    if citation in _KNOWN:
        return translate(lang, citation)
    if lang != "zh" or ENGLISH_WORDS_RE.search(citation) is None:
        return citation
    ref = _REFERENCE_RE.search(citation)
    return translate(lang, CITED_AMONG, reference=ref.group(0)) if ref else translate(lang, CITED_ENGLISH)
