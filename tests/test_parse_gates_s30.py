"""Session 30 (s30-spparse, issue 23 item 7): readers not called on a message without their words, a
magnitude word's scale letter cached, the request bounds' check over the capped fields only. None of these
may change a parse: bench/answers_dump.py ``parses``/``all`` compared every working text before and after."""

from __future__ import annotations

import pytest

from bot.parse import numbers, request_fields, settings, side_phrases
from bot.parse.numbers import NumberToken, magnitude_value, scale_letter

SIDE_READERS = (
    "self_correction",
    "worked_then_failed",
    "step_times",
    "context_phase",
    "schedule_words",
    "load_change",
    "daytime_peak",
    "card_slots",
    "slots_as_flag",
)


def _refuse(name: str):
    def called(*_args, **_kwargs):
        raise AssertionError(f"{name} called")

    return called


@pytest.mark.parametrize("training", [True, False])
def test_side_readers_are_not_called_without_their_words(monkeypatch, training: bool):
    """'7B模型1万亿token要多少A100' holds none of the nine readers' words: none is called (a serving
    message's daytime peak is: its Chinese rewrite has no gate), the text comes back as it went in."""
    for name in SIDE_READERS if training else [r for r in SIDE_READERS if r != "daytime_peak"]:
        monkeypatch.setattr(side_phrases, name, _refuse(name))
    text = "7b模型1万亿token要多少a100"
    assert side_phrases.side_phrases(text, training) == (text, [])


@pytest.mark.parametrize(
    ("text", "training", "reader"),
    [
        ("用 4 张 a100，不对，8 张 h100", True, "self_correction"),
        ("95 s/it on 8 h100", True, "step_times"),
        ("4 个卡槽", True, "card_slots"),
        ("4 parallel slots", False, "slots_as_flag"),
        ("users grow to 60", False, "load_change"),
        ("up to 60 during the day", False, "daytime_peak"),
    ],
)
def test_a_reader_with_its_words_is_still_called(monkeypatch, text: str, training: bool, reader: str):
    """A message holding a reader's words reaches it (the call-site test is the reader's own first one)."""
    called: list[str] = []
    real = getattr(side_phrases, reader)
    monkeypatch.setattr(side_phrases, reader, lambda *a: called.append(reader) or real(*a))
    side_phrases.side_phrases(text, training)
    assert called == [reader]


@pytest.mark.parametrize(
    ("text", "training", "refused", "reached"),
    [
        ("serve llama 3 8b on one h100", False, ("rollout_parallel", "lora_alpha"), "serving_targets"),
        ("train a 7b with lora on 8 h100", True, ("serving_targets", "lora_alpha"), "rollout_parallel"),
        ("lora_alpha 32 on 8 h100", True, ("serving_targets",), "lora_alpha"),
    ],
)
def test_settings_readers_asked_only_of_their_stage(monkeypatch, text, training, refused, reached):
    """The rollout engine's TP is read in training only, serving targets in serving only, 'lora_alpha'
    only with 'alpha' in the text; the reader whose case it is still runs."""
    for name in refused:
        monkeypatch.setattr(settings, name, _refuse(name))
    called: list[str] = []
    real = getattr(settings, reached)
    monkeypatch.setattr(settings, reached, lambda *a: called.append(reached) or real(*a))
    settings.extract_settings(text, training=training)
    assert called == [reached]


@pytest.mark.parametrize(
    ("mag", "letter"),
    [
        ("万亿", "T"),
        ("亿", "B"),
        ("b", "B"),
        (" billion", "B"),
        ("千万", "M"),
        ("m", "M"),
        ("万", "K"),
        ("k", "K"),
    ],
)
def test_scale_letter(mag: str, letter: str):
    """'万亿' 1e12 → T, '亿' 1e8 and 'b' 1e9 → B, '千万' 1e7 → M, '万' 1e4 and 'k' → K
    (numbers.WORD_MAGNITUDES, CN units), as the property computed it from :func:`magnitude_value` before."""
    assert scale_letter(mag) == letter
    assert magnitude_value(mag) >= {"T": 1e12, "B": 1e8, "M": 1e6, "K": 1}[letter]
    assert NumberToken(7.0, 0, 2, "7" + mag, mag=mag).mag_scale == letter
    assert NumberToken(7.0, 0, 1, "7").mag_scale is None
    assert numbers.scale_letter.cache_info().maxsize == 256


def test_beyond_bounds_reads_only_capped_values():
    """A value over its field's bound is named; None, a bool, a string and an uncapped field are not."""
    capped = next(iter(request_fields._CAPS))
    cap = request_fields._CAPS[capped]
    assert request_fields.beyond_bounds({capped: cap * 10, "model": "llama-3-8b"}) == [
        (f"{capped}: {cap * 10:.15g}", "bad_value")
    ]
    assert request_fields.beyond_bounds({capped: None}) == []
    assert request_fields.beyond_bounds({capped: True}) == []
    assert request_fields.beyond_bounds({capped: "many"}) == []
    assert request_fields.beyond_bounds({capped: cap}) == []
