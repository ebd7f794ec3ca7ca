"""Render the app icons of the web app manifest from static/icon.svg.

    python tools/make_icons.py

needs Playwright and a Chromium (CHROMIUM_PATH, default /usr/bin/chromium). Writes
static/icons/: icon-192.png and icon-512.png (purpose "any": the domino on a rounded square),
maskable-512.png (purpose "maskable": full-bleed background, the domino inside the central
safe zone that every launcher's mask keeps) and apple-touch-icon.png (180 px, iOS home screen).
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parent.parent / "static"
BACKGROUND = "#0b5a8a"  # the app's accent colour, also the manifest's theme_color

ICONS = (
    ("icon-192.png", 192, False),
    ("icon-512.png", 512, False),
    ("maskable-512.png", 512, True),
    ("apple-touch-icon.png", 180, True),
)


def page_for(svg: str, size: int, maskable: bool) -> str:
    inner = int(size * (0.56 if maskable else 0.78))
    radius = 0 if maskable else int(size * 0.18)
    drawing = svg.replace("<svg ", '<svg width="100%" height="100%" ', 1)
    return (
        '<html><body style="margin:0;background:transparent">'
        f'<div style="width:{size}px;height:{size}px;background:{BACKGROUND};'
        f'border-radius:{radius}px;display:flex;align-items:center;justify-content:center">'
        f'<div style="width:{inner}px;height:{inner}px">{drawing}</div></div></body></html>'
    )


def main() -> None:
    svg = (STATIC / "icon.svg").read_text()
    (STATIC / "icons").mkdir(exist_ok=True)
    executable = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        for name, size, maskable in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_for(svg, size, maskable))
            page.screenshot(path=str(STATIC / "icons" / name), omit_background=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
