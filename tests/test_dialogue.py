"""Conversation: follow-ups in zh and en, memory bounds and expiry, replies, variants, settings, pre-sales."""

from __future__ import annotations

import pytest

from bot.core.conversation import Conversation, Turn
from bot.core.followup import CHANGE_FIELDS, classify, explicit_stage, sibling_model
from bot.core.suggest import alternative_gpus as _alternatives
from bot.core.suggest import answer_gpu
from bot.parse import parse
from bot.parse.lang import message_lang
from bot.settings.presales import PresalesConfig
from bot.settings.store import SettingsStore
from estimator.models import Currency, Method, Precision, SizingRequest, Stage

A100, H100, H800, A800 = "A100-SXM4-80GB", "H100-SXM5-80GB", "H800-SXM5-80GB", "A800-80GB"


def alternative_gpus(turn: Turn, **kw: object) -> list[str]:
    """The switch-GPU buttons' GPUs for an answered turn."""
    return _alternatives(answer_gpu(turn.answer.report, turn.request), **kw)  # type: ignore[arg-type]


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def conv(clock: FakeClock) -> Conversation:
    return Conversation(ttl_seconds=600, max_entries=100, clock=clock)


@pytest.fixture
def store(tmp_path):
    s = SettingsStore(tmp_path / "settings.sqlite3")
    yield s
    s.close()


# ---------------------------------------------------------------------------------------------
# Realistic sequences


def test_zh_pretrain_sequence_seed_example_then_gpu_then_count(conv: Conversation) -> None:
    t1 = conv.ask(1, 10, "7B模型1万亿token要多少A100")
    assert not t1.followup and t1.answer.lang == "zh"
    assert t1.answer.report.gpu_hours.likely == pytest.approx(93_483, rel=1e-3)  # the seed's example
    assert t1.answer.report.gpus_for_deadline == 136

    t2 = conv.ask(1, 10, "那H100呢？")
    assert t2.followup and t2.changed == ["gpu"]
    assert t2.request.gpu == H100
    assert t2.request.params_total == 7e9 and t2.request.tokens == 1e12
    assert t2.answer.report.gpu_hours.likely < t1.answer.report.gpu_hours.likely

    t3 = conv.ask(1, 10, "用256张")
    assert t3.followup and t3.request.gpu == H100 and t3.request.gpu_count == 256
    days = t3.answer.report.days
    assert days.gpus == 256
    assert days.days.likely == pytest.approx(t3.answer.report.gpu_hours.likely / 256 / 24)


def test_zh_finetune_sequence_method_change_keeps_model_and_stage(conv: Conversation) -> None:
    t1 = conv.ask(1, 10, "全参微调7B要几张A100")
    assert t1.request.stage == Stage.finetune and t1.request.method == Method.full
    t2 = conv.ask(1, 10, "换成QLoRA呢")
    assert t2.followup
    assert t2.request.method == Method.qlora and t2.request.stage == Stage.finetune
    assert t2.request.params_total == 7e9 and t2.request.gpu == A100
    assert t2.answer.report.memory.min_gpus <= t1.answer.report.memory.min_gpus
    t3 = conv.ask(1, 10, "LoRA instead?")
    assert t3.request.method == Method.lora
    assert t3.request.precision is None  # QLoRA's int4 base left with QLoRA


def test_en_sequence_deadline_count_and_gpu(conv: Conversation) -> None:
    t1 = conv.ask(7, 7, "How many H100s to pretrain a 7B model on 1T tokens?")
    assert t1.answer.lang == "en" and t1.request.gpu == H100
    t2 = conv.ask(7, 7, "what about 30 days?")
    assert t2.followup and t2.request.deadline_days == 30 and t2.request.tokens == 1e12
    t3 = conv.ask(7, 7, "with 256 GPUs?")
    assert t3.request.gpu_count == 256 and t3.request.deadline_days == 30
    t4 = conv.ask(7, 7, "what about A100s?")
    assert t4.request.gpu == A100 and t4.request.gpu_count == 256  # the count stays with a new GPU


