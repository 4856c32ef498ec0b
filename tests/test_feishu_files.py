"""Config files on Feishu / Lark, as in Telegram: a config.json, a LLaMA-Factory YAML or a DeepSpeed JSON
sent as a ``file`` message is downloaded (``GET /open-apis/im/v1/messages/:id/resources/:key?type=file``)
within the same bound and read by the one config-file reader every front end uses; pasted configs go
through the parser. Driven through the real ``sizing-bot run`` against the fake Feishu."""

from __future__ import annotations

import ast
import asyncio
import json
from pathlib import Path

import httpx
import pytest
from fake_feishu import FakeFeishu
from feishu_run import card_of, card_words, cards, running_bot, wait
from test_config_input import QWEN_FT

from bot.cli import main
from bot.core.configfile import read_config_file_data
from bot.feishu.api import FeishuAPI, FileTooLarge
from bot.parse.configs import StackConfig
from bot.web.state import config_from_api
from estimator.hf_config import MAX_CONFIG_BYTES

REPO = Path(__file__).resolve().parent.parent
CONFIGS = Path(__file__).parent / "data" / "configs"
LLAMAFACTORY = CONFIGS / "llamafactory" / "qwen3_lora_sft.yaml"
DEEPSPEED = CONFIGS / "deepspeed" / "ds_z3_offload_config.json"


@pytest.fixture
def fake():
    with FakeFeishu() as server:
        yield server


def _answers_for(fake: FakeFeishu, message_id: str) -> list[dict]:
    return [m for m in fake.http.sent() if m["parent_id"] == message_id]


def _ask_file(fake: FakeFeishu, data: bytes, name: str, **kwargs) -> dict:
    event = fake.file_message(data, name, **kwargs)
    fake.push(event)
    asked = event["event"]["message"]["message_id"]
    return card_of(wait(lambda: _answers_for(fake, asked), 15, f"answer to {name}")[0])


# -- one reader for config files ----------------------------------------------------------------------


