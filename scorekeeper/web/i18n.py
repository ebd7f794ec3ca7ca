"""The players' language: English, Spanish or French on every page (Flask-Babel).

Which language a page is in, first that applies:
1. the one this phone chose (the language buttons at the foot of every page; a cookie);
2. the league's, on a league's pages and its tables (``use_league_language``);
3. the phone's own (its Accept-Language);
4. English.

The rules word their sentences through ``scorekeeper.rules.words``; ``init_app`` installs
Flask-Babel's translator there. The scripts' sentences (``t("...")`` in static/js) are served
per language as ``/i18n/<lang>.js``.

``PSEUDO_LOCALE`` (tests only) adds a made-up language, ``pseudo``: every sentence is marked
and made 40% longer, so a test can see a sentence that escaped the catalogs and a layout that
cannot take a longer language.
"""

from __future__ import annotations

import hashlib
import json
import re
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from babel import Locale
from babel.lists import format_list
from babel.messages.extract import extract_from_dir
from babel.support import NullTranslations
from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    g,
    has_request_context,
    redirect,
    request,
)
from flask_babel import (
    Babel,
    Domain,
    format_date,
    format_datetime,
    format_decimal,
    get_locale,
    get_translations,
    refresh,
)
from jinja2 import pass_eval_context
from jinja2.nodes import EvalContext
from markupsafe import Markup, escape

from scorekeeper.rules import words

DEFAULT = "en"
PSEUDO = "pseudo"
COOKIE = "lang"
COOKIE_AGE = 60 * 60 * 24 * 400
_DECIMALS = (float, Decimal)
_VARY = "Accept-Language, Cookie"  # i18n: an HTTP header

#: The catalogs: translations/<lang>/LC_MESSAGES/messages.po (made by pybabel: make messages).
TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"


def _own_name(code: str) -> str:
    name = Locale.parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


def served(folder: Path) -> list[str]:
    """The languages this server can speak: English, the source, and every language whose
    catalog is compiled (``messages.mo``; `make translations`, or the wheel's build step). A
    ``.po`` alone is not served: offering it would put ``lang="es"`` on pages written in
    English."""
    return [
        DEFAULT,
        *sorted(p.name for p in folder.iterdir() if (p / "LC_MESSAGES" / "messages.mo").is_file()),
    ]


#: The languages offered, each named in itself (as the language buttons show them): English
#: and every language served (adding one is `make new-language CODE=xx`).
LANGUAGES: dict[str, str] = {code: _own_name(code) for code in served(TRANSLATIONS)}

#: The scripts' gettext names (static/js/i18n.js); every name pybabel looks for is in
#: pyproject.toml, [tool.babel.extract_messages].
SCRIPT_KEYWORDS = {"t": None, "tn": (1, 2)}

#: Where the scripts' sentences are, under the static folder (and how Babel reads them).
SCRIPTS = [("js/**.js", "javascript"), ("sw.js", "javascript")]

bp = Blueprint("i18n", __name__)


def offered() -> dict[str, str]:
    """The languages a phone may choose here (the pseudo-language only where switched on)."""
    if current_app.config.get("PSEUDO_LOCALE"):
        return {**LANGUAGES, PSEUDO: "Pséûdö"}
    return LANGUAGES


def use_league_language(language: str | None) -> None:
    """Called where a league (or a league table) is loaded: its pages default to the league's
    language, unless the phone chose one."""
    if language in LANGUAGES and g.get("league_language") != language:
        g.league_language = language
        # In case a sentence was looked up before: the language is worked out again.
        g.pop("_sk_language", None)
        refresh()


def chosen() -> str:
    """The language of this request (a key of ``offered()``), worked out once per request."""
    if not has_request_context():
        return DEFAULT
    found = g.get("_sk_language")
    if found is None:
        found = g._sk_language = _choose()
    return found


def _choose() -> str:
    forced = g.get("forced_language")
    if forced:
        return forced
    cookie = request.cookies.get(COOKIE)
    if cookie and cookie in offered():
        return cookie
    league = g.get("league_language")
    if league:
        return league
    # The phone's languages, its first choice first: the first one offered here wins
    # ("en-GB,es;q=0.5" is English; werkzeug's best_match would prefer an exact "es").
    for value, _quality in request.accept_languages:
        primary = value.replace("_", "-").split("-")[0].lower()
        if primary in LANGUAGES:
            return primary
    return DEFAULT