@pytest.mark.parametrize(
    ("first", "follow", "field", "value"),
    [
        ("7B模型1万亿token要多少A100", "换成4090", "gpu", "RTX-4090"),
        ("7B模型1万亿token要多少A100", "用64张卡要多久", "gpu_count", 64),
        ("7B模型1万亿token要多少A100", "两周内呢", "deadline_days", 14),
        ("7B模型1万亿token要多少A100", "MFU按35%算", "mfu", 0.35),
        ("7B模型1万亿token要多少A100", "按每卡时20元算", "price_per_gpu_hour", 20),
        ("7B模型1万亿token要多少A100", "数据换成2T呢", "tokens", 2e12),
        ("部署70B推理需要几张A100", "32k上下文呢", "seq_len", 32768),
        ("部署70B推理需要几张A100", "100并发呢", "concurrency", 100),
        ("部署70B推理需要几张A100", "int4呢", "precision", Precision.int4),
        ("Serve a 70B model on A100s", "with 256 GPUs?", "gpu_count", 256),
    ],
)
def test_one_change_keeps_the_rest(conv: Conversation, first: str, follow: str, field: str, value) -> None:
    t1 = conv.ask(1, 1, first)
    t2 = conv.ask(1, 1, follow)
    assert t2.followup, follow
    assert getattr(t2.request, field) == value
    assert t2.request.params_total == t1.request.params_total
    assert t2.request.stage == t1.request.stage
    assert t2.answer.understood


def test_model_size_followup_keeps_the_rest(conv: Conversation) -> None:
    conv.ask(1, 1, "7B模型1万亿token要多少A100")
    conv.ask(1, 1, "用64张")
    t = conv.ask(1, 1, "那70B呢？")
    assert t.followup
    assert t.request.params_total == 70e9
    assert (t.request.tokens, t.request.gpu, t.request.gpu_count) == (1e12, A100, 64)


def test_model_size_followup_picks_the_same_series(conv: Conversation) -> None:
    conv.ask(1, 1, "部署Llama-3-8B推理，100并发")
    t = conv.ask(1, 1, "那70B推理呢")
    assert t.followup and t.request.model == "Llama-3-70B" and t.request.concurrency == 100
    assert sibling_model("Qwen2.5-7B", 72e9) == "Qwen2.5-72B"
    assert sibling_model("Mixtral-8x7B", 22e9) is None


def test_a_new_full_question_resets(conv: Conversation) -> None:
    conv.ask(1, 1, "7B模型1万亿token要多少A100")
    conv.ask(1, 1, "用256张")
    t = conv.ask(1, 1, "全参微调7B要几张A100")
    assert not t.followup
    assert t.request.gpu_count is None and t.request.tokens is None
    assert t.request.stage == Stage.finetune


def test_inverse_budget_question_is_fresh(conv: Conversation) -> None:
    conv.ask(1, 1, "7B模型1万亿token要多少A100")
    t = conv.ask(1, 1, "预算100万，能训多大的模型？")
    assert not t.followup and t.request.params_total is None and t.request.budget == 1e6


def test_switch_to_serving_drops_training_fields(conv: Conversation) -> None:
    conv.ask(1, 1, "7B模型1万亿token要多少A100")
    t = conv.ask(1, 1, "那推理呢，100并发")
    assert t.followup and t.request.stage == Stage.inference
    assert t.request.tokens is None and t.request.concurrency == 100 and t.request.params_total == 7e9


def test_chatter_does_not_clobber_the_memory(conv: Conversation) -> None:
    conv.ask(1, 1, "7B模型1万亿token要多少A100")
    assert not conv.ask(1, 1, "谢谢").answer.understood
    assert conv.ask(1, 1, "那H100呢").request.tokens == 1e12


def test_memory_is_per_chat_and_user(conv: Conversation) -> None:
    conv.ask(1, 1, "7B模型1万亿token要多少A100")
    other = conv.ask(1, 2, "那H100呢")
    assert not other.followup and not other.answer.understood
    elsewhere = conv.ask(2, 1, "那H100呢")
    assert not elsewhere.followup


# ---------------------------------------------------------------------------------------------
# Language


def test_zh_followup_after_en_question_answers_in_zh(conv: Conversation) -> None:
    conv.ask(1, 1, "How many A100s to pretrain a 7B model on 1T tokens?")
    # a cue word and a card name only keep the conversation's language (s38 fixm #2: 'what about H20?' in a
    # zh chat answered in English); a sentence in Chinese switches it
    t = conv.ask(1, 1, "那H100呢")
    assert t.answer.lang == "en"
    assert t.answer.report.cost.currency == Currency.USD
    t = conv.ask(1, 1, "那换成H100要训多久")
    assert t.answer.lang == "zh"
    assert t.answer.report.cost.currency == Currency.CNY


