"""Word lists the parser matches against: spelling variants, stage words, out-of-scope topics.

Catalog names (GPU and model ids and aliases) come from ``estimator/data``; this module only
holds what is about *language*: Traditional → Simplified characters for the key words, common
typos, Chinese model nicknames, and the keyword patterns for stages, methods and precisions.
"""

from __future__ import annotations

from bot.parse.card_vendors import MORE_CARDS
from bot.parse.more_tools import in_launcher
from bot.parse.regex import LazyPattern, rc

# Chinese names and nicknames of model families → the ASCII family word the model regex knows.
CN_MODEL_NAMES: list[tuple[str, str]] = [
    ("通义千问", "qwen"),
    ("千问", "qwen"),
    ("百川", "baichuan"),
    ("零一万物", "yi-"),
    ("深度求索", "deepseek"),
    ("羊驼", "llama"),
    ("智谱", "glm"),
    ("书生·浦语", "internlm"),
    ("书生浦语", "internlm"),
    ("浦语", "internlm"),
    ("月之暗面", "kimi "),
]

FAMILY_KIN: dict[str, tuple[str, ...]] = {"glm": ("glm", "chatglm")}
"""A family word that also names another family's releases (s16): 'glm-6b', 'GLM3-6B', '智谱 6B' are
Zhipu's ChatGLM releases (THUDM/chatglm-6b, chatglm2-6b, chatglm3-6b); 'glm4 9b' stays GLM-4-9B."""

# Model families the mention regex recognizes (catalog families are added at runtime).
MODEL_FAMILIES: list[str] = [
    "llama",
    "codellama",
    "qwen",
    "deepseek",
    "mixtral",
    "mistral",
    "gpt",
    "chatglm",
    "glm",
    "baichuan",
    "yi",
    "gemma",
    "phi",
    "internlm",
    "falcon",
    "bloom",
    "opt",
    "claude",
    "ernie",
    "moss",
    "vicuna",
    "starcoder",
    "grok",
    "kimi",
    "minimax",
    "whisper",
    "bert",
    "t5",
    # derivatives that are not the family they contain: named as typed, never sized as that family
    "open_llama",
    "openllama",
    "open-llama",
    "tinyllama",
    "tiny-llama",
]
SHORT_FAMILIES = {"yi", "phi", "opt", "gpt", "t5", "bert", "glm"}  # need a version or size after them

# Non-LLM transformers people ask about next to LLMs: sizes from their papers, for memory sizing.
# Whisper: Radford et al. 2022, "Robust Speech Recognition via Large-Scale Weak Supervision", Table 1.
ADJACENT_MODELS: list[tuple[LazyPattern, str, float]] = [
    (rc(r"whisper[\s\-_]*large(?:[\s\-_]*v(\d))?"), "Whisper-large", 1.55e9),
    (rc(r"whisper[\s\-_]*medium"), "Whisper-medium", 769e6),
    (rc(r"whisper[\s\-_]*small"), "Whisper-small", 244e6),
    (rc(r"whisper[\s\-_]*base"), "Whisper-base", 74e6),
    (rc(r"whisper[\s\-_]*tiny"), "Whisper-tiny", 39e6),
]

NOT_GPU_NAMES = (
    "with", "on", "using", "use", "for", "have", "has", "had", "got", "need", "needs", "and", "or", "of",
    "about", "only", "just", "rent", "buy", "into", "onto", "across", "over", "under", "than", "from", "to",
    "at", "by", "per", "each", "all", "the", "our", "my", "your", "their", "these", "those", "some", "many",
    "few", "more", "less", "total", "around", "approx", "nearly", "like", "plus", "are", "is", "be", "get",
    "gets", "run", "runs", "want", "takes", "take", "fits", "fit", "into", "onto", "still", "extra",
)  # fmt: skip
"""Words before a count that are not a card's name ("with 16 cards", "need 64 GPUs")."""
NOT_CARD_NAME_WORDS = (
    *NOT_GPU_NAMES, "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve",
    "sixteen", "dozen", "new", "used", "old", "spare", "same", "other", "identical", "similar", "cheap",
    "consumer", "server", "datacenter", "workstation", "gaming", "pcie", "sxm", "nvidia", "amd", "intel",
    "those", "such", "two", "several", "multiple", "bigger", "smaller", "big", "small", "whose", "which",
    "single", "dual", "quad", "x", "of", "modded", "modified", "hacked", "vram", "memory", "gpu", "card",
)  # fmt: skip
"""Words before a memory and a card word that are not a card's name ("two 48GB cards", "used 24G 卡")."""

