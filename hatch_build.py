"""The wheel's build step: the translation catalogs (``*.po``, kept in git) are compiled to the
``*.mo`` files the server reads, so a wheel built from a fresh clone speaks every language it
offers (``scorekeeper.web.i18n`` offers only a language whose compiled catalog is there).

The ``.mo`` files are written to a temporary folder and put in the wheel from there: the source
tree is left as it is, and a stale ``.mo`` lying in it never reaches the wheel."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hatchling.builders.hooks.plugin.interface import BuildHookInterface

TRANSLATIONS = "scorekeeper/translations"


class CatalogsHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        self._folder = Path(tempfile.mkdtemp(prefix="scorekeeper-catalogs-"))
        for po in sorted(Path(self.root, TRANSLATIONS).glob("*/LC_MESSAGES/messages.po")):
            language = po.parent.parent.name
            with po.open("rb") as source:
                catalog = read_po(source, locale=language)
            mo = self._folder / language / "messages.mo"
            mo.parent.mkdir()
            with mo.open("wb") as target:
                write_mo(target, catalog, use_fuzzy=False)
            build_data["force_include"][str(mo)] = (
                f"{TRANSLATIONS}/{language}/LC_MESSAGES/messages.mo"
            )

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        shutil.rmtree(self._folder, ignore_errors=True)
