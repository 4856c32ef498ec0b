"""A person in a real browser (issue 26): Debian's chromium, headless, driven by Playwright (the
Python package's driver, pointed at /usr/bin/chromium: no `playwright install`), against the real
`sizing-bot serve` on a free loopback port. Types a Chinese and an English question into the form,
follows one action link and one follow-up, checks no horizontal overflow at 390 px, and saves
screenshots at phone and desktop width. Skipped only where chromium is absent and CI is not set."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("SIZING_BOT_TEST_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

if not Path(CHROMIUM).exists() and not os.environ.get("CI"):
    pytest.skip("chromium is not installed (CI installs it: .ci/run)", allow_module_level=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = free_port()
    exe = Path(sys.executable).with_name("sizing-bot")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "bot"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("SIZING_BOT_")}
    proc = subprocess.Popen(
        [*command, "serve", "--port", str(port)], env=env, stderr=subprocess.PIPE, text=True
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1) as r:
                if r.status == 200:
                    break
        except OSError:
            time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail("sizing-bot serve did not start: " + (proc.stderr.read() if proc.stderr else ""))
    yield base
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


def overflow(page) -> int:
    """How many CSS pixels the page is wider than the viewport (0: no horizontal scrolling)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def ask(page, question: str) -> None:
    page.fill("form.ask input[name=q]", question)
    with page.expect_navigation():
        page.click("form.ask button")


def test_a_person_asks_in_chinese_and_english(server, browser, tmp_path) -> None:
    phone = browser.new_page(viewport=PHONE, locale="zh-CN", java_script_enabled=False)
    phone.goto(server + "/")
    assert "大模型算力估算" in phone.title()
    ask(phone, "7B模型1万亿token要多少A100")
    headline = phone.locator(".answer b").first
    assert "A100·时" in headline.inner_text()
    assert headline.bounding_box()["y"] < PHONE["height"]  # the first screen shows the headline
    summary = phone.locator(".answer summary").bounding_box()  # below the key figures
    assert summary["y"] + summary["height"] < PHONE["height"]  # ... and the key figures
    assert overflow(phone) <= 0
    assert phone.locator("details").count() == 1 and not phone.locator("details").get_attribute("open")
    phone.screenshot(path=str(tmp_path / "phone-zh.png"), full_page=False)

    with phone.expect_navigation():  # an action link: switch to H100
        phone.click("nav.acts a:has-text('H100')")
    assert "H100·时" in phone.locator(".answer").inner_text()
    # a follow-up's words alone would be asked without the conversation: the new-question box is empty
    # and the turns are listed above the answer, whose headline stays on the first screen
    assert phone.input_value("form.ask input[name=q]") == ""
    assert phone.locator("ol.turns li").all_inner_texts() == ["7B模型1万亿token要多少A100", "那H100呢"]
    assert phone.locator(".answer b").first.bounding_box()["y"] < PHONE["height"]

    phone.fill("form.fu input[name=q]", "用LoRA呢")  # a follow-up keeps the conversation
    with phone.expect_navigation():
        phone.click("form.fu button")
    text = phone.locator(".answer").inner_text()
    assert "LoRA" in text and "H100" in text
    assert overflow(phone) <= 0

    desk = browser.new_page(viewport=DESKTOP, locale="en-US", java_script_enabled=False)
    desk.goto(server + "/")
    assert "LLM compute sizing" in desk.title()
    ask(desk, "How long to pretrain a 70B model on 2T tokens with 1024 H100s?")
    assert "H100-hours" in desk.locator(".answer").inner_text()
    desk.wait_for_load_state("load")  # the chart
    assert desk.evaluate("document.querySelector('img.chart').naturalWidth") == 1000
    desk.screenshot(path=str(tmp_path / "desktop-en.png"), full_page=True)
    phone.set_viewport_size(PHONE)
    phone.goto(desk.url)
    assert overflow(phone) <= 0
    phone.screenshot(path=str(tmp_path / "phone-en.png"), full_page=True)
    shots = os.environ.get("WEB_SCREENSHOTS_DIR")  # a folder to keep them in (docs/)
    for name in ("phone-zh.png", "desktop-en.png", "phone-en.png"):
        assert (tmp_path / name).stat().st_size > 10_000
        if shots:
            shutil.copy(tmp_path / name, Path(shots) / f"web-{name}")
