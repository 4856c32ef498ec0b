"""s31 design review, part fixe: vague Chinese counts ('几十张', '数十台') are no count; 块 beside money is
no card count (bot.parse.plain_forms.COUNT_RE, bot.parse.more_roles.vague_amount)."""

from __future__ import annotations

from bot.parse import parse
from bot.parse.plain_forms import arabic_counts


def test_tens_after_ji_is_no_count() -> None:
    p = parse("Mixtral-8x7B 部署推理，大概要几十张 H100 吧")
    assert p.request.gpu_count is None
    assert ("几十", "vague_count") in p.unused_numbers  # s32: a count's own reason


def test_shu_shi_nodes_is_no_count() -> None:
    p = parse("我们有数十台机器，想训练 Qwen2-7B")
    assert p.request.gpu_count is None
    assert ("数十", "vague_count") in p.unused_numbers


def test_shi_ji_is_no_count() -> None:
    assert parse("Yi-34B 推理 十几张 4090").request.gpu_count is None
    assert arabic_counts("十几张卡") == "十几张卡"


def test_tens_numeral_still_counts() -> None:
    assert parse("Yi-34B 推理 用三十张 L40S").request.gpu_count == 30
    assert arabic_counts("二十张卡") == "20张卡"
    assert arabic_counts("两台十六卡") == "2台16卡"


def test_kuai_money_is_no_card_count() -> None:
    assert arabic_counts("租金三块五一小时") == "租金三块五一小时"
    assert arabic_counts("两块钱") == "两块钱"
    assert arabic_counts("四块 a100") == "4块 a100"
    assert arabic_counts("a100 四块") == "a100 4块"
    assert arabic_counts("买了两块一小时") == "买了两块一小时"


def test_english_count_unchanged() -> None:
    assert parse("Yi-34B inference on 30 L40S").request.gpu_count == 30


# --- item 3: 'which size fits' is read in parse (a flag), core reads the flag -------------------------


def test_fits_asked_read_in_parse_zh() -> None:
    p = parse("两张 4090 能跑哪个 Qwen2.5")
    assert p.model_family_only and p.fits_asked is True
    assert parse("用两张 4090 部署 Qwen2.5，要几张卡").fits_asked is False


def test_fits_asked_read_in_parse_en() -> None:
    assert parse("which Qwen2.5 fits on 2 RTX 4090?").fits_asked is True
    assert parse("serve Qwen2.5 on 2 RTX 4090").fits_asked is False


def test_core_family_fits_searches_no_text() -> None:
    import bot.core.family_fits as ff

    assert not hasattr(ff, "WHICH_FITS") and not hasattr(ff, "re")


# --- items 2 and 4: markdown unwrapped once, in parse, on the prose only ------------------------------


def _seen_by_split(monkeypatch, text: str) -> list[str]:
    import bot.core.pipeline as pl
    from bot.core.pasted import split_pasted

    seen: list[str] = []

    def spy(t: str) -> tuple[str | None, str]:
        seen.append(t)
        return split_pasted(t)

    monkeypatch.setattr(pl, "split_pasted", spy)
    pl.answer(text)
    return seen


def test_launch_line_backticks_stay_en(monkeypatch) -> None:
    text = "fine-tune Llama 2 **70B** on 8 A100: torchrun --nproc_per_node=`nproc` train.py"
    assert _seen_by_split(monkeypatch, text) == [text]  # as typed: not 'nproc' bare, not '70B'
    assert parse(text).request.params_total == 70e9  # the prose's emphasis still unwrapped in parse


def test_pasted_code_stays_zh(monkeypatch) -> None:
    text = "用 ８ 张 A100 训练 Llama 2 **70B**，启动：python -c 'f(**`cat cfg`)' "
    seen = _seen_by_split(monkeypatch, text)
    assert seen == [text.replace("８", "8")]  # full-width folded; '**', backticks as typed
    assert parse(text).request.gpu_count == 8


def test_plain_forms_runs_in_parse_only() -> None:
    import bot.core.pipeline as pl

    assert not hasattr(pl, "plain_forms")