_SCREEN = (
    r"[\s\-]*1[3-7](?:\.\d)?(?:\s*(?:寸|英寸|吋|-?inch(?:es)?(?![a-z])))?"
    r"(?![\d.]|\s*(?:g|t|m|核|cores?)(?![a-z]{2}))"
)
"""s49 round 45: a laptop's screen size after its name ('MacBook Pro 16 寸', 'MacBook Pro 16-inch', 'MacBook
Air 15'), part of the device named as typed; before, the 16 between the device and its chip ('MacBook Pro
16 寸 M1 Max') was read as 16 chips. A memory ('MacBook Pro 16GB', '16G 内存') or core count is no size."""
# GPU-like names that are not accelerators in the catalog (checked after catalog names are masked).
UNKNOWN_GPU_RE = rc(
    r"(?<![a-z0-9])(?=[a-z0-9鲲昇寒摩壁沐昆燧海天骁算华小红手安苹智思曦云树\ue003])(?:"  # first chars below
    r"(?:rtx|gtx)[\s\-]*\d{4}(?:[\s\-]*(?:ti|super|d(?:[\s\-]*v\d)?(?![a-z0-9])))?(?:s(?![a-z0-9]))?"  # 1080s
    r"|\d{4}[\s\-]*(?:ti|d(?:[\s\-]*v\d)?(?![a-z0-9])|super)"
    # GTX 10 / 16 and RTX 20 (round 35 zh: '我是 2080 的显卡') by the bare number before a card word
    r"|(?:1[06][5-8]0|20[678]0)(?=\s*(?:\d{1,2}\s*g(?:i?b)?\s*(?:显存)?\s*)?(?:的)?\s*(?:显卡|卡|gpu|card))"
    r"|apple[\s\-]*m[1-5](?:[\s\-]*(?:ultra|max|pro))?|m[1-5][\s\-]*(?:ultra|max)"
    r"|(?:mac[\s\-]*(?:studio|mini|pro)|macbook(?:[\s\-]*(?:pro|air))?)(?:"
    + _SCREEN
    + r")?[\s\-]*m[1-5](?:[\s\-]*(?:ultra|max|pro))?"
    r"|(?:mac[\s\-]*(?:studio|mini|pro)|macbook(?:[\s\-]*(?:pro|air))?)(?:"
    + _SCREEN
    + r")?(?![\s\-]*(?:m[1-5]|apple))"
    r"|鲲鹏[\s\-]*\d+|kunpeng[\s\-]*\d+|昇腾[\s\-]*\d+[a-z]?\d?|ascend[\s\-]*\d+[a-z]?\d?|910[a-z]\d"
    # s26: a bare Ascend 310 as a card ('310P3', 'Atlas 310P', '310B 的卡上'; '310B 的模型' is a size)
    r"|310[pb]\d(?![a-z0-9])|(?:atlas|华为|huawei)[\s\-]*310[pb](?![a-z0-9])"
    r"|310[pb](?=\s*(?:的\s*)?(?:卡|显卡|npu|加速卡|推理卡|cards?(?![a-z])|gpus?(?![a-z])))"
    r"|310p(?![a-z0-9])(?!\s*(?:的\s*)?(?:模型|大模型|参数|models?(?![a-z])|params?(?![a-z])|parameters?))"
    # s32: a bare 'Titan' names the card only before a card word, a small function word or no Latin word
    # ('4 块 Titan 全参微调', '2 Titans for LoRA', 'Titan GPUs'); 'the Titan Ridge dock' is no card
    r"|titan[\s\-]*ridge(?![a-z])"  # s33 #5: Intel's Thunderbolt 3 controller (eGPU docks), named as typed
    r"|(?<!amazon\s)titan(?:[\s\-]*(?:xp|x|v|z|black)(?![a-z])|s?(?=[\s\-]*(?:[^a-z\s\-]|$|"
    r"(?:gpus?|cards?|rtx|and|or|with|for|to|on|in|at|as|is|are|from|vs)(?![a-z]))))"
    r"|mi[\s\-]?\d{2,3}[a-z]?(?![\s\-]*(?:分钟|mins?\b|minutes?))|gaudi[\s\-]*\d"
    r"|tpu[\s\-]*v?\d+[a-z]?(?:-\d{1,4}(?![\d.])(?:s(?![a-z0-9]))?)?"  # s42: 'TPU v3-8s' (cut to its name)
    r"|(?:(?:寒武纪|cambricon)[\s\-]*)?mlu[\s\-]*\d+(?:[\s\-]*[a-z]\d{1,2}(?![\d.]*\s*g))?"
    r"|寒武纪[\s\-]*思元[\s\-]*\d{3}[a-z]?(?![0-9])|寒武纪\w{0,4}"  # s48 round 44: '寒武纪思元590' whole
    r"|(?:(?:moore\s*threads\s*|摩尔线程\s*)(?:mtt[\s\-]*)?|mtt[\s\-]*)[sx]\d{2,4}|(?:biren\s*|壁仞\s*)?br\d{3}"
    # Chinese and other accelerators outside the catalog, by vendor word + model number (r27: or '燧原的卡')
    r"|(?:沐曦|metax)[\s\-]*(?:曦云)?[\s\-]*[a-z]?\d{2,4}[a-z]?"
    r"|(?:昆仑芯?|kunlun(?:xin)?)[\s\-]*[a-z]?\d{2,4}[a-z]?"
    r"|(?:算能|sophgo|sophon)[\s\-]*(?:bm|sg|cv)?[\s\-]*\d{4}[a-z]?|(?:bm|sg)\d{4}[a-z]?(?![a-z0-9])"  # s22
    r"|(?:燧原|enflame)[\s\-]*(?:云燧)?[\s\-]*[a-z]?\d{1,4}[a-z]?"
    r"|(?:燧原|enflame|沐曦|metax|壁仞|biren)(?=\s*(?:的\s*)?(?:卡|显卡|加速卡|gpu|cards?(?![a-z])))"
    r"|(?:海光|hygon)[\s\-]*(?:dcu)?[\s\-]*[a-z]?\d{2,4}[a-z]?(?:[\s\-]?ai(?![a-z]))?"
    # round 24 zh: both of Iluvatar's names before the model ("天数 Iluvatar BI-V150")
    r"|(?:天数智芯|天数(?=[\s\-]*iluvatar)|iluvatar)(?:[\s\-]*iluvatar)?[\s\-]*[\w\-]{2,12}"
    # round 22 zh: Hygon's DCU without a model ('海光 DCU 上'), Rockchip's SoCs ('RK3588'), Xiaomi phones
    # ('小米 14 Pro'; '小米 7B' is a size): named as typed, never an A100
    r"|(?:(?:海光|hygon)[\s\-]*)?(?<![\w\-/])dcus?(?![a-z0-9])(?![\s\-]*[a-z]?\d{2,4})|rk\d{4}[a-z]?(?![a-z0-9])"
    r"|(?:小米|红米|xiaomi|redmi)[\s\-]*(?:手机[\s\-]*)?\d{1,2}(?:[\s\-]*(?:pro|ultra|s))?(?![a-z0-9.])"
    # round 16 zh: Huawei's Atlas inference cards ('300I Duo': two chips on one card), Sophgo's TPUs ('单芯
    # 1684x', 'BM1688'), a name after the maker's word that no catalog entry took ('NVIDIA AX600'): named as
    # typed, never a catalog card sized
    r"|(?:atlas[\s\-]*)?300[iv][\s\-]*(?:duo|pro)(?![a-z0-9])|(?<=nvidia\s)[a-z]{2}\d{3,4}(?![a-z0-9])"
    r"|(?:bm[\s\-]?)?168[48]x(?![a-z0-9])|bm[\s\-]?168[48](?![a-z0-9])"
    # round 17 zh: Huawei's Atlas 800 servers by generation ('8 台 A2 服务器', '5 台 A2', 'Atlas 800I A3'),
    # read as A100 or dropped before; a server word or 台 / 机 (4 机 A2) beside it, as 'a2' is other things;
    # round 20 en: the generation after the maker's word ('an Ascend A3 box' was sized as an A100)
    r"|(?:atlas[\s\-]*800[it]?[\s\-]*|(?:ascend|昇腾)[\s\-]*|\ue003)a[23](?![a-z0-9])|(?:(?<=[台机])|(?<=[台机]\s))a[23](?![a-z0-9])"
    r"|a[23](?=\s*(?:服务器|机器|节点|servers?\b|nodes?\b))"
    r"|atlas[\s\-]*\d{3}[a-z]?(?![a-z0-9])"  # s31: any other Atlas model ('Atlas 300V'): as typed, no A100
    r"|tenstorrent[\s\-]*(?:blackhole|wormhole|grayskull)?(?:[\s\-]*[a-z]?\d{2,4}[a-z]?)?"
    r"|(?:intel[\s\-]*)?arc[\s\-]*(?:pro[\s\-]*)?[ab]\d{2,3}(?![a-z0-9])|rtx[\s\-]*pro[\s\-]*\d{4}(?:[\s\-]*blackwell)?"
    # s33: card_vendors.MORE_CARDS; s42: a NeuronCore (AWS Neuron, bot.parse.instances) as typed
    rf"|trainium\d?|inferentia\d?|neuroncore|(?:graphcore[\s\-]*)?ipu|{MORE_CARDS}"
    # s26: a family without a model ('Intel Gaudi', '华为的卡', 'AMD GPUs'; s28: 'AMD 的卡', '8 H cards')
    r"|(?<![\-_/])(?:(?:intel|habana)[\s\-]*){0,2}gaudi(?![\s\-]*\d)"
    r"|(?<![\-_/])(?:huawei[\s\-]*)?ascend[\s\-]*(?:npus?|cards?|chips?|accelerators?)(?![a-z0-9])"
    r"|昇腾\s*(?:npu|卡|芯片|加速卡)|(?:华为|huawei)\s*(?:的\s*)?(?:npus?(?![a-z0-9])|卡|显卡|cards?(?![a-z0-9]))|(?:amd|intel)[\s\-]*(?:(?:radeon|instinct)[\s\-]*)?(?:(?:gpus?|cards?)(?![a-z0-9])|(?:的\s*)?(?:显卡|卡))|(?<![a-z0-9\-_/.])(?:(?:intel|amd|ryzen[\s\-]*ai|qualcomm|snapdragon|hexagon|apple|mediatek|rockchip|samsung)[\s\-]*)?npus?(?![a-z0-9\-_])"
    r"|(?<![\-_/])tpus?(?![\s\-]*v?\d)(?![a-z0-9])|(?<![a-z0-9\-_/.])h(?:[\s\-]*系列)?[\s\-]*(?:的\s*)?(?:(?:cards?|gpus?)(?![a-z0-9])|显卡|卡)"
    # one-chip NVIDIA systems (s17: 'a DGX Spark' was read as a DGX of 8 A100s): named as typed
    r"|dgx[\s\-]*(?:spark|station)|jetson[\s\-]*(?:agx[\s\-]*)?(?:orin|thor|xavier)|gb10(?![0-9])"
    # round 13: AMD's unified-memory APU by each of its names (Strix Halo = Ryzen AI Max(+) 385/390/395, its
    # Radeon 8050S/8060S; the Framework Desktop built on it): one device, named as typed, never dropped; s41:
    # not inside a tool's name ('strix-halo-llamacpp v0.6.6 on a 128 GiB Ryzen AI Max+ 395': the Ryzen's)
    # s46 round 42: the SKU after the codename ('a Strix Halo 388 with 64GB': the 388 was read as 388 cards)
    r"|strix[\s\-]*halo(?:[\s\-]*3\d{2}(?![\d.]))?(?![\-_][a-z])|(?:ryzen[\s\-]*)?ai[\s\-]*max\s*\+?[\s\-]*(?:pro[\s\-]*)?3\d{2}|radeon[\s\-]*80[56]0s"
    r"|framework[\s\-]*desktop|g[hb][1-3]00(?![0-9])"  # r26: a GH200 (not in the catalog) as typed
    # round 14: phones and their systems-on-chip (one device, its RAM shared), named as typed, never dropped:
    # Snapdragon 8 Gen N / 8 Elite / X Elite (骁龙), Dimensity (天玑), Exynos, Google Tensor, Apple A-series,
    # iPhone, Pixel, Galaxy S
    r"|(?:snapdragon|骁龙)[\s\-]*(?:8[\s\-]*(?:\+[\s\-]*)?(?:gen[\s\-]*\d|elite)|x[\s\-]*(?:elite|plus)|\d{3})"
    r"|(?:dimensity|天玑)[\s\-]*\d{3,4}|exynos[\s\-]*\d{3,4}|(?:google[\s\-]*)?tensor[\s\-]*g\d"
    r"|(?:apple[\s\-]*)?a1\d[\s\-]*(?:pro|bionic)|iphone[\s\-]*\d{1,2}(?:[\s\-]*(?:pro[\s\-]*max|pro|plus|mini))?"
    r"|pixel[\s\-]*\d{1,2}(?:[\s\-]*pro)?|galaxy[\s\-]*s\d{2}(?:[\s\-]*ultra)?"
    # s30: a phone with no model named, as bot/parse/phone_ram.py writes it with its RAM ('手机 with 12gb ')
    r"|(?:(?<![a-z])(?:android\s+|smart)?phone|(?:安卓|苹果|android\s*)?手机)(?=\s*with\s+\d{1,2}(?:\.\d)?gb\s)"
    # s51: a single-board computer or a phone by its system ('a Raspberry Pi 4', '树莓派 5', 'on Android',
    # '安卓手机') and an Apple chip after 'my'/'on'/'an' ('on my M1'): named as typed, never an A100;
    # not Android's tools ('Android Studio', 'the Android SDK')
    r"|(?:raspberry[\s\-]*pi|树莓派)(?:[\s\-]*\d(?![\d.]*\s*g))?"
    r"|(?<![a-z])android(?![\s\-]*(?:studio|sdk|ndk|apps?|apis?)(?![a-z]))(?![a-z])|安卓(?:[\s\-]*(?:手机|设备))?"
    r"|(?:(?<=my\s)|(?<=on\s)|(?<=an\s))m[1-5](?![a-z0-9])|m[1-5](?=[\s\-]*(?:mac|chip|芯片))"
    r"|[a-z]{2,5}-\d{3,5}(?=\s*\d{2,3}\s*g)"
    # a card word in the name and its memory right after ("one MyCard 24GB", "a SuperGPU 48GB card"). In
    # the three name branches below the cheap look-ahead comes first: look-aheads at one position are all
    # required, in any order, and the one in front is implied by the branch (a name of 2-18 name characters
    # then a digit), so the long word lists are tried only where a name could stand (s21, issue 23 item 7)
    r"|(?=[a-z0-9]*(?:gpu|npu|xpu|card))(?!(?:gpus?|cards?|npus?|xpus?|tpus?|graphicscards?|videocards?)\b)"
    r"[a-z][a-z0-9]{2,15}(?=(?:\s*|-)\d{2,3}\s*g(?:i?b)?\b)"  # s46: or joined by a hyphen ('vGPU-32GB')
    # any other name, its memory, then a card word ("2 MegaChip 48GB cards", "2 张 MegaChip 48G 卡")
    r"|(?=[a-z][a-z0-9&\-]{2,17}\s*\d)(?!(?:" + "|".join(NOT_CARD_NAME_WORDS) + r")\b)"
    r"(?:[a-z][a-z0-9&]{2,15}|[a-z][a-z0-9&]{1,8}-[a-z0-9]{1,8})"  # 'RD-X 48GB cards' (trial s12 A8)
    r"(?=\s*\d{2,3}\s*g(?:i?b)?\s*(?:的\s*)?(?:gpus?|cards?|accelerators?|npus?|卡|显卡)(?![a-z0-9]))"
    # a name after 'called'/'named' and its memory ("2 cards called Foo 48GB", trial s12 A8)
    r"|(?:(?<=called\s)|(?<=named\s))(?=[a-z][a-z0-9&\-]{1,15}\s*\d)(?!(?:"
    + "|".join(NOT_CARD_NAME_WORDS)
    + r")\b)"
    r"[a-z][a-z0-9&\-]{1,15}(?=\s*\d{2,3}\s*g(?:i?b)?\b)"
    # any other name + model number right before "cards"/"GPUs"/"卡" ("two FooGPU 9000 cards")
    r"|(?=[a-z0-9]*(?:gpu|npu|xpu|tpu|\d))(?!(?:"
    + "|".join(NOT_GPU_NAMES)
    + r")\b)[a-z][a-z0-9]{2,15}[\s\-]?"
    r"(?!\d{2,3}\s*g(?:i?b)?\b)\d{2,5}[a-z]{0,2}"
    r"(?=\s*(?:gpus?|cards?|accelerators?|npus?|卡|显卡)\b)"
    # s42 trial #1: a model number of one or two letters, then digits, right before a card word, after a
    # name ('Foo X1 GPU', 'Zeta Q7 卡') or alone with 3+ digits ('an X9000 GPU'); never a format or a degree
    # of parallelism ('fp8', 'bf16', 'tp8', 'sm90'): bot.parse.x_card_name keeps such an x from the count
    r"|(?:(?!(?:" + "|".join(NOT_CARD_NAME_WORDS) + r"|nodes?|servers?|machines?|a|an)\s)"
    r"[a-z][a-z0-9&]{1,15}\s"
    r"(?!(?:fp|bf|int|tp|dp|pp|ep|cp|sm|mp|w|a)\d)[a-z]{1,2}\d{1,5}"
    r"|(?!(?:fp|bf|int|tp|dp|pp|ep|cp|sm|mp)\d)[a-z]{1,2}\d{3,5})[a-z]{0,2}"
    r"(?=\s*(?:\d{2,3}\s*g(?:i?b)?\s*)?(?:的\s*)?(?:gpus?|cards?|accelerators?|npus?|卡|显卡|加速卡)(?![a-z]))"
    r"|(?:rtx[\s\-]*)?a[245]\d{3}(?![\d])"  # NVIDIA RTX A2000/A4000/A4500/A5000/A5500 (round 4)
    r"|[abhl]\d{2,3}[a-z]?"
    # NVIDIA data-center cards by architecture letter (Kepler K, Maxwell M, Pascal P, Volta V, Turing T):
    # 'K80', 'M40', 'Tesla P4'; a percentile ('p99', 'p50') is none
    r"|tesla[\s\-]*[kmpvt]\d{1,3}|[km]\d{2}|p(?!50|90|95|99|999)\d{2,3}"
    r")(?![a-z0-9])"
)
"""Names that look like accelerators: unknown ones are named as typed, never replaced by another card.
The last alternatives catch vendor-like names ("XPU-9000 48GB") followed by a memory size, and a name
with a card word ("MyCard 24GB", "SuperGPU 48GB card", s10 trial A4) followed by its memory: that memory
is the card's, never its model number. The
look-ahead names every character an alternative can start with (tests/test_parse_lookahead.py derives
them from the parsed pattern): it changes no match and spares the engine the ~35 alternatives at every
Chinese character (~32 → ~12 µs a message)."""

