"""The address a server records for the other commands' links."""

from __future__ import annotations

from rentalcomply.config import load_settings
from rentalcomply.ops import listening


def test_an_unspecified_listening_address_is_recorded_as_the_loopback(tmp_path):
    listening.record_start(tmp_path, "http://0.0.0.0:18080")
    assert listening.recorded(tmp_path)["url"] == "http://127.0.0.1:18080"
    listening.record_start(tmp_path, "http://[::]:18081")
    assert listening.recorded(tmp_path)["url"] == "http://127.0.0.1:18081"
    listening.record_start(tmp_path, "http://[::1]:18082")
    assert listening.recorded(tmp_path)["url"] == "http://[::1]:18082"


def test_a_clean_stop_keeps_the_address_and_marks_it_not_running(tmp_path):
    listening.record_start(tmp_path, "http://127.0.0.1:18080")
    assert listening.recorded(tmp_path)["running"]
    listening.record_stop(tmp_path)
    assert listening.recorded(tmp_path) == {"url": "http://127.0.0.1:18080",
                                           "pid": listening.recorded(tmp_path)["pid"],
                                           "running": False}


def test_the_recorded_address_replaces_only_a_public_url_made_from_host_and_port(tmp_path,
                                                                                 monkeypatch):
    for name in ("RENTALCOMPLY_SERVER_PUBLIC_URL", "RENTALCOMPLY_SERVER_PORT"):
        monkeypatch.delenv(name, raising=False)
    listening.record_start(tmp_path, "http://127.0.0.1:18080")
    made = listening.use_recorded_address(load_settings(tmp_path, None))
    assert made.server.public_url == "http://127.0.0.1:18080"
    monkeypatch.setenv("RENTALCOMPLY_SERVER_PUBLIC_URL", "https://rent.example.com/")
    configured = listening.use_recorded_address(load_settings(tmp_path, None))
    assert configured.server.public_url == "https://rent.example.com"


def test_no_record_and_a_damaged_one_leave_the_settings_alone(tmp_path, monkeypatch):
    monkeypatch.delenv("RENTALCOMPLY_SERVER_PUBLIC_URL", raising=False)
    monkeypatch.delenv("RENTALCOMPLY_SERVER_PORT", raising=False)
    assert listening.recorded(tmp_path) is None
    (tmp_path / listening.RECORD_FILE).write_text("not json")
    settings = listening.use_recorded_address(load_settings(tmp_path, None))
    assert settings.server.public_url == "http://127.0.0.1:8080"