def test_names_only_message_keeps_the_previous_language(conv: Conversation) -> None:
    conv.ask(1, 1, "7B模型1万亿token要多少A100")
    assert conv.ask(1, 1, "H100?").answer.lang == "zh"
    assert message_lang("H100?") is None and message_lang("Llama-3-70B 4090") is None
    assert message_lang("what about H100s?") == "en" and message_lang("那H100呢") == "zh"


def test_user_language_for_a_names_only_first_message(conv: Conversation) -> None:
    assert conv.ask(1, 1, "7B 1T A100", user_lang="zh-hans").answer.lang == "zh"
    assert conv.ask(2, 2, "7B 1T A100", user_lang="en").answer.lang == "en"


# ---------------------------------------------------------------------------------------------
# Memory bounds, expiry, turn ids


def test_followup_memory_expires_after_ttl(conv: Conversation, clock: FakeClock) -> None:
    t1 = conv.ask(1, 1, "7B模型1万亿token要多少A100")
    clock.now += 599
    assert conv.ask(1, 1, "那H100呢").followup  # silence shorter than the TTL; this refreshes it
    clock.now += 601
    late = conv.ask(1, 1, "那H800呢")
    assert not late.followup and not late.answer.understood
    assert conv.turn(t1.id) is None
    assert conv.variant(t1.id, gpu="H100") is None


def test_memory_and_turns_are_bounded(clock: FakeClock) -> None:
    conv = Conversation(ttl_seconds=600, max_entries=3, clock=clock)
    turns = [conv.ask(1, user, "7B模型1万亿token要多少A100") for user in range(5)]
    assert len(conv._memory) == 3 and len(conv._turns) == 3
    assert not conv.ask(1, 0, "那H100呢").followup  # user 0 was dropped (least recently used)
    assert conv.turn(turns[0].id) is None
    assert conv.turn(turns[4].id) is not None


def test_turn_ids_are_short_and_unique(conv: Conversation) -> None:
    ids = {conv.ask(1, u, "7B模型1万亿token要多少A100").id for u in range(50)}
    assert len(ids) == 50
    assert all(0 < len(i) <= 12 and i.isalnum() for i in ids)


def test_turn_is_rebuilt_from_memory(conv: Conversation) -> None:
    t = conv.ask(1, 1, "7B模型1万亿token要多少A100")
    again = conv.turn(t.id)
    assert isinstance(again, Turn) and again.id == t.id
    assert again.answer.report == t.answer.report


# ---------------------------------------------------------------------------------------------
# Replies and variants


def test_reply_follows_the_referenced_turn_not_the_latest(conv: Conversation) -> None:
    pretrain = conv.ask(1, 1, "7B模型1万亿token要多少A100")
    conv.ask(1, 1, "全参微调13B要几张A100")
    t = conv.ask(1, 1, "那H100呢", reply_to_turn=pretrain.id)
    assert t.followup
    assert t.request.stage == Stage.pretrain and t.request.params_total == 7e9 and t.request.gpu == H100
    assert conv.ask(1, 1, "用64张").request.gpu == H100  # the reply became the latest


def test_reply_to_an_expired_turn_falls_back_to_the_latest(conv: Conversation, clock: FakeClock) -> None:
    t = conv.ask(1, 1, "7B模型1万亿token要多少A100")
    assert conv.ask(1, 1, "那H100呢", reply_to_turn="nonexistent").request.params_total == 7e9
    assert conv.ask(1, 1, "用64张", reply_to_turn=t.id).request.gpu == A100


