"""Question text → typed SizingRequest, in steps (see :mod:`bot.parse.assemble`), plus what the
conversation reads from the message (:mod:`bot.parse.cues`): everything core needs, in one result."""

import re
from operator import itemgetter

from bot.parse.asides import without_other_cards, without_other_methods, without_other_setups
from bot.parse.asked_end import ASKED_END_RE, EARLIER_SETUP_RE
from bot.parse.cue_index import FOLD_TABLE, CueTable
from bot.parse.cue_words import CARD_MEND_CUES, OTHER_CARD_CUES
from bot.parse.daily_hours import with_daily_hours
from bot.parse.machine_asked import LAPTOP_RE, with_machine_asked
from bot.parse.message import parse_one
from bot.parse.non_llm import GATE_RE as NON_LLM_RE
from bot.parse.non_llm import with_audio_hours, with_non_llm
from bot.parse.normalize import normalize
from bot.parse.parse_error import failed_parse
from bot.parse.past_then_now import with_past_runs
from bot.parse.plain_forms import CUE_RE as PLAIN_CUE_RE
from bot.parse.plain_forms import plain_forms
from bot.parse.result import ParseResult
from bot.parse.second_stage import GATE_RE as THEN_SERVE_RE
from bot.parse.second_stage import with_second_stage
from bot.parse.seq_parallel import GATE_RE as SEQ_PARALLEL_RE
from bot.parse.seq_parallel import with_sequence_parallel
from bot.parse.slot_count import with_slot_count
from bot.parse.which_cards import GATE_RE as WHICH_CARDS_RE
from bot.parse.which_cards import with_cards_compared
from bot.parse.whitespace import LONG_RUN_RE, squeeze_whitespace
from estimator.later import later

# Two whole-message readers' gates, declared here: bot.parse.stage_rigs (which imports its gate back) and
# bot.parse.eval_cards are imported on parse's first call past their gate (estimator.later stand-ins, under
# names of their own: importing a submodule sets the package's attribute of its name; start-up, s45-speed)
(_stage_rigs,) = later("bot.parse.stage_rigs", "stage_rigs")
(_without_eval_cards,) = later("bot.parse.eval_cards", "without_eval_cards")
STAGE_RIGS_RE = re.compile(
    r"\A(?=.*?(?:pre-?train|预训练|fine-?tun|(?<![a-z])sft(?![a-z])|微调|lora|instruction[\s-]tun))"
    r"(?=.*?(?:\bthen\b|after\s+that|afterwards|然后|之后|再|接着|[.?!。？！]\s*\S))"
    r"(?=.*?(?:pre-?train|预训练|(?<![a-z])sft(?![a-z])|微调|fine-?tun|inference|serv(?:e|ing)|deploy|推理|部署)"
    r".*?(?:pre-?train|预训练|(?<![a-z])sft(?![a-z])|微调|fine-?tun|inference|serv(?:e|ing)|deploy|推理|部署))",
    re.IGNORECASE | re.DOTALL,
)
"""Cheap test: a training word, a sentence end or a 'then', and two stage words. Anchored at ``\\A``: the
lookaheads are tried at the start only, one linear scan each (unanchored, ``search`` retried them at
every position: O(n²), 12 s for a 10,000-character message, s24 trial #1)."""
STAGE_CUES = ("pre", "预训练", "sft", "微调", "fine", "inference", "serv", "deploy", "推理", "部署")
"""A literal each stage word of :data:`STAGE_RIGS_RE`'s third look-ahead holds, lower case ('pre-?train'
'pre', 'fine-?tun' 'fine', 'serv(?:e|ing)' 'serv'): two stage words, two of them in the folded text."""


