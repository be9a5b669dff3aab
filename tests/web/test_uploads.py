"""Uploads are spooled to files without a name and closed once the route has answered, whether it
succeeded, refused or raised (web/uploads.py)."""

from __future__ import annotations

import io
import os
import tempfile

import bottle
import pytest
import webtest

from rentalcomply.web import uploads

BIG = b"\xff\xd8" + os.urandom(300_000)  # over Bottle's 100 KB in-memory limit


@pytest.fixture
def folder(tmp_path, monkeypatch):
    folder = tmp_path / "system-tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


@pytest.fixture
def seen():
    return {}


@pytest.fixture
def client(seen, folder):
    app = bottle.Bottle()
    app.config["catchall"] = False
    uploads.install()

    @app.post("/upload/<outcome>")
    def upload(outcome):
        part = bottle.request.files.get("photo")
        seen.update(part=part.file, body=bottle.request.body, form=bottle.request.forms.get("name"),
                    names=os.listdir(folder), content=part.file.read())
        if outcome == "refuse":
            return bottle.HTTPResponse(status=413)
        if outcome == "raise":
            raise RuntimeError("the decoder fell over")
        return "ok"

    return webtest.TestApp(uploads.ClosingUploads(app))


def test_bottle_still_spools_through_the_name_we_replace():
    # If Bottle stops looking this name up when it spools, install() no longer reaches it.
    uploads.install()
    assert bottle.NamedTemporaryFile is uploads.anonymous_file
    assert "NamedTemporaryFile(mode='w+b')" in open(bottle.__file__).read()
    assert 'NamedTemporaryFile(mode="w+b")' in open(bottle.__file__).read()


@pytest.mark.parametrize("outcome, status", [("ok", 200), ("refuse", 413), ("raise", None)])
def test_a_large_upload_is_spooled_without_a_name_and_closed_after_the_answer(
        client, seen, folder, outcome, status):
    if status is None:
        with pytest.raises(RuntimeError):
            client.post(f"/upload/{outcome}", {"name": "Maria"},
                        upload_files=[("photo", "passport.jpg", BIG)])
    else:
        client.post(f"/upload/{outcome}", {"name": "Maria"},
                    upload_files=[("photo", "passport.jpg", BIG)], status=status)
    assert seen["content"] == BIG and seen["form"] == "Maria"
    assert not isinstance(seen["part"], io.BytesIO)  # on disk, as Bottle does past 100 KB...
    assert seen["names"] == []  # ... but under no name, even while the route runs
    assert seen["part"].closed and seen["body"].closed
    assert os.listdir(folder) == []


def test_a_small_upload_stays_in_memory_and_is_closed_too(client, seen, folder):
    client.post("/upload/ok", upload_files=[("photo", "small.jpg", b"\xff\xd8tiny")])
    assert isinstance(seen["part"], io.BytesIO) and seen["part"].closed and seen["body"].closed
