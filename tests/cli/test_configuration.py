"""Settings reach the commands in the decided order, and a wrong one stops them with exit code 2."""

from __future__ import annotations

import pytest

from rentalcomply import server
from rentalcomply.config import SETTINGS


@pytest.fixture
def served(monkeypatch):
    """Replace the server loop: `serve` then only shows which settings it would have used."""
    seen = {}

    def fake_serve(settings, worker=True):
        seen["settings"] = settings
        seen["worker"] = worker
        return 0

    monkeypatch.setattr(server, "serve", fake_serve)
    return seen


def write_config(cli, text: str):
    cli.data_dir.mkdir(parents=True, exist_ok=True)
    path = cli.data_dir / "config.toml"
    path.write_text(text)
    return path


def test_serve_uses_the_defaults_without_any_configuration(cli, served):
    cli("serve")
    settings = served["settings"]
    assert (settings.server.host, settings.server.port, settings.server.threads) == ("127.0.0.1", 8080, 2)
    assert served["worker"] is True


def test_a_command_line_option_beats_the_environment_which_beats_the_file(cli, served):
    write_config(cli, "[server]\nport = 9001\nthreads = 2\nhost = \"127.0.0.2\"\n")
    cli("serve", "--port", "9003", env={"RENTALCOMPLY_SERVER_PORT": "9002",
                                        "RENTALCOMPLY_SERVER_THREADS": "3"})
    settings = served["settings"]
    assert settings.server.port == 9003  # command line over environment and file
    assert settings.server.threads == 3  # environment over file
    assert settings.server.host == "127.0.0.2"  # file over default


def test_serve_passes_host_threads_and_no_worker_through(cli, served):
    cli("serve", "--host", "0.0.0.0", "--threads", "8", "--no-worker")
    settings = served["settings"]
    assert (settings.server.host, settings.server.threads) == ("0.0.0.0", 8)
    assert served["worker"] is False


def test_the_data_dir_comes_from_the_environment_when_no_option_is_given(cli, served, tmp_path):
    cli("serve", global_args=[], env={"RENTALCOMPLY_DATA_DIR": str(tmp_path / "elsewhere")})
    assert served["settings"].data_dir == tmp_path / "elsewhere"


def test_a_config_file_given_with_config_is_read(cli, served, tmp_path):
    path = tmp_path / "site.toml"
    path.write_text("[rate_limit]\nper_minute = 7\n")
    cli("serve", global_args=["--data-dir", str(cli.data_dir), "--config", str(path)])
    assert served["settings"].rate_limit.per_minute == 7


def test_a_port_that_is_not_a_number_stops_start_up_naming_the_setting(cli, served):
    result = cli("serve", env={"RENTALCOMPLY_SERVER_PORT": "abc"}, expect=2)
    assert "server.port" in result.stderr
    assert "RENTALCOMPLY_SERVER_PORT" in result.stderr
    assert "'abc'" in result.stderr
    assert "Traceback" not in result.output
    assert "settings" not in served


def test_a_port_option_out_of_range_stops_start_up_naming_the_setting(cli, served):
    result = cli("serve", "--port", "70000", expect=2)
    assert "server.port" in result.stderr and "command line" in result.stderr


def test_an_unknown_setting_in_the_config_file_stops_start_up_naming_it(cli, served):
    write_config(cli, "[server]\nprot = 8080\n")
    result = cli("serve", expect=2)
    assert "unknown setting server.prot" in result.stderr
    assert "settings" not in served


def test_an_unknown_section_in_the_config_file_stops_start_up_naming_it(cli, served):
    write_config(cli, "[sever]\nport = 8080\n")
    result = cli("serve", expect=2)
    assert "unknown section [sever]" in result.stderr


def test_a_boolean_that_is_neither_true_nor_false_stops_start_up(cli, served):
    result = cli("serve", env={"RENTALCOMPLY_SERVER_ALLOW_LOOPBACK_HTTP": "yes please"}, expect=2)
    assert "server.allow_loopback_http" in result.stderr
    assert "'yes please'" in result.stderr


def test_a_boolean_of_the_wrong_type_in_the_file_stops_start_up(cli, served):
    write_config(cli, '[webhooks]\nallow_http = "yes please"\n')
    result = cli("serve", expect=2)
    assert "webhooks.allow_http" in result.stderr


def test_a_file_that_is_not_toml_stops_start_up(cli, served):
    write_config(cli, "[server\nport = 1\n")
    result = cli("serve", expect=2)
    assert "not valid TOML" in result.stderr


def test_every_command_refuses_to_run_on_a_wrong_setting(cli):
    for command in (["init"], ["accounts", "list"], ["keys", "list"], ["worker"]):
        result = cli(*command, env={"RENTALCOMPLY_RATE_LIMIT_PER_MINUTE": "lots"}, expect=2)
        assert "rate_limit.per_minute" in result.stderr, command


def test_a_secret_can_come_from_a_file_named_in_the_environment(cli, served, tmp_path):
    secret_file = tmp_path / "secret"
    secret_file.write_text("s3cret-from-a-file\n")
    cli("serve", env={"RENTALCOMPLY_SERVER_SECRET_KEY_FILE": str(secret_file)})
    assert served["settings"].server.secret_key == "s3cret-from-a-file"


def test_a_list_in_the_environment_is_comma_separated(cli, served):
    cli("serve", env={"RENTALCOMPLY_SERVER_TRUSTED_PROXIES": "10.0.0.0/8, 192.168.1.5"})
    assert served["settings"].server.trusted_proxies == ["10.0.0.0/8", "192.168.1.5"]


def test_every_setting_can_be_set_from_its_environment_variable(cli, served):
    # The defaults, written as environment strings, parse back to themselves.
    env = {}
    for setting in SETTINGS:
        value = setting.default
        env[setting.env_name] = ",".join(map(str, value)) if isinstance(value, list) else str(value)
    cli("serve", env=env)
    for setting in SETTINGS:
        if setting.dotted != "server.public_url":  # filled in from host and port when empty
            assert served["settings"].get(setting.dotted) == setting.default, setting.dotted


def test_a_public_url_that_is_not_an_address_stops_start_up_naming_the_setting(tmp_path):
    from rentalcomply.config import ConfigError, load_settings
    with pytest.raises(ConfigError, match="server.public_url"):
        load_settings(data_dir=tmp_path, env={"RENTALCOMPLY_SERVER_PUBLIC_URL": "notaurl"})
    with pytest.raises(ConfigError, match="server.host"):
        load_settings(data_dir=tmp_path, env={"RENTALCOMPLY_SERVER_HOST": " "})


def test_a_mistyped_variable_of_a_known_section_stops_start_up(tmp_path):
    from rentalcomply.config import ConfigError, load_settings
    with pytest.raises(ConfigError, match="RENTALCOMPLY_SERVER_PROT"):
        load_settings(data_dir=tmp_path, env={"RENTALCOMPLY_SERVER_PROT": "9000"})
    # Variables outside the settings' sections are none of its business.
    load_settings(data_dir=tmp_path, env={"RENTALCOMPLY_TEST_POSTGRES_URL": "x"})


def test_serve_help_tells_the_defaults_the_settings_declare(cli):
    from rentalcomply.config import SETTINGS_BY_NAME
    text = " ".join(cli("serve", "--help").stdout.split())
    assert "(server.threads; default 2)" in text
    for name in ("server.host", "server.port", "server.threads"):
        assert f"({name}; default {SETTINGS_BY_NAME[name].default})" in text
