"""Speech, OCR/document and (s47) image/video diffusion models named by name (session 32 fresh-user trial,
fixc #1): 'CosyVoice', 'FunASR', 'MinerU', 'Stable Diffusion XL', 'FLUX.1-dev'. They are not LLMs the
estimator sizes, and a message that starts with one ('用 CosyVoice 做语音合成') was read as a follow-up
with nothing before it ('用H100'). The parse names the model as typed (``unknown_model``), marks the
message out of scope and notes the kind (:data:`KINDS`), so the help says what the model is, that the bot
sizes LLM training and serving, and (speech, OCR) that a parameter count gets a generic size. A message
that also names or sizes an LLM keeps its reading (the LLM is sized)."""

from __future__ import annotations

import re

from bot.parse.result import ParseResult

_B, _E = r"(?<![a-z0-9])", r"(?![a-z])"
_NAMES: tuple[tuple[str, str], ...] = (
    # speech synthesis (TTS): github.com/FunAudioLLM/CosyVoice, 2noise/ChatTTS, fishaudio/fish-speech,
    # RVC-Boss/GPT-SoVITS, SWivid/F5-TTS, index-tts/index-tts, coqui-ai/TTS (XTTS), hexgrad/kokoro
    (r"cosy[\s\-_]?voice\d*|chat[\s\-_]?tts|fish[\s\-_]?speech|gpt[\s\-_]?so[\s\-_]?vits|f5[\s\-_]?tts"
     r"|index[\s\-_]?tts\d*|spark[\s\-_]?tts|mega[\s\-_]?tts\d*|x[\s\-_]?tts(?:[\s\-_]?v?\d)?|kokoro", "tts"),
    # speech recognition (ASR): modelscope/FunASR (Paraformer, SenseVoice), wenet-e2e/wenet, FireRedASR
    (r"fun[\s\-_]?asr|paraformer|sense[\s\-_]?voice|fire[\s\-_]?red[\s\-_]?asr|wenet|kaldi", "asr"),
    # OCR and document parsing: opendatalab/MinerU, PaddlePaddle/PaddleOCR, GOT-OCR2.0, VikParuchuri/surya,
    # tesseract-ocr, JaidedAI/EasyOCR, RapidAI/RapidOCR, docling-project/docling
    (r"mineru|magic[\s\-_]?pdf|paddle[\s\-_]?ocr|got[\s\-_]?ocr[\d.]*|surya[\s\-_]?ocr|tesseract|easy[\s\-_]?ocr"
     r"|rapid[\s\-_]?ocr|docling", "ocr"),
    # image and video diffusion (s47 trialfix #3: 'Stable Diffusion XL' was looked up as a model "Stable",
    # 'FLUX.1-dev' offered Qwen2.5-Coder): CompVis/stable-diffusion, Stability-AI/generative-models (SDXL,
    # SD 3/3.5, Stable Video Diffusion), black-forest-labs/flux, Kwai-Kolors/Kolors, Tencent/HunyuanDiT and
    # HunyuanVideo, PixArt-alpha/PixArt-sigma, Wan-Video/Wan2.1, THUDM/CogVideo, guoyww/AnimateDiff,
    # lllyasviel/ControlNet; DALL·E and Midjourney by name (glued forms only: 'wan', 'sd', 'video', 'control'
    # as cues would send common words to the gate search)
    (r"stable[\s\-_]*(?:video[\s\-_]*)?diffusion(?:[\s\-_]*(?:xl|v?\d(?:\.\d)?))?"
     r"|sdxl(?:[\s\-_]*(?:turbo|lightning|refiner))?|sd1\.5|sd2\.1|sd3(?:\.5)?(?![\d.])"
     r"|flux(?:\.1)?[\s\-_]*(?:dev|schnell|pro|kontext|krea)|flux\.1|kolors|hunyuan[\s\-_]*(?:dit|video)"
     r"|pixart(?:[\s\-_]*(?:alpha|sigma))?|wan2\.[1-5]|cogvideox?|animatediff|controlnet"
     r"|dall[\s\-_·]?e(?:[\s\-_]?\d)?|midjourney", "image"),
)  # fmt: skip
_READERS = tuple((re.compile(_B + f"(?:{p})" + _E, re.IGNORECASE), kind) for p, kind in _NAMES)
GATE_RE = re.compile(_B + "(?:" + "|".join(p for p, _ in _NAMES) + ")" + _E, re.IGNORECASE)
"""Any of the names, on the text as typed (the call site's gate: bot.parse.parse's cue table)."""
KINDS = {"tts": "non_llm_tts", "asr": "non_llm_asr", "ocr": "non_llm_ocr", "image": "non_llm_image"}
"""The kind of model → the note the help reads (bot.render.renderer.non_llm_kind)."""


def with_non_llm(parsed: ParseResult, raw: str) -> ParseResult:
    """``parsed`` with the first speech/OCR model named in ``raw`` as its unknown model, out of scope and
    noted by kind; unchanged when an LLM is named or sized beside it, or none of the names is there."""
    req = parsed.request
    if req.model or req.params_total or req.architecture:
        return parsed
    hits = [(m.start(), m.group(0), kind) for pattern, kind in _READERS if (m := pattern.search(raw))]
    if not hits:
        return parsed
    _, name, kind = min(hits)
    update = {"unknown_model": name.strip(), "model_suggestions": [], "model_family_only": False}
    unused = [u for u in parsed.unused_numbers if u[0].lower() != f"runtime: {name.strip().lower()}"]
    notes = [*parsed.notes, KINDS[kind]]
    return parsed.model_copy(
        update={**update, "out_of_scope": True, "notes": notes, "unused_numbers": unused}
    )


AUDIO_HOURS_RE = re.compile(
    r"(?P<n>\d[\d,.]*(?:\s*[万千k])?)\s*(?:个)?\s*(?:小时|hours?|hrs?)\s*(?:的)?\s*"
    r"(?:音频|录音|语音|of\s+(?:audio|recordings?|speech))",
    re.IGNORECASE,
)
"""An amount of audio in hours ('1 万小时音频', '10,000 hours of audio')."""


def with_audio_hours(parsed: ParseResult, raw: str) -> ParseResult:
    """A Whisper model served with hours of audio said (s47 trialfix #4: 'Whisper large-v3 转写 1 万
    小时音频'): the hours are named ``audio_hours`` instead of 'no word said what it is'. Whisper is sized
    for its memory (bot.parse.lexicon.ADJACENT_MODELS: Radford et al. 2022, Table 1) and its text
    decoding; hours of audio an hour depend on its encoder's 30-second windows, not modelled, as the
    reason says."""
    if parsed.request.stage != "inference" or not (parsed.unknown_model or "").lower().startswith("whisper"):
        return parsed
    m = AUDIO_HOURS_RE.search(raw)
    if m is None:
        return parsed
    typed = "".join(m.group("n").split())
    unused = [
        (text, "audio_hours") if why == "unread" and "".join(text.split()) == typed else (text, why)
        for text, why in parsed.unused_numbers
    ]
    return parsed.model_copy(update={"unused_numbers": unused}) if unused != parsed.unused_numbers else parsed