def _select_locale() -> str:
    language = chosen()
    return DEFAULT if language == PSEUDO else language


def current_language() -> str:
    """For ``<html lang>`` and the scripts: the chosen language's code."""
    language = chosen()
    return DEFAULT if language == PSEUDO else language


class PseudoTranslations(NullTranslations):
    """Every sentence marked ⟦…⟧, its letters accented and lengthened by 40%: placeholders
    (``%(name)s``, ``{name}``) and markup are left as they are."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return pseudo(singular if n == 1 else plural)

    ugettext = gettext
    ungettext = ngettext

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return pseudo(singular if n == 1 else plural)

    upgettext = pgettext
    unpgettext = npgettext


_ACCENTS = str.maketrans("aeiouyAEIOUYcnCN", "àéîöûýÀÉÎÖÛÝçñÇÑ")


def pseudo(message: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(message):
        char = message[i]
        if char == "%" and message.startswith("%(", i):
            end = message.find(")", i)
            j = end + 2 if end != -1 else len(message)
            out.append(message[i:j])
            i = j
        elif char in "{<":
            close = "}" if char == "{" else ">"
            end = message.find(close, i)
            j = end + 1 if end != -1 else len(message)
            out.append(message[i:j])
            i = j
        else:
            out.append(char.translate(_ACCENTS))
            i += 1
    letters = sum(c.isalpha() for c in message)
    padding = " ".join(["ẋẋẋ"] * max(1, round(letters * 0.4 / 4))) if letters else ""
    return "⟦" + "".join(out) + (" " + padding if padding else "") + "⟧"


#: French "de", "que", "le", "la" before a name put into a sentence: "d’Ana", "qu’Ivo".
_ELIDED = re.compile(r"(?<![\w’'])([DdQqLl]|[Qq]u)(e|a) %\((\w+)\)s")
_VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüœæAEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆ")


def elide(sentence: str, variables: dict[str, Any]) -> str:
    """French elision where a name is filled in: "la main de %(player)s" with Ana is "la main
    d’Ana" ("de", "que", "le", "la" before a vowel). Other languages: ``sentence`` as it is."""
    if "%(" not in sentence or not chosen().startswith("fr"):
        return sentence

    def shortened(match: re.Match[str]) -> str:
        head, _vowel, name = match.groups()
        value = variables.get(name)
        if isinstance(value, int | float | Decimal) or str(value or "")[:1] not in _VOWELS:
            return match.group(0)
        return f"{head}’%({name})s"

    return _ELIDED.sub(shortened, sentence)


def fill(sentence: str, variables: dict[str, Any]) -> str:
    """``sentence % variables`` in the page's language: a decimal written the language's way
    (``number_text``), French elision before a name (``elide``)."""
    return elide(sentence, variables) % {
        name: number_text(value) if type(value) in _DECIMALS else value
        for name, value in variables.items()
    }


class AppDomain(Domain):
    """Flask-Babel's domain with what Babel has no word for: the pseudo-language where it is
    switched on, and a sentence's variables filled in the page's language (``fill``: decimals
    written the language's way, French elision before a name), which Flask-Babel's plain
    ``%`` cannot do."""

    def gettext(self, string: str, **variables: Any) -> str:
        found = self.get_translations().ugettext(string)
        return fill(found, variables) if variables else found

    def ngettext(self, singular: str, plural: str, num: int, **variables: Any) -> str:
        variables.setdefault("num", number_text(num))
        return fill(self.get_translations().ungettext(singular, plural, num), variables)

    def get_translations(self) -> Any:
        if has_request_context() and chosen() == PSEUDO:
            return PseudoTranslations()
        return super().get_translations()


@bp.get("/language/<language>")
def choose(language: str) -> Response:
    """One tap on a language at the foot of a page: kept in a cookie on this phone, then back
    to the page it was tapped on. A link, not a form: it changes nothing but this phone's
    preference, works on a kept page without signal to the server's forms, and leaves the
    read-only pages without a form."""
    target = request.args.get("next", "")
    if not _same_site_path(target):
        target = "/"
    response = redirect(target, code=303)
    if language in offered():
        response.set_cookie(
            COOKIE,
            language,
            max_age=COOKIE_AGE,
            samesite="Lax",
            secure=request.is_secure,
            httponly=True,
        )
    response.cache_control.no_store = True
    return response


