"""A translator's round trip: a word corrected in a copy of the catalogues (it.po) shows in the
page once `i18n.catalogue_dir` names the copy, with no code touched; the shipped catalogues are
read again when the setting is empty."""

from __future__ import annotations

import shutil

import pytest

from rentalcomply import locale as catalogues
from rentalcomply.accounts import service as accounts
from rentalcomply.dashboard import i18n
from tests.conftest import bootstrapped_settings
from tests.dashboard.conftest import make_user, new_browser, sign_in


@pytest.fixture
def translators_copy(tmp_path):
    """The shipped catalogues copied, "Today" of it.po changed as Poedit would save it."""
    copy = tmp_path / "locale"
    shutil.copytree(catalogues.SHIPPED, copy, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    po = copy / "it" / "LC_MESSAGES" / "messages.po"
    text = po.read_text(encoding="utf-8")
    assert text.count('msgid "Today"\nmsgstr "Oggi"\n') == 1
    po.write_text(text.replace('msgid "Today"\nmsgstr "Oggi"\n',
                               'msgid "Today"\nmsgstr "Oggi, in struttura"\n'), encoding="utf-8")
    return copy


@pytest.fixture
def settings(tmp_path, translators_copy):
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_I18N_CATALOGUE_DIR=str(translators_copy)) \
            as settings:
        yield settings
    catalogues.use_directory(None)


def test_a_word_changed_in_the_italian_catalogue_shows_in_the_page(settings, wsgi_app):
    account = accounts.create_account("Agenzia Limone").id
    make_user(account, "titolare@limone.example")
    browser = new_browser(wsgi_app)
    sign_in(browser, "titolare@limone.example")
    page = browser.get("/dashboard/today?lang=it")
    assert "<h1>Oggi, in struttura</h1>" in page.text
    assert "Prenotazioni" in page.text  # the rest of the copy, as shipped

    catalogues.use_directory(None)  # the setting emptied: the shipped word again
    assert i18n.translate("it", "Today") == "Oggi"