OUT_OF_SCOPE_RE = rc(
    r"gaming(?!\s+(?:laptop|pc|rig|desktop|gpu|card|notebook))|游戏(?!本|卡|显卡|笔记本|电脑|主机)|\bgames?\b|\bfps\b|"
    r"概念股|股票|股价|\bstocks?\b|炒股|买哪只|bitcoin|比特币|挖矿|\bmining\b|"
    r"\bmine\b|以太坊|ethereum|crypto|天气|weather|stable[\s\-]*diffusion|\bsdxl\b|\bsd\s?1\.5\b|"
    r"midjourney|文生图|图像生成|画图|video\s+generation|视频生成|显卡驱动|driver\s+install"
)  # not LLM sizing (the parser still fills what it can); a gaming laptop or card is hardware

INJECTION_RE = rc(  # injection sentences dropped before parsing; s36-gen2: 'a system prompt of N' is none
    r"ignore\s+(?:all\s+)?(?:the\s+)?(?:previous|prior|above)|(?:(?<=your )|(?<=print ))system\s+prompt"
    r"|disregard\s+(?:all|previous)|忽略(?:之前|以上|上面|前面)|直接回答|jailbreak|you\s+are\s+now"
)

CONTINUED_RE = rc(  # stage, method, algorithm and precision words (applied to the normalized lower-case text)
    r"继续预训练|增量预训练|持续预训练|二次预训练|继续训练|continued[\s\-]*pre[\s\-]*train|"
    r"continu(?:e|al|ing)[\s\-]*pre[\s\-]*train|(?<![a-z0-9][\-_./])\bcpt\b|domain[\s\-]*adaptive[\s\-]*pre"
)
PRETRAIN_RE = rc(  # not code's 'from_pretrained', 'pretrained_model_name_or_path' nor 'pretrained weights'
    r"预训练|从零|从头训|from\s+scratch|(?<![a-z_.])pre[\s\-]?train(?!ed[\s_]+(?:model|weight|checkpoint)|_|ed_)|底座"
)


