"""rentalcomply demo."""

from __future__ import annotations

import webtest

from rentalcomply.core import clock
from rentalcomply.core.db import db
from rentalcomply.web.app import create_app
from tests.cli.conftest import keys_in
from tests.cli.test_commands import open_data_dir
from tests.conftest import HTTPS_ENVIRON


def api_as(cli, key):
    app = webtest.TestApp(create_app(open_data_dir(cli)), extra_environ=dict(HTTPS_ENVIRON))
    app.authorization = ("Bearer", key)
    return app


def test_demo_seeds_properties_and_bookings_the_printed_key_can_read(cli):
    result = cli("demo")
    [key] = keys_in(result.stdout)
    assert "Demo Agency" in result.stdout and "shown once" in result.stdout
    api = api_as(cli, key)
    try:
        props = api.get("/api/v1/properties").json["data"]
        by_country = {}
        for prop in props:
            by_country.setdefault(prop["country"], []).append(prop)
        assert len(props) == 3 and len(by_country["GR"]) == 2
        assert all(p["aade_property_id"] for p in by_country["GR"])
        assert by_country["IT"][0]["police_connector"] == "alloggiati"

        bookings = api.get("/api/v1/bookings?limit=100").json["data"]
        assert len(bookings) == 10
        today = clock.today().isoformat()
        assert all(b["arrival_date"] > today for b in bookings)
        italian = by_country["IT"][0]["id"]
        for booking in bookings:
            expected = "PENDING" if booking["property_id"] == italian else "NOT_REQUIRED"
            assert booking["report_status"] == expected
    finally:
        db.close()


def test_a_second_demo_run_changes_nothing_and_prints_no_key(cli):
    first = cli("demo")
    again = cli("demo")
    assert keys_in(again.stdout) == []
    assert "exists already" in again.stdout
    accounts = cli.json("accounts", "list")["data"]
    assert [a["name"] for a in accounts] == ["Demo Agency"]
    assert len(cli.json("properties", "list")["data"]) == 3
    assert accounts[0]["id"] in first.stdout


def test_demo_makes_a_dashboard_owner_and_prints_how_to_sign_in(cli):
    from rentalcomply.dashboard.models import DashboardUser
    result = cli("demo")
    assert "/dashboard/password/" in result.stdout
    assert "sign in at" in result.stdout and "owner@demo-agency.example" in result.stdout
    try:
        user = DashboardUser.get(DashboardUser.email == "owner@demo-agency.example")
        assert user.role == "owner" and user.password_hash is None
    finally:
        db.close()