def test_variant_changes_gpu_method_and_language(conv: Conversation) -> None:
    t = conv.ask(1, 1, "全参微调7B要几张A100")
    by_gpu = conv.variant(t.id, gpu="H100")
    assert by_gpu.request.gpu == H100 and by_gpu.followup and by_gpu.changed == ["gpu"]
    assert by_gpu.id != t.id and len(by_gpu.id) <= 12
    by_method = conv.variant(t.id, method="qlora")
    assert by_method.request.method == Method.qlora and by_method.request.stage == Stage.finetune
    assert by_method.request.precision == Precision.int4 and by_method.request.gpu == A100
    in_en = conv.variant(t.id, lang="en")
    assert in_en.answer.lang == "en" and in_en.request == t.request
    assert conv.turn(in_en.id).answer.lang == "en"
    assert conv.variant(by_gpu.id, method="lora").request.gpu == H100  # variants chain


def test_variant_changes_stage(conv: Conversation) -> None:
    t = conv.ask(1, 1, "7B模型1万亿token要多少A100")
    serve = conv.variant(t.id, stage="inference")
    assert serve.request.stage == Stage.inference and serve.request.tokens is None
    assert serve.answer.report.inference is not None
    tune = conv.variant(t.id, stage="finetune", method="lora")
    assert (tune.request.stage, tune.request.method) == (Stage.finetune, Method.lora)


def test_variant_rejects_unknown_fields_and_gpus(conv: Conversation) -> None:
    t = conv.ask(1, 1, "全参微调7B要几张A100")
    with pytest.raises(ValueError):
        conv.variant(t.id, colour="red")
    with pytest.raises(ValueError):
        conv.variant(t.id, gpu="H300")
    with pytest.raises(ValueError):
        conv.variant(t.id, method="magic")


def test_variant_becomes_the_users_latest_request(conv: Conversation) -> None:
    t = conv.ask(1, 1, "7B模型1万亿token要多少A100")
    conv.variant(t.id, gpu="H800")
    assert conv.ask(1, 1, "用64张").request.gpu == H800


# ---------------------------------------------------------------------------------------------
# Settings and pre-sales


def test_settings_price_changes_cost_and_user_price_wins(store: SettingsStore, clock: FakeClock) -> None:
    conv = Conversation(settings_store=store, clock=clock)
    base = conv.ask(1, 1, "7B模型1万亿token要多少A100").answer.report.cost
    store.update(1, currency="CNY", prices={"A100": 10})
    t = conv.ask(1, 1, "7B模型1万亿token要多少A100")
    assert t.sources["price_per_gpu_hour"] == "settings"
    assert t.answer.report.cost.low == pytest.approx(base.billed_gpu_hours * 10)
    assert t.request.price_per_gpu_hour is None  # the remembered request holds only the user's words
    own = conv.ask(1, 1, "按每卡时20元算")
    assert own.answer.report.cost.low == pytest.approx(base.billed_gpu_hours * 20)
    assert "price_per_gpu_hour" not in own.sources
    other_gpu = conv.ask(2, 2, "7B模型1万亿token要多少H100")  # another chat: no settings
    assert "price_per_gpu_hour" not in other_gpu.sources


def test_settings_mfu_deadline_language_and_currency(store: SettingsStore, clock: FakeClock) -> None:
    conv = Conversation(settings_store=store, clock=clock)
    store.update(5, lang="en", currency="USD", mfu=0.5, deadline_days=60)
    t = conv.ask(5, 5, "7B模型1万亿token要多少A100")
    assert t.answer.lang == "en"
    assert t.answer.report.cost.currency == Currency.USD
    assert t.answer.report.request.mfu == 0.5 and t.answer.report.request.deadline_days == 60
    assert set(t.sources) >= {"currency", "mfu", "deadline_days"}
    own = conv.ask(5, 5, "MFU按35%算")
    assert own.answer.report.request.mfu == 0.35
    assert conv.variant(t.id, lang="zh").answer.lang == "zh"  # a language button beats the setting


