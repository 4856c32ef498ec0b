"""Session 43, fixjob: job kinds the answer sized wrong (issue 24; trial s43, /work/notes/s43/t43o).

Packing (q10_zh, q02_en): samples packed into full sequences (LLaMA-Factory ``packing`` / ``neat_packing``,
axolotl ``sample_packing``, TRL ``SFTConfig.packing``) make every trained sequence the packed length
(``cutoff_len`` / ``max_seq_len``; LLaMA-Factory ``cutoff_len`` default 2,048,
src/llamafactory/hparams/data_args.py): the batch line counts packed sequences, 128 × 8,192 = 1,048,576
tokens a step, not 128 samples × 1,500 = 192,000.
"""

from __future__ import annotations

import json

from bot.cli import main


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _text(capsys, question: str) -> str:
    main(["ask", "--", question])
    return capsys.readouterr().out


PACK_ZH = (
    "Qwen2.5-32B SFT，开packing，cutoff_len 8192，数据量30万条平均1500 token，2机16卡H100，跑3个epoch要多久"
)
PACK_EN = (
    "SFT Mistral-7B with sample packing, 2M samples averaging 800 tokens, 3 epochs, on 8x A100 40GB using "
    "FSDP. How many hours?"
)


def test_packed_batch_counts_packed_sequences_zh(capsys):
    out = _text(capsys, PACK_ZH)
    assert "每步 128 条序列（105万 token）" in out  # 128 × 8,192 = 1,048,576
    assert "按每条样本 1,500 token 计" not in out
    assert "13.5亿 token" in out  # the time still counts the data's own tokens: 300k × 1,500 × 3


def test_unpacked_batch_keeps_sample_length_zh(capsys):
    out = _text(capsys, PACK_ZH.replace("开packing，", ""))
    assert "每步 128 条序列（19.2万 token，按每条样本 1,500 token 计" in out  # 128 × 1,500, padded per batch


def test_packed_short_samples_fill_default_sequence_en(capsys):
    data = _ask(capsys, PACK_EN)
    assert data["request"]["seq_len"] == 2048  # packed to the default cutoff, not one 800-token sample
    assert data["request"]["tokens_per_sample"] == 800
    reply = data["reply"]
    assert "Batch: 128 sequences per step (262K tokens)" in reply  # 128 × 2,048 = 262,144
    assert "samples of 800 tokens packed into full sequences" in reply
    assert "4.8B tokens" in reply  # 2M × 800 × 3: the time is the data's, unchanged


def test_unpacked_short_samples_are_one_sequence_each_en(capsys):
    data = _ask(capsys, PACK_EN.replace("with sample packing, ", ""))
    assert data["request"]["seq_len"] == 800  # one sample per sequence without packing
    assert "Batch: 128 sequences per step (102K tokens)" in data["reply"]  # 128 × 800