def _calls(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def test_every_front_end_reads_config_files_with_the_one_shared_reader() -> None:
    front_ends = ["bot/cli.py", "bot/web/state.py", "bot/telegram/documents.py", "bot/feishu/files.py"]
    for name in front_ends:
        calls = _calls(REPO / name)
        assert "read_config_file_data" in calls, name
        assert not calls & {"read_stack_config", "read_config"}, name  # no fallback of its own
    elsewhere = [
        p.relative_to(REPO).as_posix()
        for p in (REPO / "bot").rglob("*.py")
        if "read_stack_config" in _calls(p) and not p.is_relative_to(REPO / "bot" / "parse")
    ]
    assert elsewhere == ["bot/core/configfile.py"]


def test_the_cli_and_the_web_api_read_a_training_yaml_alike(capsys: pytest.CaptureFixture[str]) -> None:
    data = LLAMAFACTORY.read_bytes()
    shared = read_config_file_data(data)
    assert isinstance(shared, StackConfig) and shared.tool == "llamafactory"
    assert shared.values["lora_rank"] == 8
    web = config_from_api(data.decode())
    assert isinstance(web, StackConfig) and web.model_dump() == shared.model_dump()
    main(["ask", "--format", "json", "--config", str(LLAMAFACTORY), ""])
    cli = json.loads(capsys.readouterr().out)["stack_config"]
    assert cli["tool"] == "llamafactory" and cli["values"]["lora_rank"] == 8


def test_the_shared_reader_refuses_large_input_before_decoding_it() -> None:
    info = read_config_file_data(b"x" * (MAX_CONFIG_BYTES + 1))
    assert (info.error, info.fields) == ("too_large", [f"{MAX_CONFIG_BYTES + 1:,} bytes"])


# -- Feishu file messages -----------------------------------------------------------------------------


def test_a_config_json_file_in_p2p_is_sized_and_follow_ups_keep_it(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        card = _ask_file(fake, json.dumps(QWEN_FT).encode(), "config.json")
        assert card["header"]["title"]["content"].startswith("qwen2.5-7b-support-sft bf16 inference")
        # the config's own fields: 28 layers, hidden 3584, 4 KV heads; 2 × 28 × 4 × 128 × 2 B = 56 KiB
        words = card_words(card)
        assert "28 layers, hidden size 3,584, 28 attention heads and 4 KV heads" in words, words
        assert "56 KiB per token" in words
        fake.push(fake.message_event("QLoRA it on one RTX 4090"))
        wait(lambda: len(cards(fake)) == 2, 15, "follow-up card")
        title = card_of(cards(fake)[1])["header"]["title"]["content"]
        assert "qwen2.5-7b-support-sft" in title and "QLoRA" in title and "4090" in title, title


def test_training_configs_sent_as_files_are_read_like_the_cli_reads_them(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        card = _ask_file(fake, LLAMAFACTORY.read_bytes(), "qwen3_lora_sft.yaml")
        words = card_words(card)
        assert "Qwen3" in words and "LoRA" in words and "LLaMA-Factory" in words, words
        assert "rank 8" in words and "2,048" in words, words
        card = _ask_file(fake, DEEPSPEED.read_bytes(), "ds_config.json", chat_id="oc_p2p0002")
        assert "config" in card_words(card).lower()  # no model named: how to ask, not a traceback


def test_hostile_files_get_the_reason_and_large_ones_are_not_downloaded_whole(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        big = _ask_file(fake, b"{" + b" " * (3 * MAX_CONFIG_BYTES), "config.json")
        assert "too large" in card_words(big) and f"{3 * MAX_CONFIG_BYTES + 1:,} bytes" in card_words(big)
        binary = _ask_file(fake, bytes(range(256)) * 8, "config.json", chat_id="oc_p2p0002")
        assert "could not read that as JSON" in card_words(binary), card_words(binary)
        gone = fake.file_message(b"{}", "config.json", chat_id="oc_p2p0003")
        fake.http.resources.clear()  # the file was recalled: the download fails
        fake.push(gone)
        asked = gone["event"]["message"]["message_id"]
        card = card_of(wait(lambda: _answers_for(fake, asked), 15, "answer to a recalled file")[0])
        assert "could not open that config file (FeishuAPIError)" in card_words(card), card_words(card)
    log = (tmp_path / "bot.log").read_text()
    assert "Traceback" not in log


def test_a_group_file_is_read_only_when_it_replies_to_the_bot(fake, tmp_path: Path) -> None:
    with running_bot(fake, tmp_path):
        stray = fake.file_message(json.dumps(QWEN_FT).encode(), "config.json", chat_type="group",
                                  chat_id="oc_group0001")  # fmt: skip
        fake.push(stray)
        question = fake.group_message("@_user_1 70B模型推理要多少A100")
        fake.push(question)
        first = wait(lambda: _answers_for(fake, question["event"]["message"]["message_id"]), 15, "card")[0]
        reply = fake.file_message(json.dumps(QWEN_FT).encode(), "config.json", chat_type="group",
                                  chat_id="oc_group0001", parent_id=first["message_id"])  # fmt: skip
        fake.push(reply)
        answered = wait(lambda: _answers_for(fake, reply["event"]["message"]["message_id"]), 15, "answer")
        assert "qwen2.5-7b-support-sft" in card_of(answered[0])["header"]["title"]["content"]
        assert not _answers_for(fake, stray["event"]["message"]["message_id"])
        assert len(cards(fake)) == 2


def test_a_deepspeed_config_pasted_in_a_text_message_is_used(fake, tmp_path: Path) -> None:
    text = "full fine-tune Llama-3-8B on 8 A100s with this\n" + DEEPSPEED.read_text()
    with running_bot(fake, tmp_path):
        fake.push(fake.message_event(text))
        words = card_words(card_of(wait(lambda: cards(fake), 15, "card")[0]))
    # s24 review #3: the stated ZeRO stage is said once per headline (the layout leaves out 'ZeRO-3')
    assert "full fine-tuning (ZeRO-3) fits on 8 × A100 80G (CPU offload)" in words, words
    assert "train_micro_batch_size_per_gpu: auto" in words.replace("\\", "")  # named as not used


def test_a_download_without_a_length_stops_at_the_bound() -> None:
    """No ``Content-Length`` (a chunked body): the bytes are counted as they come and the download
    stops one chunk past :data:`MAX_CONFIG_BYTES`, not at the end of a 50 MB file."""
    chunk, sent = 64 * 1024, []

    async def body():
        for _ in range(800):  # 50 MiB if read to the end
            sent.append(chunk)
            yield b"x" * chunk

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/tenant_access_token/internal"):
            return httpx.Response(200, json={"code": 0, "tenant_access_token": "t-1", "expire": 7200})
        assert request.url.params["type"] == "file"
        return httpx.Response(200, content=body())

    async def main() -> str:
        http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
        api = FeishuAPI("cli_x", "secret", domain="https://open.feishu.cn", http=http)
        with pytest.raises(FileTooLarge) as info:
            await api.download_resource("om_1", "file_1", limit=MAX_CONFIG_BYTES)
        await api.aclose()
        return info.value.size

    assert asyncio.run(main()) == f"> {MAX_CONFIG_BYTES:,} bytes"
    assert sum(sent) <= MAX_CONFIG_BYTES + chunk