EVAL_CARDS_RE = re.compile(
    r"(?:\bfor\s+(?:the\s+)?(?:evals?|evaluation|inference|serving)\b|做\s*(?:评测|评估|测评|推理)"
    r"|用于\s*(?:评测|评估|测评|推理)|用来\s*(?:评测|评估|测评|推理)|(?:评测|评估|测评)\s*用)",
    re.IGNORECASE,
)
"""Cheap test: a purpose other than training ('for eval', '做评测', '用于推理')."""
_REASON = itemgetter(1)
"""An ``unused_numbers`` entry's reason."""
_RIGS = (STAGE_RIGS_RE, "stage_rigs")
_EVAL = (EVAL_CARDS_RE, "eval_cards")
_LAPTOP = (LAPTOP_RE, "laptop")
_THEN_SERVE = (THEN_SERVE_RE, "then_serve")
_WHICH = (WHICH_CARDS_RE, "which_cards")
_NON_LLM = (NON_LLM_RE, "non_llm")
_SEQ_PARALLEL = (SEQ_PARALLEL_RE, "sequence_parallel")
WHOLE_MESSAGE = CueTable(
    (_RIGS, _EVAL, _LAPTOP, _THEN_SERVE, _WHICH, _NON_LLM, _SEQ_PARALLEL),
    declared={"stage_rigs": ("train", "预训练", "fine", "sft", "微调", "lora", "instruction")},
    folded=True,
)
"""The whole-message steps' gates (case-insensitive, on the text as typed), chosen by content: one C pass
of their cues over the folded message (:class:`bot.parse.cue_index.CueTable`) skips the gates whose
cues it lacks (~25 µs of five searches a message, session 28). The cues are the patterns' required
literals lower-cased; the two-stage gate's (look-aheads only) are declared: its first look-ahead needs
'pre-?train', '预训练', 'fine-?tun', 'sft', '微调', 'lora' or 'instruction[\\s-]tun' (tests/test_cue_index.py
checks every cue on every corpus text)."""


