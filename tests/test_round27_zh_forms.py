"""Round 27 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r27.json): kinds of writing
the r27work half showed the parser missing, each read for its axis and tested through the CLI
(``sizing-bot ask --format json``):

- serving engines by their full names: PaddlePaddle's 'Paddle Serving' and thu-pacman's Chitu
  ('赤兔（Chitu）', '赤兔推理引擎'), named as engines not modelled (bot.parse.more_engines); the first word
  of an engine a table knows in full is not named again as an engine of its own ('Paddle' of 'Paddle
  Serving', bot.parse.unknown_tools); '赤兔' alone (a horse) is no engine;
- a Chinese accelerator maker alone before a card word ('燧原的卡上', '沐曦显卡', '壁仞的加速卡'): named as
  typed, never an A100 in silence (bot.parse.lexicon.UNKNOWN_GPU_RE); the maker's name in other words is no
  card;
- AReaL's 'n_samples' in an RL job: the samples per prompt (bot.parse.generic_values.WORDS), never a
  fine-tuning's dataset size;
- ms-swift by its 'swift export' command (bot.parse.stack_words);
- a name without a hyphen after '运行' before what running it takes ('运行 FooGLM 的最低硬件要求'): the model
  run, named as typed (bot.parse.verb_names.RUN_NAME_RE); an engine or tool run stays theirs;
- ChatGLM's ``model.quantize(4)`` / ``quantize(8)``: 4- and 8-bit integer weights (bot.parse.settings.
  QUANT_BIT_RE), never a GGUF format nor left unread.

The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import pytest

from tests.test_round26_zh_forms import _ignored, ask


@pytest.mark.parametrize(
    ("text", "engine"),
    [
        ("手上 2 张 16G 的卡，用 Paddle Serving 部署 Qwen2.5-7B 能跑吗？", "Paddle Serving"),
        ("Paddle Serving 起 ChatGLM3-6B 服务要多少显存？", "Paddle Serving"),
        ("赤兔（Chitu）跑 Qwen2.5-72B 的 fp8 版，4 张 A800 够不够？", "Chitu"),
        ("用赤兔推理引擎部署 DeepSeek-R1，8 张 H20 能跑吗？", "Chitu"),
        ("serving Qwen2.5-32B with chitu on 2 A100s, enough memory?", "Chitu"),
    ],
)
def test_an_engine_by_its_full_name_is_named_not_modelled(
    capsys: pytest.CaptureFixture[str], text: str, engine: str
) -> None:
    out = ask(capsys, text)
    runtimes = [t for t in _ignored(out) if t.startswith("runtime: ")]
    assert runtimes == [f"runtime: {engine}"]  # once, never its first word as an engine of its own


@pytest.mark.parametrize(
    "text",
    [
        "赤兔马跑得快，Qwen2.5-7B 推理要几张 4090？",
        "用 PaddlePaddle 框架训练 ERNIE-4.5-0.3B 要多少显存？",
    ],
)
def test_no_serving_engine_is_read_from_other_words(capsys: pytest.CaptureFixture[str], text: str) -> None:
    out = ask(capsys, text)
    assert not any(t in ("runtime: Chitu", "runtime: Paddle Serving") for t in _ignored(out))


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("打算在燧原的卡上部署 Qwen2.5-72B，要几张？", "燧原"),
        ("8 张沐曦显卡能跑 Qwen2.5-72B 推理吗？", "沐曦"),
        ("壁仞的加速卡上跑 GLM-4-9B 推理要多少显存？", "壁仞"),
    ],
)
def test_a_maker_alone_before_a_card_word_is_named_as_typed(
    capsys: pytest.CaptureFixture[str], text: str, typed: str
) -> None:
    out = ask(capsys, text)
    assert out["interpretation"]["unknown_gpu"] == typed


@pytest.mark.parametrize(
    "text",
    [
        "燧原科技发布了新一代产品，Qwen2.5-7B 推理要几张 A100？",
        "沐曦的员工问：Qwen2.5-7B 推理要几张 A100？",
    ],
)
def test_a_maker_named_in_other_words_is_no_card(capsys: pytest.CaptureFixture[str], text: str) -> None:
    out = ask(capsys, text)
    assert out["interpretation"]["unknown_gpu"] is None
    assert out["request"]["gpu"].startswith("A100")


def test_areal_n_samples_is_the_samples_per_prompt(capsys: pytest.CaptureFixture[str]) -> None:
    out = ask(capsys, "AReaL 上做 GRPO，Qwen2.5-7B，n_samples 8，max_new_tokens 1024，4 张 H100 够吗？")
    assert out["request"]["num_generations"] == 8
    assert out["request"]["max_completion_length"] == 1024


def test_n_samples_of_a_fine_tuning_is_no_rl_setting(capsys: pytest.CaptureFixture[str]) -> None:
    out = ask(capsys, "Qwen2.5-7B 的 LoRA SFT，n_samples 20000，一张 A100 要跑多久？")
    assert out["request"]["num_generations"] is None


def test_swift_export_names_ms_swift(capsys: pytest.CaptureFixture[str]) -> None:
    out = ask(capsys, "swift export --merge_lora true 合并 Qwen2.5-7B 的 LoRA，一张 24G 的卡够吗？")
    assert out["request"]["training_tool"] == "ms-swift"


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("ChatGLM3-6B 加上 .quantize(4) 以后在 8G 的卡上能跑吗？", "int4"),
        ("chatglm2-6b 用 model.half().quantize(8).cuda() 加载，3060 12G 够不够？", "int8"),
    ],
)
def test_chatglm_quantize_is_the_integer_bit_width(
    capsys: pytest.CaptureFixture[str], text: str, precision: str
) -> None:
    out = ask(capsys, text)
    assert out["request"]["precision"] == precision
    assert not [t for t in _ignored(out) if t in ("4", "8")]  # no bit width left unread


def test_a_count_in_brackets_is_no_bit_width(capsys: pytest.CaptureFixture[str]) -> None:
    out = ask(capsys, "ChatGLM3-6B 推理，batch(4) 条请求一起跑，一张 3090 够吗？")
    assert out["request"]["precision"] not in ("int4", "int8")


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("运行 BazGLM 的最低硬件要求是多少？一张 3060 能行吗？", "BazGLM"),
        ("运行 BazLM 需要多少显存？我只有 8G 的卡。", "BazLM"),
    ],
)
def test_a_name_after_run_is_the_model_run(capsys: pytest.CaptureFixture[str], text: str, typed: str) -> None:
    out = ask(capsys, text)
    assert out["interpretation"]["unknown_model"] == typed
    assert out["request"]["model"] is None  # never swapped for a catalog model


@pytest.mark.parametrize(
    "text",
    [
        "运行 vLLM 的时候显存占满了，Qwen2.5-7B 推理怎么办？",
        "运行 Ollama 需要多少内存才能跑 Qwen2.5-7B？",
        "运行 ComfyUI 的时候 8G 显存够吗？",
    ],
)
def test_an_engine_run_is_no_model(capsys: pytest.CaptureFixture[str], text: str) -> None:
    out = ask(capsys, text)
    assert out["interpretation"]["unknown_model"] is None