def not_in_name(word: str) -> str:
    """``word`` (an algorithm: 'dpo', 'grpo') not written inside a model's hyphenated name: never after a
    size and a hyphen ('MiniCPM-2B-dpo-bf16', 'Qwen2-7B-GRPO') nor between two hyphens ('MiniCPM-dpo-Int4');
    after one hyphen at a name's end it is the algorithm ('Step-DPO', 'dolphin-dpo.yml'), as after '--'."""
    return rf"(?:(?<![a-z0-9\-])|(?<=--)|(?<=[^\-]-)(?<!\d[bm]-)(?!{word}-[a-z0-9])){word}"


FINETUNE_RE = rc(
    r"微调|精调|(?:全参|全量)(?!数?\s*(?:继续|增量)?预训练)|指令调优|(?<![\-_])\bsft\b|fine[\s\-]?tun|finetun|\bq?lora\b|adapters?\b|"
    rf"{not_in_name('dpo')}\b|{not_in_name('ppo')}\b|{not_in_name('grpo')}\b|{not_in_name('rloo')}\b|"
    r"\brlhf\b|\brl(?:aif|vr|ef|cf)\b(?![\s\-]+(?:rollouts?|inference|generation|sampling|serving))|reinforcement[\s\-]+fine[\s\-]?tun|对齐训练|"
    r"full[\s\-]*(?:parameter|param(?!eter)|weight)(?!s?[\s\-]*(?:(?:continued|continual)[\s\-]*)?pre[\s\-]?train)|"
    r"(?<![a-z0-9_\-./])rl(?![a-z0-9_\-])(?![\s\-]+(?:rollouts?|inference|generation|sampling|serving|engines?|models?|checkpoints?)\b)|后训练|reinforcement[\s\-]+learning"
    r"(?![\s\-]+(?:research\w*|engineers?|teams?|groups?|papers?|courses?|background))|强化学习|"
    r"post[\s\-]?training|后训练|量化训练|instruct(?:ion)?[\s\-]*tun(?:ing|ed|e)\b|"
    r"(?:reward|奖励)[\s\-]*(?:model|模型)\s*(?:training|训练)|训练[^，。,?？]{0,30}?(?:reward|奖励)[\s\-]*(?:model|模型)|"
    r"\btrain(?:ing)?\s+(?:a|the|our|my)\s+reward\s+model|"
    r"(?:4|8)[\s\-]?bit\s+(?:quantized\s+)?training|"
    r"调\s*(?=(?:[a-z][\w\-.]*\s*)?\d+(?:\.\d+)?\s*b\b)"
    r"|\bcutoff[_\s\-]?len(?:gth)?\b"  # LLaMA-Factory's fine-tuning length (trial s18 #5)
)
"""Fine-tuning words; not a model's '-sft' suffix ('internlm2-chat-7b-sft' is a name). RL training and
post-training tune a trained model (round 7: 'reinforcement learning (training) of a 7B model', 'RL on
Qwen', '强化学习' alone); '4bit 量化训练' / '4-bit quantized training' is QLoRA (Dettmers et al.
2023: 4-bit quantized base, trained adapters). Round 9: the verb '调' right before a model and its size
('调 Baichuan 13B 需要多少显存', '调 7B'), never a word of its own ('协调', '调用 Qwen-7B', '调到 4').
Round 11: RL post-training named by its feedback, not its algorithm: RLHF, RLAIF (AI feedback; Bai et al.
2022), RLVR (verifiable rewards; Lambert et al. 2024, Tulu 3), RLEF (execution feedback; Gehring et al.
2024), RLCF, 'reinforcement fine-tuning': each tunes a trained model (en11-003 read 'RLVR' as a name); not
before a serving noun ('RLVR rollout with vLLM': the rollout engine is sized, en-018). Round 14: 'RL 训练',
'RL 微调' and 后训练 (post-training) in Chinese, as 'RL training' is. Round 15: 'RL' as a word of its own
('the RL stage', 'RL 阶段', 'do RL on it'; en15-024 was sized as a pre-training), not inside a name or path
('OpenRLHF', 'examples/rl/') nor before a serving or model noun ('RL rollouts', 'the RL model').
Round 18: 全量 / 全参 before 预训练 say the pre-training trains every weight (全量预训练), no fine-tuning; s47
trialfix #1: so does 'full-parameter' / 'full-weight' before 'pre-training' or 'continued pre-training' in
English ('GaLore full-parameter pre-training of a 7B model' was a full fine-tuning with the pre-training named
as another setup)."""
INFERENCE_RE = rc(
    r"推理|部署|上线|serv(?:e|ing)\b|inference|\binfer\b|deploy|并发|concurren|\busers?\b|用户|同时用|"
    r"同时请求|\bvllm\b|ollama|sglang|\btgi\b|chatbot|kv\s*cache|\bqps\b|服务(?!器)|\bttft\b|首\s*token|"
    r"time\s+to\s+first\s+token|lmdeploy|turbomind|tensorrt[\s\-]?llm|\btrt[\s\-]?llm\b|exllama"
)
TRAIN_RE = rc(
    r"训|\btrain|megatron|\bflops?\b|6nd|\bmfu\b|gpu[\s\-]*hours?|gpu小时|卡时|h\d00[\s\-]*days|"
    r"\bdp\b|数据并行|epoch|\bgrad(?:ient)?[\s_\-]*(?:cach|checkpoint|accum)"  # r18: 'grad_cache' trains
    r"|sequence[\s\-_]*parallel|\bulysses\b|ring[\s\-]*attention"  # r26: long-sequence training (Ulysses)
    r"|梯度(?:累[积加计]|检查点)"  # s34-gen2: gradient accumulation / checkpointing in Chinese, as in English
    r"|\bzero[\s\-_]*(?:[=:]\s*)?(?:stage[\s\-_]*)?[0-3](?![\d.])|\bfsdp"  # s49: a training sharding alone
)
WEAK_INFERENCE_RE = rc(
    r"跑|\brun\b|\bruns\b|\bload|加载|带得动|量化|int4|int8|\bgptq\b|\bawq\b|gguf|显存|vram|\bmemory\b|"
    r"上下文|context|\bfit\b|运行|启动|gpu\s*内存|打标|标注|识别|\bcaption(?:s|ing)?\b|\bocr\b"  # s33: images
    r"|出图|生图|转写|转录|\btranscri(?:be[sd]?|bing|ptions?)\b"  # s33: generated images, transcribed audio
    # s42 round 38: decoding is serving ('decode speed', 'decoding at 30 tok/s'; a time per output token is
    # written as 'decode currently N tok/s', bot.parse.token_latency); 'decoder' is a model's part, not this
    r"|\bdecod(?:e|es|ed|ing)\b|解码"
    r"|\b(?:embed(?:s|ding)?|encod(?:e|es|ing))\b(?=(?:[^.?!\n]|\.\d){0,40}?\b(?:texts|documents|chunks|sentences)\b)"
    # s51: a served request with its tokens or time
    r"|\b(?:a|one|each|every|per|single)\s+(?:request|query)\s+(?:with|of|takes|needs)\b"
    r"|(?:一|每|单)(?:个|次|条)\s*请求\s*(?:\d|要|需要|耗时|花)"
)
"""Weak hints of serving: running, loading or fitting a model ('跑', 'run', '运行', '启动', s21: '运行 …
的最小 GPU 内存', '启动命令起不来' said no stage before) — read only when no training word is there. Round 26:
embedding or encoding texts, documents, chunks or sentences ('encode millions of texts'); s33: OCR; s42:
decoding, and so a time per output token ('35 ms/token'). s51: one request with its tokens or time ('a request
with 800 tokens takes ~300 seconds', '一个请求 800 token 要 300 秒': r46 en was sized as a pre-training on 800
tokens)."""
LORA_MEANS = r"(?:(?:with|using|use|via|through|by|doing|do|a|an|plain)\s+|(?:使用|采用|用|做|走)\s*)?"
"""Round 12: a means word between a negation and LoRA ('not with LoRA', 'not using LoRA', '不使用 LoRA')."""
FULL_RE = rc(
    r"全参|全量|all\s+parameters?|not\s+lora|no\s+lora|full[\s\-]*(?:parameter|param|weight|fine|ft\b|sft|finetun)|"
    r"adapters\s+are\s+out|\bfull\b|\bfully[\s\-]+(?:fine|finetun|train)"  # s21 trial: 'fully fine-tune'
)
NEGATORS = (
    r"(?:不用|不要|不做|不是|不采用|不使用|没有?用|未使用|非|without|no|not|non[\s\-]?|instead\s+of"
    r"|rather\s+than)"
)
"""Words that negate the method after them ('without LoRA', '不采用 LoRA')."""
NEGATED_LORA_RE = rc(NEGATORS + r"\s*" + LORA_MEANS + "q?lora")
QLORA_RE = rc(
    r"(?<![a-z0-9])(?:long[\s\-_]?)?qlora(?![a-z0-9])|4[\s\-]?bit\s*(?:量化|quantized|quantization)?\s*(?:\+|和|加|with|and)?\s*lora"
    r"|4[\s\-]?bit\s*(?:量化训练|量化微调|quantized\s+(?:training|fine[\s\-]?tuning))"
)
LORA_RE = rc(
    r"(?<![a-z0-9])(?:long[\s\-_]?)?lora(?![a-z0-9]|_(?:r|rank|alpha|dropout|targets?|target_modules|modules?)\b)"
)
"""LoRA, also inside a script or config name ('lora_mp/sft.sh', 'llama3_lora_sft.yaml'); a LoRA setting's key
('lora_rank 8', 'lora_target all') alone does not make a job LoRA (a full fine-tuning names it unused).
s21: LongLoRA is LoRA with shifted sparse attention (arXiv:2309.12307); r32: LongQLoRA (2311.04879) QLoRA."""
ALGORITHM_RES: list[tuple[str, LazyPattern]] = [
    # "DPOTrainer", "GRPOTrainer", "RLOOTrainer": the trainer classes of TRL
    ("dpo", rc(not_in_name("dpo") + r"(?:[\s_\-]*(?:trainer|config)|\b)|" + in_launcher("dpo"))),
    ("grpo", rc(not_in_name("grpo") + r"(?:[\s_\-]*(?:trainer|config)|\b)|" + in_launcher("grpo"))),
    ("ppo", rc(not_in_name("ppo") + r"(?:[\s_\-]*(?:trainer|config)|\b)|\brlhf\b|" + in_launcher("ppo"))),
    ("rloo", rc(not_in_name("rloo") + r"(?:[\s_\-]*(?:trainer|config)|\b)|" + in_launcher("rloo"))),
    ("sft", rc(r"(?<![\-_])\bsft\b|指令微调")),  # not a name's suffix ("internlm2-chat-7b-sft")
]
# Launch recipes asked for ("给我DeepSpeed配置", "vllm 启动命令", "LLaMA-Factory yaml"): a tool name with a
# recipe word, or a recipe word that needs no tool ("启动命令", "launch command"). A tool named alone
# ("用vllm部署70B") asks for sizing, not for a recipe.
RECIPE_TOOL_RES: list[tuple[str, LazyPattern]] = [
    ("deepspeed", rc(r"deep[\s\-_]*speed|\bds[\s_\-]*config")),
    ("megatron", rc(r"megatron")),
    ("llamafactory", rc(r"llama[\s\-_]*factory|\blmf\b")),
    ("torchtune", rc(r"torch[\s\-_]*tune")),
    ("torchrun", rc(r"torchrun")),
    ("vllm", rc(r"\bvllm\b")),
    ("sglang", rc(r"\bsglang\b")),
    ("llama.cpp", rc(r"llama[\s.\-_]*cpp|llama[\s\-_]*server")),
    ("ollama", rc(r"\bollama\b")),
]
RECIPE_WORD_RE = rc(
    r"配置|参数|命令|脚本|启动|怎么设|怎么写|\bconfig|\bcommand|\bcmd\b|\bargs\b|\barguments?\b|\bflags?\b|"
    r"(?<!\.)\byaml\b|(?<!\.)\bjson\b|\blaunch|\bscript|\brecipes?\b|\bsettings?\b"
)
"""A recipe word beside a tool; 'yaml' / 'json' as a file's extension is no such word: 'Here is my
ds_config.json …' pastes the user's own config (s26 trial #21: read as asking for a DeepSpeed recipe, and
a stray 'note: no launch recipe … P-tuning v2 …' went to stderr)."""
RECIPE_ALONE_RE = rc(
    r"启动命令|启动参数|启动脚本|训练脚本|配置文件|launch\s+(?:command|script|recipe|config)|config(?:uration)?\s+files?|"
    r"\brecipes?\b"
)

GLOBAL_BATCH_RE = rc(
    r"(?:(?:global|全局|总|有效|等效)[\s_\-]*(?:batch|批)|(?<![a-z_])(?:data\.)?train(?:[_\-]|(?P<prose>\s+))batch)(?:[\s_\-]*size|大小)?"
    r"\s*(?:=|:|：|为|是|of|取|设为)?\s*"
    r"(?P<n>\d[\d,]*)(?:\s*(?P<k>k)(?![a-z]))?(?![\d.]|\s*[kmb](?![a-z])|\s*[万亿]|\s*tokens?)"
)
"""A global batch in sequences ("global batch 512", "全局batch 1024", "global_batch_size=32", DeepSpeed's and
verl's "train_batch_size 512": sequences per optimizer step): the plan's global batch, not the micro-batch
a bare "batch 8" sets (s37-rev: nor prose 'train batch 4' outside RL, rl_batch.global_meant)."""
