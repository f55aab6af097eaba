"""One language at a time (issue 32.4): every page a player opens, in zh and in en, shows no
text of the other language and no untranslated message id. The table's own words come from
the catalog its page carries (the script draws from it), so the catalog is read too."""

import json
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from accounts.models import User
from games.services.tables import table_bot_add, table_create
from games.variants import variant_ids
from lobby.services import room_default_get_or_create

pytestmark = pytest.mark.django_db

CJK = re.compile(r"[\u3400-\u9fff\uff01-\uff5e]")
# An English word: three or more Latin letters (card faces J/Q/K/A, suits, "×" and figures
# are the same in both languages).
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
# What both languages show as it is: the site's own name beside its Chinese one, the
# language switcher's names of each language, users' and bots' names the test made.
# Abbreviations and key names are written so in Chinese too.
BOTH = {"en": {"中文", "简体中文", "升级", "拖拉机"},
        "zh": {"English", "Tractor", "API", "REST", "OpenAPI", "JSON", "UTC", "SHA", "UTF",
               "Home", "End"}}
# Placeholders a script fills in, and code shown as it is typed.
PLACEHOLDER = re.compile(r"\{\w+\}|%\(\w+\)[sd]")
NEUTRAL = {"code", "kbd", "samp", "pre"}


# The keys of the JSON a page gives its scripts whose strings the scripts show as they are.
SHOWN_KEYS = ("catalog", "labels", "label")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class _Text(HTMLParser):
    """The text a reader sees: text nodes (not scripts or styles), titles, placeholders,
    button values and alt texts, each with the language its element is marked with (`lang`,
    as a page marks a term of the other language it shows on purpose); the JSON a page gives
    its scripts, apart."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts, self.scripts, self._skip, self._langs = [], [], None, [None]

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        lang = attrs.get("lang") or self._langs[-1]
        if tag not in VOID:
            self._langs.append(lang)
        for name in ("title", "placeholder", "alt", "aria-label"):
            if attrs.get(name):
                self.texts.append((lang, attrs[name]))
        if tag == "input" and attrs.get("type") in ("submit", "button") and attrs.get("value"):
            self.texts.append((lang, attrs["value"]))
        if tag in ("script", "style") or tag in NEUTRAL:
            self._skip = (tag, attrs.get("type"))

    def handle_endtag(self, tag):
        if tag not in VOID and len(self._langs) > 1:
            self._langs.pop()
        if self._skip and tag == self._skip[0]:
            self._skip = None

    def handle_data(self, data):
        if self._skip is None:
            self.texts.append((self._langs[-1], data))
        elif self._skip == ("script", "application/json"):
            self.scripts.append(data)


def _strings(value, shown=False):
    """The strings of a page's JSON under one of SHOWN_KEYS."""
    if isinstance(value, str):
        if shown:
            yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, shown or key in SHOWN_KEYS)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, shown)


def foreign_words(html, language, allowed=()):
    """The words of `html` that belong to the other language than `language`."""
    parser = _Text()
    parser.feed(html)
    texts = [text for lang, text in parser.texts if lang is None or lang.startswith(
        "zh" if language == "zh" else "en")]
    for block in parser.scripts:
        texts.extend(_strings(json.loads(block)))
    keep = BOTH[language] | set(allowed)
    found = set()
    for text in texts:
        text = PLACEHOLDER.sub(" ", text)
        for name in keep:
            text = text.replace(name, " ")
        if language == "zh":
            found.update(LATIN_WORD.findall(text))
        else:
            found.update(CJK.findall(text))
    return sorted(found)


def test_the_checker_finds_the_other_language():
    assert foreign_words("<p>第 2 桌 Table</p>", "zh") == ["Table"]
    assert foreign_words('<p title="底注">Stake</p>', "en") == ["底", "注"]
    assert foreign_words('<script type="application/json">{"catalog": {"a": ["Bot 1"]}, '
                         '"csrf": "abcdef"}</script>', "zh") == ["Bot"]
    assert foreign_words('<p>the kitty (<i lang="zh">底牌</i>)</p>', "en") == []
    assert foreign_words("<script>var x = 'English';</script><p>桌</p>", "zh") == []


@pytest.fixture
def pages(client, make_user, finished_hand):
    """(name, url) of every page a player opens, with what it shows filled in."""
    player = make_user(username="walker", display_name="walker")
    client.force_login(player)
    room = room_default_get_or_create()
    # Private, so that its page shows the seats' invitation panel too.
    table = table_create(room=room, user=player, variant="guigang", base_stake=1, cap=5,
                         private=True)
    table_bot_add(table_id=table.pk, user=player, seat=1)
    hand, _, _ = finished_hand()
    return [
        ("home", reverse("ui:home")), ("lobby", reverse("ui:lobby")),
        ("table", reverse("ui:table", args=[table.pk])),
        ("replay", reverse("ui:replay", args=[hand.pk])),
        ("profile", reverse("ui:profile")),
        ("token", reverse("ui:token")), ("password", reverse("accounts:password_change")),
        *((f"rules {variant}", reverse("ui:rules", args=[variant])) for variant in variant_ids()),
    ]


@pytest.mark.parametrize("language", ["zh", "en"])
def test_every_page_is_in_one_language(client, pages, language):
    client.cookies["django_language"] = "zh-hans" if language == "zh" else "en"
    # Players' own names are no language's.
    names = {str(user) for user in User.objects.filter(is_bot=False)}
    leaks = {}
    for name, url in pages:
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        words = foreign_words(response.content.decode(), language, allowed=names)
        if words:
            leaks[name] = words
    client.logout()
    for name in ("register", "login"):
        words = foreign_words(client.get(reverse(f"accounts:{name}")).content.decode(), language)
        if words:
            leaks[name] = words
    assert leaks == {}


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_private_tables_refusals_are_in_one_language(client, make_user, language):
    client.cookies["django_language"] = "zh-hans" if language == "zh" else "en"
    client.force_login(make_user())
    table = table_create(room=room_default_get_or_create(), user=make_user(),
                         variant="classic", base_stake=1, cap=4, private=True)
    address = reverse("ui:table", args=[table.pk])
    for url in (address, address + "?invite=revoked"):
        response = client.get(url)
        assert response.status_code == 403
        names = {str(user) for user in User.objects.all()}
        assert foreign_words(response.content.decode(), language, allowed=names) == []
