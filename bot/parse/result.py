"""What the parser understood from one message: a typed request and what else was said."""

from pydantic import BaseModel, Field

from bot.parse.lang import Lang, as_lang, client_lang
from estimator.copying import model_copy as _model_copy
from estimator.factories import empty_dict, empty_list
from estimator.models import SizingRequest, Stage


class ParseResult(BaseModel, defer_build=True):  # schema built on first use: start-up
    """What the parser understood from one message."""

    model_copy = _model_copy  # pydantic's in one frame (s40-speed: estimator.copying)
    request: SizingRequest
    lang: Lang = Field(description="language of the question: any CJK → 'zh'")
    found: list[str] = Field(default_factory=empty_list, description="request fields taken from the text")
    gpu_alternatives: list[str] = Field(
        default_factory=empty_list, description="other GPU ids when comparing"
    )
    unknown_gpu: str | None = None
    """a GPU-like name not in the catalog, as typed"""
    gpu_suggestions: list[str] = Field(default_factory=empty_list, description="closest catalog GPU families")
    unknown_model: str | None = None
    model_typed: str | None = None
    """the model name as typed, when it was matched"""
    model_substitution: str | None = None
    """why the matched model is not exactly what was typed ('no_version': latest release)"""
    model_suggestions: list[str] = Field(default_factory=empty_list)
    model_family_only: bool = False
    """``unknown_model`` is a catalog family named without a size ('Bloom'): the suggestions are its sizes"""
    fits_asked: bool = False
    """a family without a size, and the message asks which size fits or runs (bot.parse.fits_asked, s31)"""
    asks_verdict: bool = False
    """a yes/no fit question on the user's own count ('2 张 4090 够吗', 'will it fit'): the verdict leads
    (bot.parse.verdict_asked, s39 fixv #6)"""
    truncated: bool = False
    """the text was cut before parsing"""
    node_counts: tuple[int, ...] = ()
    """the GPU counts of a written list of node counts, each nodes × GPUs per node ('2, 4 or 8 nodes of 8
    H100' → (16, 32, 64); bot.parse.value_list.node_list, s41): a row each (bot.core.per_value). An
    immutable default (s42): no factory frame a parse (tests/test_parse_render_speed.py) and no builtin
    factory at start-up (tests/test_startup_factories.py)"""
    out_of_scope: bool = False
    # Extras (not request fields): what else was said, for the dialogue and the reply.
    preference: bool = False
    """DPO/PPO/GRPO/RLHF: preference tuning (stage stays finetune)"""
    asks_cost: bool = False
    """the question asks what it costs ('多少钱', 'how much')"""
    asks_concurrency: bool = False
    """how many sequences can be served at once, not stated ('多少并发')"""
    asks_gpu_days: bool = False
    """the question asks GPU-days ('H200 GPU-days', '卡·天')"""
    asks_ttft: bool = False
    """the question asks the time to first token ('首token要多久')"""
    asks_speed: bool = False
    """the question asks the decode speed ('每秒多少token', 'tokens/s')"""
    asks_throughput: bool = False
    """the speed asked is the throughput ('what throughput?', '吞吐量多少'): the total tokens/s leads (s35)"""
    asks_usable: bool = False
    """the question asks the memory usable per GPU, or left for the KV cache ('可用显存多少', s32 #2)"""
    asks_steps: bool = False
    """the question asks how many optimizer steps ('一天能跑多少步', 'steps per day'; s32 fixi #1)"""
    asks_largest: bool = False
    """which model fits the GPUs ('一张4090能跑多大的模型')"""
    gpu_memory_gib: float | None = None
    """memory per GPU when stated ('A100 40G')"""
    gpu_count_max: int | None = None
    """upper end when a range of GPUs was given"""
    gpu_alternative_memory: dict[str, float] = Field(
        default_factory=empty_dict,
        description="GiB per card stated beside another GPU named ('A800 40G'), by id",
    )
    gpu_alternative_counts: dict[str, int] = Field(
        default_factory=empty_dict,
        description="the count stated beside each other GPU when options are compared ('8x H100 or 16x A')",
    )
    gpu_alternative_prices: dict[str, float] = Field(
        default_factory=empty_dict,
        description="the price per GPU-hour stated after each other GPU compared ('A100 at $1.19'), by id",
    )
    tool_cue: str | None = None
    """the settings a training tool was inferred from when none was named ('cutoff_len')"""
    data_bytes: float | None = None
    """training text given in bytes ('20GB 纯文本')"""
    recipe_tools: list[str] | None = None
    """launch recipes asked for ('给我DeepSpeed配置' → ['deepspeed']); [] = any tool ('启动命令');
    None = not asked"""
    notes: list[str] = Field(default_factory=empty_list, description="parser decisions worth showing")
    vague_read: list[tuple[str, float]] = Field(
        default_factory=empty_list,
        description="rough token amounts read as a number, as typed ('几十亿' → 5e9; see vague_amounts)",
    )
    card_sku: str | None = None
    """a catalog card's SKU as typed ('910B2'), sized on that card (written_names)"""
    card_generation: str | None = None
    """a card typed with a generation or form word its catalog entry lacks ('A100 Blackwell'), sized on that
    catalog card and said so (bot.parse.card_generation)"""
    nodes_read: list[tuple[str, str, str]] = Field(
        default_factory=empty_list,
        description="'N机M卡' as typed, the GPU count read and how (ji_ka_each: N × M; ji_ka_total: M)",
    )
    bounds_read: list[tuple[str, str, str]] = Field(
        default_factory=empty_list,
        description="lower bounds as typed ('至少 16k'), the value sized (the least) and the field's reason "
        "(lower_bound_context, lower_bound_concurrency; see bound_words)",
    )
    ignored_numbers: list[str] = Field(
        default_factory=empty_list, description="numbers dropped as absurd (> 1e18 or not finite), as typed"
    )
    unused_numbers: list[tuple[str, str]] = Field(
        default_factory=empty_list,
        description="numbers the request does not use, as typed, with why: 'unread' (no word said what "
        "they are) or 'repeated' (a second value for a one-value field)",
    )
    repeated_used: dict[str, str] = Field(
        default_factory=dict,
        description="each 'repeated' number (as typed) → the value of its field that was used, as typed",
    )
    nonpositive_numbers: list[str] = Field(
        default_factory=empty_list,
        description="zero or negative counts and sizes, dropped, as typed ('0', '-8')",
    )
    unusable_numbers: list[str] = Field(
        default_factory=empty_list,
        description="values outside bot.settings.chat' bounds (MFU, deadline, price) or not numbers "
        "('nan b'), dropped, as typed",
    )
    # What the conversation reads from the message (bot.parse.cues): core does not parse again.
    normalized: str = ""
    """the message normalized (bot.parse.normalize.normalize)"""
    stage_word: Stage | None = None
    """a stage named by a stage word (预训练, 微调, 推理, fine-tune, serve …), not inferred; LoRA/QLoRA words
    are left to the method rule"""
    followup_cue: bool = False
    """a follow-up cue: 那…呢, 换成, what about, instead …"""
    reset_cue: bool = False
    """an inverse question or a reset: 多大的模型, new question …"""
    change_cue: bool = False
    """starts as a change to a previous question ('用256张'): a cue only when none"""
    message_lang: Lang | None = None
    """the message's own language evidence (bot.parse.lang.message_lang); None: none"""
    lang_cue_only: bool = False
    """the message is a follow-up cue word with names and counts only ('what about H20?', 'H20呢？';
    bot.parse.lang.cue_only): its words do not switch a conversation's language (s38 fixm #2)"""
    card_slots: int | None = None
    """a machine's card slots as stated ('4 个卡槽'): at most that many cards in it"""
    count_cue: bool = False
    """asks how many GPUs, with or without the noun ('要几张卡', 'how many do I need?'): in a follow-up the
    count is sized afresh (bot.core.followup.with_count_asked)"""
    machine_counts: list[str] = Field(
        default_factory=empty_list,
        description="machine counts with no card count after them, as typed ('4台', '4 nodes'): a follow-up "
        "reads an unread one as machines × the earlier turn's GPUs per machine (bot.core.followup_machines)",
    )
    duration_cue: bool = False
    """asks how long ('要多久', 'how long')"""
    compared_models: tuple[str, ...] = ()
    """catalog ids of the other models the question sets beside the sized one ('Qwen3-32B 还是 Llama-3.3-70B，
    哪个…'), each sized at the same load and settings (bot.parse.models_compared, s36); a tuple: no default
    factory called per result (tests/test_parse_render_speed.py)"""
    bare_length: int | None = None
    """tokens of a length written alone ('那32k呢', 'at 128K?'), the message reading nothing else: a
    follow-up's new context or sequence length (bot.parse.bare_length)"""

    def reply_lang(
        self,
        *,
        fixed: str | None = None,
        chosen: str | None = None,
        previous: str | None = None,
        client: str | None = None,
    ) -> Lang:
        """:func:`bot.parse.lang.reply_lang` of the parsed message, from the evidence kept here."""
        return (
            as_lang(fixed)
            or as_lang(chosen)
            or (None if self.lang_cue_only and as_lang(previous) else self.message_lang)
            or as_lang(previous)
            or (client_lang(client) or self.lang)
        )