def test_presales_prices_apply_and_settings_override_them(store: SettingsStore, clock: FakeClock) -> None:
    presales = PresalesConfig(
        provider="Example",
        currency="CNY",
        contact="call us",
        gpu=[{"family": "A100", "price_cny_per_gpu_hour": 11}],
        preferred=["H800"],
    )
    conv = Conversation(settings_store=store, presales=presales, clock=clock)
    assert conv.presales.contact == "call us"
    t = conv.ask(1, 1, "How many A100s to pretrain a 7B model on 1T tokens?")
    assert t.answer.lang == "en" and t.answer.report.cost.currency == Currency.CNY  # provider's currency
    assert t.sources["price_per_gpu_hour"] == "presales"
    assert t.answer.report.cost.low == pytest.approx(t.answer.report.cost.billed_gpu_hours * 11)
    store.update(1, currency="CNY", prices={"A100": 9})
    t2 = conv.ask(1, 1, "How many A100s to pretrain a 7B model on 1T tokens?")
    assert t2.sources["price_per_gpu_hour"] == "settings"
    usd = conv.ask(1, 1, "How many A100s to pretrain a 7B model on 1T tokens, in USD?")
    assert "price_per_gpu_hour" not in usd.sources  # neither list has a USD price: catalog range
    # issue 30 item 2: a preferred GPU the offer does not sell (H800 here) is ignored, never suggested
    assert presales.preferred == [] and H800 not in conv.alternative_gpus(t)


def test_broken_settings_store_does_not_stop_answers(clock: FakeClock) -> None:
    class Broken:
        def get(self, scope_id: int):
            raise RuntimeError("disk on fire")

    conv = Conversation(settings_store=Broken(), clock=clock)
    assert conv.ask(1, 1, "7B模型1万亿token要多少A100").answer.understood


# ---------------------------------------------------------------------------------------------
# GPU alternatives for buttons


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("7B模型1万亿token要多少A100", [H100, H800, A800]),
        ("QLoRA 7B on a 4090", ["RTX-3090", "L40S", A100]),
    ],
)
def test_alternative_gpus(conv: Conversation, question: str, expected: list[str]) -> None:
    assert alternative_gpus(conv.ask(1, 1, question)) == expected


def test_alternative_gpus_prefer_presales_and_skip_the_current_gpu(conv: Conversation) -> None:
    t = conv.ask(1, 1, "7B模型1万亿token要多少H800")
    assert alternative_gpus(t, preferred=["H800", "H20", "A800"]) == ["H20-96GB", A800, "H100-SXM5-80GB"]
    assert len(alternative_gpus(t, n=5)) == 5


# ---------------------------------------------------------------------------------------------
# The rules as pure functions


PREV = SizingRequest(stage=Stage.pretrain, params_total=7e9, tokens=1e12, gpu=A100)


@pytest.mark.parametrize(
    ("text", "followup"),
    [
        ("那H100呢？", True),
        ("what about H100s?", True),
        ("用64张卡要多久", True),
        ("两周内呢", True),
        ("那70B呢？", True),
        ("70B instead?", True),
        ("70B", False),  # a bare size without a cue is a new (short) question
        ("13B模型5000亿token要多少H100", False),
        ("全参微调7B要几张A100", False),
        ("预算100万，能训多大的模型？", False),
        ("谢谢", False),
        ("How many H100s to pretrain a 7B model with 1T tokens?", False),
    ],
)
def test_classify(text: str, followup: bool) -> None:
    assert classify(PREV, parse(text), text).followup is followup
    assert not classify(None, parse(text), text).followup


def test_explicit_stage_ignores_weak_hints() -> None:
    assert explicit_stage("MFU按35%算") is None
    assert explicit_stage("32k上下文呢") is None
    assert explicit_stage("换成QLoRA") is None  # left to the method rule
    assert explicit_stage("那推理呢") == Stage.inference
    assert "gpu" in CHANGE_FIELDS and "params_total" not in CHANGE_FIELDS


def test_a_button_press_updates_the_pressers_memory_not_the_askers():
    """Design §6 (groups): anyone may press a button; the asker's next follow-up still starts from
    what the asker asked, the presser's from the variant they chose."""
    conv = Conversation()
    asked = conv.ask(-100, 1, "全参微调7B要几张A100")
    conv.variant(asked.id, method="qlora", by_user=2)
    mine = conv.ask(-100, 1, "那H100呢")
    theirs = conv.ask(-100, 2, "那H100呢")
    assert mine.request.method.value == "full"
    assert theirs.request.method.value == "qlora"


def test_family_of_a_derived_mac_configuration() -> None:
    """'Switch GPU' buttons for an M2 Ultra 64GB answer offer the Mac's neighbours, not A100's."""
    from estimator.catalog import family_of as _family

    assert _family("Apple-M2-Ultra-64GB") == "M2 Ultra"
    assert _family("GPU-24GB") is None and _family("A100-SXM4-80GB") == "A100"
