"""s38-hant: a Chinese reply in the script the user writes — Traditional for a Traditional question.

The parse and the estimate are untouched (the same figures as the Simplified twin); the rendered reply is
converted once (bot.render.hant), its markup, code, URLs and numbers as they were; a follow-up keeps the
conversation's script; ``--lang zh-Hant`` forces it; a Simplified question's reply is as before.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from babel.numbers import format_compact_currency, format_compact_decimal, format_currency

from bot.cli import ask
from bot.core.conversation import Conversation
from bot.core.pipeline import Context, answer
from bot.core.script import reply_script, traditional_hint
from bot.core.shared_codec import decode_memory, decode_turn, encode_memory, encode_turn
from bot.render import hant
from bot.render.hant_data import SIMP_ONLY, TRAD_ONLY
from bot.render.renderer import render

HANT_Q = "請問 Qwen2.5-7B 全參數微調需要幾張 A100？"
HANS_Q = "请问 Qwen2.5-7B 全参数微调需要几张 A100？"
DIALECTS = ("telegram_html", "markdown", "plain", "html", "text")
NUMBER_RE = re.compile(r"\d+(?:[.,]\d+)*")
TAG_RE = re.compile(r"<[^>]+>")
_SIMP_ONLY = frozenset(SIMP_ONLY)


def _simplified_only(text: str) -> list[str]:
    """The characters of ``text`` that exist only in Simplified (OpenCC's reverse table)."""
    return sorted({c for c in hant.KEEP_RE.sub("", text) if c in _SIMP_ONLY})


# -- which script a message is written in (own sentences: must read, must not misread)


@pytest.mark.parametrize(
    ("text", "script"),
    [
        (HANT_Q, "Hant"),
        ("70B 模型用 8 張 H100 推論，記憶體夠嗎？", "Hant"),
        ("訓練資料 5 萬筆，要多久", "Hant"),
        ("請問這個模型训练需要幾張卡", "Hant"),  # mixed: 請問這個幾張 (6) over 训练 (2)
        (HANS_Q, "Hans"),
        ("这个 7B 模型訓練需要多少张卡", "Hans"),  # mixed: 这个张 (3) over 訓 (1)
        ("7B 模型训练 1 万亿 token", "Hans"),
        ("那H100呢？", None),  # no character of either script: the conversation's
        ("how many A100 for Llama-3-70B?", None),
    ],
)
def test_text_script(text, script):
    assert hant.text_script(text) == script


def test_script_precedence():
    assert reply_script(HANT_Q, "zh") == "Hant"
    assert reply_script(HANS_Q, "zh") == "Hans"
    assert reply_script("那H100呢？", "zh", previous="Hant") == "Hant"  # a follow-up keeps it
    assert reply_script("那换成H100呢？", "zh", previous="Hant") == "Hans"  # unless it shows the other
    assert reply_script(HANS_Q, "zh", fixed="Hant") == "Hant"  # --lang zh-Hant
    assert reply_script(HANT_Q, "zh", chosen="Hans") == "Hans"  # the chat's settings
    assert reply_script(HANT_Q, "en") == "Hans"  # an English reply has no script to convert
    assert not traditional_hint(HANS_Q) and traditional_hint(HANT_Q)


# -- the conversion


@pytest.mark.parametrize(
    ("simp", "trad"),
    [
        ("显存", "顯存"),
        ("8 张卡", "8 張卡"),
        ("训练", "訓練"),
        ("推理部署", "推理部署"),
        ("主机内存 256 GiB", "主機記憶體 256 GiB"),
        ("数据并行", "資料並行"),
        ("每卡 2 周", "每卡 2 週"),
        ("最多只能用 4 台", "最多只能用 4 臺"),  # 只 stays: not the measure word 隻
        ("发布时的参数量", "發佈時的參數量"),  # 发 → 發/髮: the phrase decides
        ("分钟", "分鐘"),
    ],
)
def test_to_hant_words(simp, trad):
    assert hant.to_hant(simp) == trad


def test_markup_code_and_urls_kept():
    text = (
        '<b>显存</b> <a href="https://example.com/显存?q=训练">训练</a> <code>显存=1</code>\n'
        "<pre>内存 = 2</pre> `显存` ```\n数据\n``` https://x.cn/数据 9.3万 ¥120"
    )
    assert hant.to_hant(text) == (
        '<b>顯存</b> <a href="https://example.com/显存?q=训练">訓練</a> <code>显存=1</code>\n'
        "<pre>内存 = 2</pre> `显存` ```\n数据\n``` https://x.cn/数据 9.3萬 CN¥120"
    )


@pytest.mark.parametrize("value", [93_000, 1_200_000_000, 45_600])
def test_babel_traditional_numbers_are_the_conversion(value):
    """Babel's zh_Hant_TW numbers differ from zh_Hans_CN's only in the characters and the yuan's symbol."""
    hans = format_compact_decimal(value, locale="zh_Hans_CN", fraction_digits=1)
    assert hant.to_hant(hans) == format_compact_decimal(value, locale="zh_Hant_TW", fraction_digits=1)
    for currency in ("CNY", "USD"):
        hans = format_compact_currency(value, currency, locale="zh_Hans_CN", fraction_digits=1)
        tw = format_compact_currency(value, currency, locale="zh_Hant_TW", fraction_digits=1)
        assert hant.to_hant(hans) == tw
        hans, tw = (format_currency(value, currency, locale=loc) for loc in ("zh_Hans_CN", "zh_Hant_TW"))
        assert hant.to_hant(hans) == tw
    assert hant.to_hant("CN¥1,234") == "CN¥1,234"  # once


# -- end to end


@pytest.fixture(scope="module")
def twins():
    return answer(HANT_Q), answer(HANS_Q)


def test_traditional_question_gets_traditional_reply(twins):
    trad, simp = twins
    assert (trad.script, simp.script) == ("Hant", "Hans")
    for fmt in DIALECTS:
        reply, twin = render(trad, fmt), render(simp, fmt)
        assert _simplified_only(reply) == [], fmt
        assert NUMBER_RE.findall(reply) == NUMBER_RE.findall(twin), fmt  # the same figures
        assert TAG_RE.findall(reply) == TAG_RE.findall(twin), fmt  # the same markup
    assert "張" in render(trad, "plain") and "顯存" in render(trad, "plain")


def test_same_figures_in_json(twins):
    trad, simp = twins
    a, b = json.loads(ask(HANT_Q, None, "json")[0]), json.loads(ask(HANS_Q, None, "json")[0])
    assert (a["reply_script"], b["reply_script"]) == ("Hant", "Hans")
    for key in ("request", "report", "assumptions", "understood", "answered"):
        assert a[key] == b[key], key
    assert trad.report.model_dump() == simp.report.model_dump()  # the estimate untouched


def test_simplified_reply_unchanged(twins):
    _, simp = twins
    for fmt in DIALECTS:
        reply = render(simp, fmt)
        assert not set(reply) & frozenset(TRAD_ONLY), fmt
        simp.script = "Hant"
        try:
            assert render(simp, fmt) == hant.to_hant(reply), fmt  # one conversion of the same text
        finally:
            simp.script = "Hans"


def test_english_reply_has_no_script():
    out = json.loads(ask("How many A100 to fully fine-tune Qwen2.5-7B?", None, "json")[0])
    assert out["lang"] == "en" and out["reply_script"] is None


def test_lang_flag_forces_script():
    forced = ask(HANS_Q, "zh-Hant", "text")[0]
    assert _simplified_only(forced) == [] and "張" in forced
    assert ask(HANT_Q, "zh-Hans", "text")[0] == ask(HANS_Q, None, "text")[0]
    assert json.loads(ask(HANS_Q, "zh-Hant", "json")[0])["reply_script"] == "Hant"


def test_help_reply_follows_script():
    """A question with no model: the help, in Traditional."""
    result = answer("訓練一個客服模型需要幾張卡？")
    assert result.script == "Hant" and _simplified_only(render(result, "plain")) == []


def test_followup_keeps_script_and_survives_restart():
    conv = Conversation()
    first = conv.ask(1, 1, HANT_Q)
    assert first.answer.script == "Hant"
    second = conv.ask(1, 1, "那H100呢？")
    assert second.answer.script == "Hant" and second.answer.followup
    assert _simplified_only(render(second.answer, "plain")) == []
    third = conv.ask(1, 1, "换成 QLoRA 呢")  # Simplified characters: the other script
    assert third.answer.script == "Hans"
    last = conv._turns.get(third.id)
    mem = conv._memory.get((last.chat_id, last.user_id))
    assert decode_memory(json.loads(json.dumps(encode_memory(mem)))).script == "Hans"
    rec = conv._turns.get(first.id)
    assert decode_turn(json.loads(json.dumps(encode_turn(rec)))).script == "Hant"  # a restart keeps it
    assert decode_turn({**encode_turn(rec), "script": None}).script == "Hans"  # a turn from before s38


def test_button_variant_keeps_script():
    conv = Conversation()
    first = conv.ask(2, 2, HANT_Q)
    variant = conv.variant(first.id, method="qlora")
    assert variant is not None and variant.answer.script == "Hant"


def test_context_fixed_script():
    assert answer(HANS_Q, Context(fixed_lang="zh", fixed_script="Hant")).script == "Hant"


def test_simplified_question_imports_no_table():
    """The tables load for a Traditional reply only: a Simplified or English question's start-up and
    memory are unchanged."""
    code = (
        "import sys; from bot.cli import ask; ask('7B 模型 1 万亿 token 要多少 A100', None, 'text');"
        "ask('7B on 8 A100?', None, 'text'); print('bot.render.hant' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_settings_choose_traditional():
    """/settings: a 繁體中文 button beside 中文 and English sets the chat's language and script."""
    from bot.chat.commands import settings_text
    from bot.settings.chat import ChatSettings
    from bot.telegram import keyboards as kb
    from bot.telegram.callbacks import _settings_change

    def press(arg: str) -> dict:
        return _settings_change(kb.decode(kb.encode(kb.SETTINGS_SLOT, kb.SET_LANG, arg)))

    assert press("zh-Hant") == {"lang": "zh", "script": "Hant"}
    assert press("zh") == {"lang": "zh", "script": None}
    assert press(kb.AUTO) == {"lang": None, "script": None}
    chosen = ChatSettings(lang="zh", script="Hant")
    labels = [b.text for b in kb.settings_keyboard(chosen, "zh").inline_keyboard[0]]
    assert labels == ["中文", "✓ 繁體中文", "English", "自动"]
    assert "繁體中文" in settings_text(chosen, "zh")
    assert answer(HANS_Q, settings=chosen).script == "Hant"


def test_card_parts_follow_script(twins):
    """Feishu/DingTalk/WeCom cards: the parts of the same converted reply, split where the Simplified
    reply splits."""
    from bot.render.parts import render_parts

    trad, simp = twins
    for fmt in ("markdown", "telegram_html"):
        x, y = render_parts(trad, fmt), render_parts(simp, fmt)
        a, b = (x.headline, x.figures, x.details), (y.headline, y.figures, y.details)
        assert all(part and _simplified_only(part) == [] for part in a), fmt
        assert [NUMBER_RE.findall(p) for p in a] == [NUMBER_RE.findall(p) for p in b], fmt


def test_longer_words_stay_within_telegram_limit():
    """Taiwan's words can be longer (内存 → 記憶體): a reply made longer is cut to Telegram's 4,096 again."""
    from bot.render.env import within_limit
    from bot.render.renderer import _hant

    text = "主机内存够用。\n" * 500  # 4,000 characters: within the limit before, 4,500 after
    assert len(text) <= 4096 and len(hant.to_hant(text)) > 4096
    assert len(_hant(text, "telegram_html")) <= 4096
    assert within_limit("短", "telegram_html") == "短"


@pytest.mark.parametrize(
    ("simp", "trad"),
    [
        ("签名", "簽名"),  # 签: 簽 (sign) and 籤 (lot, label): OpenCC STPhrases 签名 → 簽名
        ("关系", "關係"),  # 系: 係 / 系 / 繫
        ("重复", "重複"),  # 复: 復 / 複 / 覆
        ("复制", "複製"),
        ("答复", "答覆"),
        ("公里", "公里"),  # 里: 裡 (inside) / 里 (the unit)
        ("干净", "乾淨"),  # characters outside the replies' own vocabulary (s38 review)
        ("头发", "頭髮"),
        ("最多只能", "最多只能"),  # not 多隻 (NOT_KEPT)
    ],
)
def test_words_a_reply_may_echo_convert_as_opencc_phrases_do(simp: str, trad: str) -> None:
    from bot.render.hant import to_hant

    assert to_hant(simp) == trad
