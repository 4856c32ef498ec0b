"""Any model by its config.json: ``sizing-bot ask --config``, JSON pasted into a message, a Telegram document;
follow-ups keep the architecture; bad files get a clear reply, never a traceback."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from fake_bot_api import FakeBotAPI
from htmlcheck import assert_telegram_html, telegram_html_text
from tg_harness import checked_fake_api, polling, settings_for

import bot.telegram.app as tg
from bot.cli import main
from bot.core.configfile import read_config, split_pasted
from bot.core.conversation import Conversation
from bot.core.pipeline import answer
from bot.render.renderer import render

# Qwen/Qwen2.5-7B config.json, as a fine-tune ships it (named by _name_or_path)
QWEN_FT = {
    "_name_or_path": "acme/qwen2.5-7b-support-sft",
    "architectures": ["Qwen2ForCausalLM"],
    "model_type": "qwen2",
    "hidden_size": 3584,
    "intermediate_size": 18944,
    "num_attention_heads": 28,
    "num_hidden_layers": 28,
    "num_key_value_heads": 4,
    "vocab_size": 152064,
    "max_position_embeddings": 32768,
    "tie_word_embeddings": False,
    "torch_dtype": "bfloat16",
    "use_sliding_window": False,
}
# 2 × 28 layers × 4 KV heads × 128 × 2 bytes; embeddings + 28 layers counted from the fields above
QWEN_FT_KV_BYTES = 2 * 28 * 4 * 128 * 2
QWEN_FT_PARAMS = 7_615_616_512  # the Qwen2.5-7B checkpoint: 7.62B (model card 7.61B)
MODEL_NAME = "qwen2.5-7b-support-sft"


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(QWEN_FT, indent=2), encoding="utf-8")
    return path


def ask_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["ask", "--format", "json", *argv])
    return code, json.loads(capsys.readouterr().out)


# -- command line ----------------------------------------------------------------------------------


def test_cli_config_sizes_that_architecture(capsys: pytest.CaptureFixture[str], config_file: Path) -> None:
    code, data = ask_json(capsys, "--config", str(config_file), "serve it on 2 H100 with 32 concurrent users")
    assert code == 0 and data["understood"]
    request = data["request"]
    assert request["model"] is None
    assert request["architecture"]["layers"] == 28 and request["architecture"]["kv_heads"] == 4
    assert request["params_total"] == QWEN_FT_PARAMS
    assert (request["gpu"], request["gpu_count"], request["concurrency"]) == ("H100-SXM5-80GB", 2, 32)
    assert data["report"]["inference"]["kv_bytes_per_token"] == QWEN_FT_KV_BYTES
    assert data["report"]["inference"]["weights_bytes"] == QWEN_FT_PARAMS * 2
    assert data["config"]["error"] is None and data["config"]["model_type"] == "qwen2"
    assert data["config"]["name"] == MODEL_NAME
    architecture = next(a for a in data["assumptions"] if a["field"] == "architecture")
    assert architecture["why"] == "config_architecture" and architecture["params"]["layers"] == 28
    assert MODEL_NAME in data["reply"]


def test_cli_config_alone_is_sized_like_a_bare_model_name(
    capsys: pytest.CaptureFixture[str], config_file: Path
) -> None:
    code, data = ask_json(capsys, "--config", str(config_file))
    assert code == 0
    assert data["request"]["stage"] == "inference"
    assert {a["field"]: a["why"] for a in data["assumptions"]}["stage"] == "stage_serving"


def test_cli_config_wins_over_a_named_model_and_says_so(
    capsys: pytest.CaptureFixture[str], config_file: Path
) -> None:
    code, data = ask_json(capsys, "--config", str(config_file), "QLoRA Llama-3-70B on one 4090")
    assert code == 0
    assert data["request"]["params_total"] == QWEN_FT_PARAMS and data["request"]["method"] == "qlora"
    assert {"text": "Llama-3-70B", "reason": "config_model"} in data["interpretation"]["ignored"]
    assert data["interpretation"]["unknown_model"] is None


@pytest.mark.parametrize(
    ("content", "error", "shown"),
    [
        (b"this is not json", "not_json", "JSON"),
        (b"[1, 2, 3]", "not_object", "not a model config"),
        (json.dumps({k: v for k, v in QWEN_FT.items() if k != "vocab_size"}).encode(), "missing_fields",
         "vocab_size"),
        (json.dumps({**QWEN_FT, "num_hidden_layers": 100_000}).encode(), "bad_values", "layers=100000"),
        (json.dumps({**QWEN_FT, "num_key_value_heads": 5}).encode(), "bad_values", "num_key_value_heads=5"),
        (json.dumps({"model_type": "whisper", "d_model": 1280}).encode(), "unsupported", "whisper"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not_json", "JSON"),
    ],
)  # fmt: skip
def test_cli_bad_config_gets_a_clear_message(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, error: str, shown: str
) -> None:
    path = tmp_path / "config.json"
    path.write_bytes(content)
    code, data = ask_json(capsys, "--config", str(path), "serve it on 2 H100")
    assert code == 2 and not data["understood"] and data["report"] is None
    assert data["config"]["error"] == error
    assert shown in data["reply"] and "Traceback" not in data["reply"]
    code = main(["ask", "--config", str(path), "serve it on 2 H100"])
    out = capsys.readouterr()
    assert code == 2 and shown in out.out and not out.err


def test_cli_ten_megabyte_file_is_refused_unread(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_bytes(b"{" + b" " * (10 * 2**20) + b"}")
    code, data = ask_json(capsys, "--config", str(path))
    assert code == 2 and data["config"]["error"] == "too_large"
    assert "10,485,762 bytes" in data["reply"]


def test_cli_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, data = ask_json(capsys, "--config", str(tmp_path / "nope.json"), "serve it")
    assert code == 2 and data["config"]["error"] == "cannot_read"


def test_chinese_error_reply(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text("{not json", encoding="utf-8")
    code, data = ask_json(capsys, "--config", str(path), "部署需要几张卡")
    assert code == 2 and data["lang"] == "zh"
    assert "JSON" in data["reply"] and "读" in data["reply"]


# -- pasted JSON and follow-ups ----------------------------------------------------------------------


def test_split_pasted_finds_the_config_and_keeps_the_question() -> None:
    pasted, rest = split_pasted("serve this on 2 H100: " + json.dumps(QWEN_FT) + " thanks")
    assert pasted is not None and json.loads(pasted)["model_type"] == "qwen2"
    assert rest.split() == ["serve", "this", "on", "2", "H100:", "thanks"]
    assert split_pasted('set {"a": 1} aside') == (None, 'set {"a": 1} aside')


def test_pasted_config_in_a_message() -> None:
    result = answer("部署到2张H100上，并发32: " + json.dumps(QWEN_FT))
    assert result.understood and result.config is not None and result.config.source == "text"
    assert result.report.request.architecture.name == MODEL_NAME
    assert result.report.inference.kv_bytes_per_token == QWEN_FT_KV_BYTES
    assert result.lang == "zh"


def test_pasted_broken_config_is_answered_with_the_problem() -> None:
    result = answer('serve it: {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32')
    assert not result.understood and result.config.error == "not_json"
    assert "JSON" in render(result, "text")


def test_follow_ups_keep_the_architecture() -> None:
    conv = Conversation()
    first = conv.ask(1, 7, "", config=read_config(json.dumps(QWEN_FT).encode()))
    assert first.answer.understood and first.answer.report.model_name == MODEL_NAME
    served = conv.ask(1, 7, "serve it on 2 H100")
    assert served.answer.followup
    assert served.answer.report.request.gpu_count == 2
    assert served.answer.report.inference.kv_bytes_per_token == QWEN_FT_KV_BYTES
    qlora = conv.ask(1, 7, "QLoRA it")
    assert qlora.answer.report.request.method == "qlora"
    assert qlora.answer.report.request.params_total == QWEN_FT_PARAMS
    assert qlora.answer.report.model_name == MODEL_NAME
    other = conv.ask(1, 7, "what about Llama-3-70B?")
    assert other.answer.report.request.architecture is None
    assert other.answer.report.request.model == "Llama-3-70B"


def test_buttons_keep_the_architecture() -> None:
    conv = Conversation()
    turn = conv.ask(1, 7, "serve it on 2 H100", config=read_config(json.dumps(QWEN_FT).encode()))
    switched = conv.variant(turn.id, gpu="A100")
    assert switched is not None and switched.answer.report.model_name == MODEL_NAME
    assert switched.answer.report.request.gpu == "A100-SXM4-80GB"


def test_moe_config_states_its_experts() -> None:
    moe = {
        "architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe", "head_dim": 128,
        "hidden_size": 2048, "intermediate_size": 6144, "moe_intermediate_size": 768,
        "num_attention_heads": 32, "num_hidden_layers": 48, "num_key_value_heads": 4, "num_experts": 128,
        "num_experts_per_tok": 8, "vocab_size": 151936, "tie_word_embeddings": False,
    }  # fmt: skip
    result = answer("serve it on one H100", config=read_config(json.dumps(moe).encode()))
    [row] = [a for a in result.report.assumptions if a.field == "architecture"]
    assert row.why == "config_architecture_moe"
    assert (row.params["experts"], row.params["experts_top_k"]) == (128, 8)
    assert "128" in render(result, "text")


# -- Telegram ----------------------------------------------------------------------------------------

TOKEN = "123456:FAKE-TOKEN-abc"


@pytest.fixture(autouse=True)
def settings_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "settings.sqlite3"
    monkeypatch.setenv("SIZING_BOT_DB", str(path))
    return path


@pytest.fixture
def api() -> Any:
    with checked_fake_api(TOKEN) as fake:
        yield fake


def run_bot(api: FakeBotAPI, body: Any) -> None:
    async def main_() -> None:
        async with polling(tg.build_application(settings_for(api), telegram_rate_limiter=False)):
            await body()

    asyncio.run(asyncio.wait_for(main_(), 15))


async def replies(api: FakeBotAPI, count: int) -> list[Any]:
    return await asyncio.to_thread(api.wait_for, "sendMessage", count, 8.0)


def test_telegram_document_then_follow_ups(api: FakeBotAPI) -> None:
    user = api.user("Mei", "zh-hans")
    chat = api.private_chat(user)

    async def body() -> None:
        api.send_document(json.dumps(QWEN_FT).encode(), chat=chat, user=user, caption="部署到2张H100上")
        await replies(api, 1)
        api.send_text("QLoRA it on one 4090", chat=chat, user=user)
        await replies(api, 2)

    run_bot(api, body)
    first, second = (call.params["text"] for call in api.calls_to("sendMessage"))
    assert_telegram_html(first)
    assert_telegram_html(second)
    assert MODEL_NAME in telegram_html_text(first) and "H100" in telegram_html_text(first)
    assert MODEL_NAME in telegram_html_text(second) and "QLoRA" in telegram_html_text(second)
    assert len(api.calls_to("getFile")) == 1


def test_telegram_bad_document_gets_the_reason(api: FakeBotAPI) -> None:
    user = api.user("Sam", "en")
    chat = api.private_chat(user)

    async def body() -> None:
        api.send_document(b"\x00\x01 not json", chat=chat, user=user, file_name="weights.bin",
                          mime_type="application/octet-stream")  # fmt: skip
        await replies(api, 1)
        api.send_document(b"{}", chat=chat, user=user, caption="serve it", file_size=10 * 2**20)
        await replies(api, 2)

    run_bot(api, body)
    not_json, too_large = (telegram_html_text(call.params["text"]) for call in api.calls_to("sendMessage"))
    assert "JSON" in not_json
    assert "too large" in too_large and "10,485,760 bytes" in too_large
    assert len(api.calls_to("getFile")) == 1  # the 10 MB file was never downloaded


def test_telegram_group_document_needs_the_bot_named(api: FakeBotAPI) -> None:
    group = api.group_chat()
    user = api.user("Ada", "en")

    async def body() -> None:
        api.send_document(json.dumps(QWEN_FT).encode(), chat=group, user=user, caption="our model")
        api.send_document(json.dumps(QWEN_FT).encode(), chat=group, user=user,
                          caption=f"@{api.bot_username} serve it on 4 A100")  # fmt: skip
        await replies(api, 1)

    run_bot(api, body)
    [call] = api.calls_to("sendMessage")
    shown = telegram_html_text(call.params["text"])
    assert MODEL_NAME in shown and "A100" in shown


def test_recipes_name_the_configs_model(capsys: pytest.CaptureFixture[str], config_file: Path) -> None:
    _, data = ask_json(capsys, "--config", str(config_file), "serve it on 2 H100")
    [vllm] = [r for r in data["report"]["recipes"] if r["tool"] == "vllm"]
    assert f"vllm serve /models/{MODEL_NAME}" in vllm["text"]
