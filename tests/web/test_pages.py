"""`public_asset`: which /static/ paths name a file the server may send."""

from __future__ import annotations

import pytest

from rentalcomply.web.pages import public_asset


@pytest.mark.parametrize("path", [
    "templates/checkin.tpl", "css/../templates/checkin.tpl", "css/%2e%2e/templates/layout.tpl",
    "css/..%2ftemplates/checkin.tpl", "css/%252e%252e/templates/checkin.tpl",
    "css\\..\\templates\\checkin.tpl", "../pyproject.toml", "/etc/passwd", "css/%00.css",
    "README.md", "css", "css/", "css/%ff%fe.css", "css/rentalcomply.css%00",
])
def test_a_path_outside_the_public_files_names_nothing(path):
    assert public_asset(path) is None


def test_a_public_file_is_named_however_it_is_spelt():
    assert public_asset("css/rentalcomply.css") == "css/rentalcomply.css"
    assert public_asset("css/./rentalcomply.css") == "css/rentalcomply.css"
    assert public_asset("js%2fcheckin.js") == "js/checkin.js"