def _same_site_path(target: str) -> bool:
    """A path on this site only: starts with one "/", with no space, control character or
    backslash (a browser drops a tab or a line break, so "/\t/evil.example" would lead to
    //evil.example)."""
    return (
        target.startswith("/")
        and not target.startswith("//")
        and all(c.isprintable() and not c.isspace() and c != "\\" for c in target)
    )


def language_links() -> list[tuple[str, str, str]]:
    """(code, name, address) of each language button on this page."""
    from flask import url_for

    here = quote(request.full_path if request.query_string else request.path, safe="/")
    return [
        (code, name, f"{url_for('i18n.choose', language=code)}?next={here}")
        for code, name in offered().items()
    ]


@cache
def script_messages() -> tuple[str | tuple[str, str], ...]:
    """The sentences of static/js, found once per process: ``t("…")`` as a string,
    ``tn("…", "…", n)`` as its (singular, plural) pair."""
    found: list[str | tuple[str, str]] = []
    for _f, _l, message, _c, _x in extract_from_dir(
        str(current_app.static_folder),
        SCRIPTS,
        keywords=SCRIPT_KEYWORDS,
    ):
        key = (message[0], message[1]) if isinstance(message, tuple) else message
        if key and key not in found:
            found.append(key)
    return tuple(found)


def _script_catalog(language: str) -> str:
    translations = get_translations()
    messages: dict[str, str] = {}
    for message in script_messages():
        if isinstance(message, tuple):
            # i18n.js picks the singular or the plural by the language's own rule (Intl), so
            # each is sent under its English text: the form for one, and the form for many.
            singular, plural = message
            messages[singular] = translations.ungettext(singular, plural, 1)
            messages[plural] = translations.ungettext(singular, plural, 2)
        else:
            messages[message] = translations.ugettext(message)
    body = json.dumps({"lang": language, "messages": messages}, ensure_ascii=False)
    return f"window.SK_I18N = {body};\n"


@bp.get("/i18n/<language>.js")
def script_catalog(language: str) -> Response:
    """The scripts' sentences in ``language`` (static/js/i18n.js reads them)."""
    if language not in offered():
        return Response("window.SK_I18N = null;\n", mimetype="text/javascript", status=404)
    response = Response(_script_catalog(language), mimetype="text/javascript")
    response.cache_control.public = True
    response.cache_control.max_age = 60 * 60 * 24 * 365
    return response


def script_catalog_url() -> str | None:
    """Where this page's scripts find their sentences (None in English: they are the source)."""
    from flask import url_for

    language = chosen()
    if language == DEFAULT:
        return None
    return url_for("i18n.script_catalog", language=language, v=catalog_version())


@cache
def catalog_version() -> str:
    """Changes whenever a compiled catalog does (the scripts' catalogs are cached a year)."""
    digest = hashlib.blake2b(digest_size=6)
    for mo in sorted((TRANSLATIONS).glob("*/LC_MESSAGES/*.mo")):
        digest.update(mo.read_bytes())
    return digest.hexdigest()


def number_text(value: Any) -> str:
    """A number as the page's language writes it, with the decimals it has (Babel's
    ``format_decimal``): 17.5 -> "17,5" in Spanish and French, 1234 -> "1 234" in French; an
    int under 1000 is the same in every language offered (no lookup)."""
    if type(value) is int and -1000 < value < 1000:
        return str(value)
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        return str(value)
    text = str(value)
    if not has_request_context() or "e" in text.lower():
        return text
    places = len(text.split(".", 1)[1]) if "." in text else 0
    return format_decimal(value, format="#,##0." + "0" * places if places else "#,##0")


def _first_of_month(text: str, day: int, pattern: str) -> str:
    # French writes the first of a month "1er" ("1er décembre 2026", "lundi 1er déc.").
    if day == 1 and re.search(r"(?<!d)d(?!d)", pattern) and chosen().startswith("fr"):
        return re.sub(r"(?<!\d)1(?=[\s\u00a0\u202f])", "1er", text, count=1)
    return text


def format_day(day: Any, pattern: str = "medium") -> str:
    """Flask-Babel's ``format_date`` ("d MMM y" -> "4 janv. 2024"), with the French "1er"."""
    return _first_of_month(format_date(day, pattern), day.day, pattern)


