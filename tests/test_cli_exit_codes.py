"""Issue 22 item 3: every exit code ``sizing-bot ask`` can return, each reproduced through the CLI, as the
README's Command line section lists them (0 answered; 1 an output could not be made or written; 2 the
question, the config.json, the offer file or the options could not be used)."""

from __future__ import annotations

import errno
import sys
from pathlib import Path

import pytest

from bot.cli import main

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = str(REPO / "presales.example.toml")
SEED = "7B模型1万亿token要多少A100"


def test_zero_when_answered_and_every_output_written(tmp_path, capsys) -> None:
    args = ["--chart", str(tmp_path / "c.png"), "--recipe-dir", str(tmp_path / "r")]
    assert main(["ask", *args, SEED]) == 0
    assert (tmp_path / "c.png").exists() and any((tmp_path / "r").iterdir())
    with pytest.raises(SystemExit) as done:
        main(["ask", "--help"])
    assert done.value.code == 0


def test_two_when_the_input_cannot_be_used(tmp_path, capsys) -> None:
    assert main(["ask", "今天天气怎么样"]) == 2  # not understood: a short help
    bad_config = tmp_path / "config.json"
    bad_config.write_text("{not json", encoding="utf-8")
    assert main(["ask", "--config", str(bad_config), "serve it on 2 H100"]) == 2
    bad_offer = tmp_path / "presales.toml"
    bad_offer.write_text('provider = "X"\ncolour = "red"\n', encoding="utf-8")
    assert main(["ask", "--presales", str(bad_offer), SEED]) == 2
    assert str(bad_offer) in capsys.readouterr().err  # one line naming the file
    assert main(["ask", "--quote", str(tmp_path / "q.pdf"), SEED]) == 2  # a quote without an offer
    with pytest.raises(SystemExit) as done:
        main(["ask", "--format", "xml", SEED])  # an option argparse refuses
    assert done.value.code == 2


def test_one_when_an_output_cannot_be_written(tmp_path, capsys, monkeypatch) -> None:
    missing = tmp_path / "no" / "such" / "dir"
    assert main(["ask", "--chart", str(missing / "c.png"), SEED]) == 1
    assert main(["ask", "--presales", EXAMPLE, "--quote", str(missing / "q.pdf"), SEED]) == 1
    a_file = tmp_path / "file"
    a_file.write_text("x")
    assert main(["ask", "--recipe-dir", str(a_file / "sub"), SEED]) == 1
    err = capsys.readouterr().err
    assert "cannot write the chart" in err and "cannot write the quote" in err
    assert "cannot write the recipes" in err

    class FullDisk:
        encoding = "utf-8"

        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

        def flush(self) -> None:
            pass

    monkeypatch.setattr(sys, "stdout", FullDisk())
    assert main(["ask", SEED]) == 1
    assert "No space left on device" in capsys.readouterr().err
