"""The dashboard's import upload, through the whole app: the file (here past Bottle's 100 KB in
memory) is never named in the temporary folder, and is closed once the page has answered
(web/uploads.py). The guest page's scan is the same in tests/e2e/test_uploads_leave_nothing.py."""

from __future__ import annotations

import os
import tempfile

import pytest

from rentalcomply.dashboard.pages import imports as import_page
from tests.dashboard.conftest import anna  # noqa: F401  (fixture)
from tests.imports.conftest import AIRBNB_ENGLISH, AIRBNB_US_ROWS, csv_bytes


@pytest.mark.parametrize("outcome", ["read", "raised"])
def test_an_import_upload_is_never_named_on_disk_and_closed_after(anna, tmp_path, monkeypatch,
                                                                  outcome):
    folder = tmp_path / "system-tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    seen = {}
    real = import_page.imports.import_export

    def watching(account_id, content, **options):
        seen["names"] = os.listdir(folder)
        seen["size"] = len(content)
        if outcome == "raised":
            raise RuntimeError("the reader fell over")
        return real(account_id, content, **options)

    monkeypatch.setattr(import_page.imports, "import_export", watching)
    content = csv_bytes(AIRBNB_ENGLISH, AIRBNB_US_ROWS * 600)
    assert len(content) > 150_000
    page = anna.get("/dashboard/bookings/import")
    anna.post("/dashboard/bookings/import", {"csrf": anna.csrf(page), "property_id": ""},
              upload_files=[("file", "reservations.csv", content)], status="*",
              expect_errors=True)
    assert seen == {"names": [], "size": len(content)}
    assert os.listdir(folder) == []