def format_moment(moment: Any, pattern: str = "medium") -> str:
    """Flask-Babel's ``format_datetime``, with the French "1er"."""
    return _first_of_month(format_datetime(moment, pattern), moment.day, pattern)


def names_list(names: Any) -> str:
    """Names joined as the page's language joins them (Babel's ``format_list``), never "Ana &
    Bruno": "Ana, Bruno and Carla", "Ana, Bruno y Carla", "Ana, Bruno et Carla". Spanish "y"
    becomes "e" before an "i" sound ("Ana e Isabel")."""
    items = [str(name) for name in names]
    if len(items) < 2:
        return "".join(items)
    locale = str(get_locale() or DEFAULT) if has_request_context() else DEFAULT
    # The app's English is British ("organiser"): "Ann, Bob and Cy", no serial comma.
    text = format_list(items, locale="en_GB" if locale == DEFAULT else locale)
    last = items[-1].lower()
    if (
        locale.startswith("es")
        and last.startswith(("i", "í", "hi", "hí"))
        and not last.startswith(("hia", "hie", "hio", "hiu"))
        and text.endswith(" y " + items[-1])
    ):
        text = text[: -len(items[-1]) - 3] + " e " + items[-1]
    return text


@pass_eval_context
def template_gettext(eval_ctx: EvalContext, message: str, /, **variables: Any) -> str:
    """``_("...")``, ``gettext`` and ``{% trans %}`` in templates: Jinja's newstyle gettext
    (always %-formatted; the variables escaped where the template is), but filled in as
    Python's sentences are (``fill``: the language's decimals, French elision), which Jinja's
    own cannot do: it formats without seeing the language."""
    return _formatted(eval_ctx, get_translations().ugettext(message), variables)


@pass_eval_context
def template_ngettext(
    eval_ctx: EvalContext, singular: str, plural: str, num: int, /, **variables: Any
) -> str:
    """``ngettext`` and ``{% trans count=... %}`` in templates, as ``template_gettext``."""
    variables.setdefault("num", number_text(num))
    return _formatted(eval_ctx, get_translations().ungettext(singular, plural, num), variables)


def _formatted(eval_ctx: EvalContext, sentence: str, variables: dict[str, Any]) -> str:
    if not eval_ctx.autoescape:
        return fill(sentence, variables)
    # As Markup(sentence) % variables: the sentence is trusted, what is put in is escaped.
    safe = {
        name: value if type(value) in (int, *_DECIMALS) else escape(value)
        for name, value in variables.items()
    }
    return Markup(fill(sentence, safe))


def init_app(app: Flask) -> None:
    app.config.setdefault("PSEUDO_LOCALE", False)
    babel = Babel()
    babel.init_app(
        app,
        default_locale=DEFAULT,
        default_translation_directories=str(TRANSLATIONS),
        locale_selector=_select_locale,
    )
    babel.domain_instance = AppDomain(translation_directories=[str(TRANSLATIONS)])
    # Flask-Babel installed Jinja's i18n extension (newstyle); its sentences are filled in the
    # page's language, as Python's are.
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.jinja_env.globals.update(
        _=template_gettext, gettext=template_gettext, ngettext=template_ngettext
    )
    words.install(
        lambda message: get_translations().ugettext(message),
        lambda singular, plural, n: get_translations().ungettext(singular, plural, n),
        number_text,
        fill,
    )
    app.register_blueprint(bp)
    app.add_template_global(current_language)
    app.add_template_global(offered, "languages")
    app.add_template_global(chosen, "chosen_language")
    app.add_template_global(script_catalog_url)
    app.add_template_global(language_links)
    app.add_template_filter(names_list)
    app.add_template_filter(format_day, "dateformat")
    app.add_template_filter(format_moment, "datetimeformat")

    @app.before_request
    def script_language() -> None:
        # The script catalog's language is the one in its address, not the phone's.
        language = (request.view_args or {}).get("language")
        if request.endpoint == "i18n.script_catalog" and language in offered():
            g.forced_language = language
            g.pop("_sk_language", None)

    @app.after_request
    def vary_by_language(response: Response) -> Response:
        if response.mimetype == "text/html":
            vary = response.headers.get("Vary")
            response.headers["Vary"] = f"{vary}, {_VARY}" if vary else _VARY
        return response