def parse(text: str) -> ParseResult:
    """Parse one message (:func:`bot.parse.message.parse_one`), then read it as a whole (issue 23 item
    2: core reads no text after this returns): another setup's cards and methods as asides
    (:func:`bot.parse.asides.without_other_setups`), a finished run before the job and an earlier run on
    the same data (:func:`bot.parse.past_then_now.with_past_runs`), a serving deployment's hours a day
    (:func:`bot.parse.daily_hours.with_daily_hours`), the machine asked about of two
    (:func:`bot.parse.machine_asked.with_machine_asked`) and a machine's card slots
    (:func:`bot.parse.slot_count.with_slot_count`). Never raises: a step's exception is logged and the
    result noted ``parse_error`` (:func:`bot.parse.parse_error.failed_parse`)."""
    raw = text if isinstance(text, str) else ""
    if LONG_RUN_RE.search(raw):  # 10,000 spaces or newlines: O(run²) under '\s*' patterns (s24)
        raw = squeeze_whitespace(raw)
    raw = plain_forms(raw) if PLAIN_CUE_RE.search(raw) else raw  # '８ 张', '**70B**' plainly (s31)
    if "?" not in raw and "？" not in raw and ASKED_END_RE.search(raw) and not EARLIER_SETUP_RE.search(raw):
        raw = raw.rstrip() + "?"  # '… need' asks: its '?' (s32)
    try:
        steps = WHOLE_MESSAGE.candidates(raw)  # the gates below whose cues the message holds
        # two stage words' cues before the look-aheads (stage_rigs.rigs_gate, in C here: no frame, s31)
        if rigs := _RIGS in steps:  # an ASCII text (an O(1) test) is only lower-cased (s34)
            folded = raw.lower() if raw.isascii() else raw.translate(FOLD_TABLE).lower()
            rigs = sum(map(folded.count, STAGE_CUES)) > 1
        first = _stage_rigs(raw, parse_one) if rigs and STAGE_RIGS_RE.search(raw) else None  # s21
        if first is None and _EVAL in steps and EVAL_CARDS_RE.search(raw):  # '… plus 4 A100 for eval' (s23)
            first = _without_eval_cards(raw, parse_one)
        parsed = with_past_runs(without_other_methods(without_other_cards(first or parse_one(raw))), raw)
        if _LAPTOP in steps and LAPTOP_RE.search(raw):  # its gate here: no frame without a laptop named
            from bot.parse.laptop_note import with_laptop_note

            parsed = with_laptop_note(parsed, with_machine_asked(parsed, raw), raw)  # one card: s20 #3
        # 'fine-tune … and then serve it': the serving, a 2nd question (s20); on its own rig, named (s21)
        if first is None and _THEN_SERVE in steps and THEN_SERVE_RE.search(raw):
            parsed = with_second_stage(parsed, raw, lambda said: without_other_setups(parse_one(said)))
        # 'which GPUs?', '租什么卡': the common cards compared (s23)
        if _WHICH in steps and WHICH_CARDS_RE.search(raw):
            parsed = with_cards_compared(parsed, raw)
        if _NON_LLM in steps and NON_LLM_RE.search(raw):  # 'CosyVoice', 'MinerU': not an LLM (s32 fixc #1)
            parsed = with_non_llm(parsed, raw)
        parsed = with_audio_hours(parsed, raw) if "hisper" in raw else parsed  # Whisper's audio hours (s47)
        if _SEQ_PARALLEL in steps and SEQ_PARALLEL_RE.search(raw):  # Ulysses, ring attention (s32 fixc #2)
            parsed = with_sequence_parallel(parsed, raw)
        if not parsed.found and parsed.unused_numbers:  # '那32k呢': a length alone (s24 #2)
            from bot.parse.bare_length import with_bare_length

            parsed = with_bare_length(parsed)
        elif (
            parsed.unused_numbers
            and (
                parsed.request.stage == "inference" or "b " in parsed.normalized
            )  # s36-gen2: 'llama2 70b 32k'
            and parsed.request.seq_len is None
        ):
            from bot.parse.bare_length import with_serving_length

            parsed = with_serving_length(parsed)  # '70B 推理 4张A100 & 32k': the context (s30)
        if parsed.request.gpu_count or parsed.request.deadline_days:
            from bot.parse.verdict_asked import asks_verdict  # '2 张 4090 够吗', '4 小时够吗' (s39, s40)

            if asks_verdict(parsed.normalized):
                parsed = parsed.model_copy(update={"asks_verdict": True})
        if parsed.model_family_only:  # 'qwen2.5 能跑哪个': which size fits, read here, not in core (s31)
            from bot.parse.fits_asked import fits_asked

            parsed = parsed.model_copy(update={"fits_asked": fits_asked(parsed.normalized)})
            if parsed.fits_asked:  # 'deepseek' alone beside a card: the family's sizes (s35 fixd #1)
                from bot.parse.family_version import with_family_ladder

                parsed = with_family_ladder(parsed)
        parsed = _cards_for_the_model(parsed, raw) if any(map(raw.__contains__, CARD_MEND_CUES)) else parsed
        if parsed.unused_numbers and "other_setup" in map(_REASON, parsed.unused_numbers):  # C: no frames
            from bot.parse.models_compared import with_models_compared  # two models side by side (s36)

            parsed = with_models_compared(parsed, raw)
        text = parsed.normalized
        if parsed.gpu_alternatives and ("快" in text or "fast" in text or "quick" in text):  # s37 fixg
            from bot.parse.models_compared import with_cards_faster

            parsed = with_cards_faster(parsed)
        return with_slot_count(with_daily_hours(parsed))
    except Exception:  # a post-step's bug: logged, the message named as not read (s21)
        return failed_parse(raw)


__all__ = ["ParseResult", "normalize", "parse"]


def _cards_for_the_model(parsed: ParseResult, raw: str) -> ParseResult:
    """``parsed`` with its GPU count mended (s50 leftovers), called when ``raw`` holds one of
    :data:`bot.parse.cue_words.CARD_MEND_CUES`: an Apple chip's GPU core count read as devices ('MacBook Pro
    16 核 GPU': :func:`bot.parse.gpu_cores.without_core_count`), then the other card of a pair kept for
    another job ('另一张跑 embedding': :func:`bot.parse.other_card_job.with_other_card_job`)."""
    if not parsed.request.gpu_count:
        return parsed
    if "核" in raw or "core" in raw.lower():  # s51: 'M3 Max 40-core GPU 64GB' (40 read as devices)
        from bot.parse.gpu_cores import without_core_count

        parsed = without_core_count(parsed)
    if any(map(raw.__contains__, OTHER_CARD_CUES)):
        from bot.parse.other_card_job import with_other_card_job

        parsed = with_other_card_job(parsed, raw)
    return parsed
