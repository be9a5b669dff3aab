"""backup, restore and doctor."""

from __future__ import annotations

import datetime as dt
import io
import json
import sqlite3
import tarfile

import pytest

from rentalcomply.config import load_settings
from rentalcomply.ops.backup import BackupError, create_backup, restore_backup
from tests.cli.conftest import Cli, keys_in
from tests.cli.test_commands import key_works


@pytest.fixture
def initialised(cli):
    """A data directory after `init`, with a second account; returns the first key."""
    key = keys_in(cli("init").stdout)[0]
    cli("accounts", "create", "Second Agency")
    return key


def other_cli(cli, tmp_path, name="restored") -> Cli:
    return Cli(tmp_path / name, cli.env)


def write_archive(path, members: dict[str, bytes]):
    with tarfile.open(path, "w:gz") as archive:
        for name, body in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(body)
            archive.addfile(info, io.BytesIO(body))


# --- backup and restore -------------------------------------------------------------------------

def test_a_backup_restored_into_an_empty_directory_brings_back_accounts_and_keys(
        cli, initialised, tmp_path):
    archive = tmp_path / "site.tar.gz"
    assert "Backup written" in cli("backup", "--output", str(archive)).stdout
    with tarfile.open(archive) as opened:
        names = set(opened.getnames())
    assert {"manifest.json", "rentalcomply.db", "secret.key"} <= names
    assert oct(archive.stat().st_mode & 0o777) == oct(0o600)

    elsewhere = other_cli(cli, tmp_path)
    assert "Restored" in elsewhere("restore", str(archive)).stdout
    names = {a["name"] for a in elsewhere.json("accounts", "list")["data"]}
    assert names == {"default", "Second Agency"}
    assert key_works(elsewhere, initialised)
    assert "FAIL" not in elsewhere("doctor").stdout


def test_a_restore_moves_the_current_files_aside_first(cli, initialised, tmp_path):
    archive = tmp_path / "site.tar.gz"
    cli("backup", "--output", str(archive))
    cli("accounts", "create", "Made after the backup")
    result = cli("restore", str(archive))
    assert "previous files are in" in result.stdout
    names = {a["name"] for a in cli.json("accounts", "list")["data"]}
    assert "Made after the backup" not in names
    [aside] = cli.data_dir.glob("before-restore-*")
    with sqlite3.connect(aside / "rentalcomply.db") as connection:
        rows = connection.execute("SELECT name FROM account").fetchall()
    assert ("Made after the backup",) in rows


def test_backups_in_the_backup_directory_are_pruned_to_backup_keep(cli, initialised):
    settings = load_settings(cli.data_dir, env={**cli.env, "RENTALCOMPLY_BACKUP_KEEP": "2"})
    start = dt.datetime(2026, 11, 1, 3, 0, tzinfo=dt.timezone.utc)
    made = [create_backup(settings, now=start + dt.timedelta(days=i))[0] for i in range(4)]
    remaining = sorted((cli.data_dir / "backups").iterdir())
    assert remaining == made[2:]


def test_the_backup_command_writes_a_dated_file_in_the_backup_directory(cli, initialised):
    cli("backup")
    [archive] = (cli.data_dir / "backups").glob("rentalcomply-backup-*.tar.gz")
    manifest = json.load(tarfile.open(archive).extractfile("manifest.json"))
    assert manifest["secret_included"] is True
    assert "rentalcomply.db" in manifest["files"]


def test_a_backup_without_a_database_says_so(cli):
    result = cli("backup", expect=1)
    assert "no database" in result.stderr


def test_a_backup_of_a_postgresql_database_points_at_its_own_tools(cli, tmp_path):
    settings = load_settings(tmp_path, env={
        "RENTALCOMPLY_DATABASE_URL": "postgresql://x:hunter2@db.example.org:5433/z",
        "RENTALCOMPLY_SERVER_SECRET_KEY": "s" * 32})
    warnings: list[str] = []
    create_backup(settings, tmp_path / "b.tar.gz", warnings=warnings)
    [advice] = warnings
    assert "pg_dump --format=custom --file=rentalcomply.pgdump " \
           "'postgresql://x@db.example.org:5433/z'" in advice and "hunter2" not in advice


def test_restore_refuses_a_file_that_is_not_a_backup_and_changes_nothing(cli, initialised,
                                                                         tmp_path):
    bogus = tmp_path / "bogus.tar.gz"
    bogus.write_bytes(b"not a tarball")
    result = cli("restore", str(bogus), expect=1)
    assert "not a RentalComply backup" in result.stderr
    assert key_works(cli, initialised)
    assert not list(cli.data_dir.glob("before-restore-*"))


def test_restore_refuses_an_archive_with_a_path_outside_the_data_directory(cli, initialised,
                                                                         tmp_path):
    evil = tmp_path / "evil.tar.gz"
    write_archive(evil, {"manifest.json": b"{}", "rentalcomply.db": b"",
                         "../../etc/cron.d/x": b"boom"})
    result = cli("restore", str(evil), expect=1)
    assert "not a RentalComply backup" in result.stderr
    assert not (tmp_path / "etc").exists()


def test_restore_refuses_a_damaged_database_before_touching_anything(cli, initialised, tmp_path):
    damaged = tmp_path / "damaged.tar.gz"
    write_archive(damaged, {"manifest.json": b"{}", "rentalcomply.db": b"x" * 4096})
    result = cli("restore", str(damaged), expect=1)
    assert "integrity" in result.stderr
    assert key_works(cli, initialised)


def test_restore_of_a_missing_file_says_so(cli, tmp_path):
    settings = load_settings(cli.data_dir, env=dict(cli.env))
    with pytest.raises(BackupError, match="no backup file"):
        restore_backup(settings, tmp_path / "missing.tar.gz")


# --- doctor -------------------------------------------------------------------------------------

def test_doctor_passes_on_a_fresh_installation(cli, initialised):
    result = cli("doctor")
    assert "FAIL" not in result.stdout
    checks = {c["name"]: c for c in cli.json("doctor")["data"]}
    assert checks["database integrity"]["ok"] and checks["migrations"]["ok"]
    assert checks["server secret"]["ok"]


def test_doctor_is_green_on_a_fresh_installation_whose_properties_file_in_italy_and_spain(
        cli, initialised):
    """No table loaded by hand: the tables shipped with the package are the authorities' own,
    each shown with its source, date and rows."""
    account = cli.json("accounts", "create", "Agenzia")["id"]
    for country, connector, zone in (("IT", "alloggiati", "Europe/Rome"),
                                     ("ES", "ses_hospedajes", "Europe/Madrid")):
        prop = cli.json("properties", "create", "--account", account, "--name", f"Casa {country}",
                        "--address", "Centro", "--country", country, "--timezone", zone)["id"]
        cli("police", "configure", "--account", account, "--property", prop,
            "--connector", connector)
    checks = {c["name"]: c for c in cli.json("doctor", expect=None)["data"]}
    italy, spain = checks["police code tables IT"], checks["police code tables ES"]
    assert italy["ok"] and spain["ok"]
    assert "comuni 11284 rows" in italy["detail"] and "published 2025-04" in italy["detail"]
    assert "municipios 8111 rows (INE" in spain["detail"] and "published 2023" in spain["detail"]
    assert "20 of 8,131 missing" in spain["detail"]  # said, and a town it lacks is held, named


def test_doctor_fails_when_the_secret_is_missing(cli, initialised):
    (cli.data_dir / "secret.key").unlink()
    result = cli("doctor", expect=1)
    assert "FAIL  server secret" in result.stdout


def test_doctor_fails_when_the_secret_is_readable_by_others(cli, initialised):
    (cli.data_dir / "secret.key").chmod(0o644)
    assert "chmod 600" in cli("doctor", expect=1).stdout


def test_doctor_reports_pending_migrations_without_applying_them(cli):
    cli.data_dir.mkdir(parents=True)
    (cli.data_dir / "secret.key").write_text("s" * 64)
    (cli.data_dir / "secret.key").chmod(0o600)
    with sqlite3.connect(cli.data_dir / "rentalcomply.db") as connection:
        connection.execute("CREATE TABLE unrelated (a)")
    result = cli("doctor", expect=1)
    assert "pending: 0001_initial" in result.stdout
    with sqlite3.connect(cli.data_dir / "rentalcomply.db") as connection:
        tables = {r[0] for r in connection.execute("SELECT name FROM sqlite_master")}
    assert "account" not in tables


def test_doctor_fails_on_a_damaged_database(cli, initialised):
    path = cli.data_dir / "rentalcomply.db"
    for suffix in ("-wal", "-shm"):
        (cli.data_dir / f"rentalcomply.db{suffix}").unlink(missing_ok=True)
    path.write_bytes(b"garbage" * 1000)
    result = cli("doctor", expect=1)
    assert "FAIL  database integrity" in result.stdout


def test_doctor_says_what_to_do_on_an_empty_data_directory(cli):
    result = cli("doctor", expect=1)
    assert "run rentalcomply init" in result.stdout
    # Nothing was ever made here: no key to lose, so none is said to be lost.
    assert "does not exist yet: run rentalcomply init" in result.stdout
    assert "invalid" not in result.stdout


def test_doctor_says_a_lost_secret_invalidates_the_keys_once_there_is_a_database(cli,
                                                                              initialised):
    (cli.data_dir / "secret.key").unlink()
    assert "every API key is now invalid" in cli("doctor", expect=1).stdout


def test_doctor_fails_when_the_data_directory_is_open_to_others(cli, initialised):
    cli.data_dir.chmod(0o755)
    (cli.data_dir / "rentalcomply.db").chmod(0o644)
    result = cli("doctor", expect=1)
    assert "FAIL  data directory modes" in result.stdout
    assert "(0755)" in result.stdout and "rentalcomply.db (0644)" in result.stdout
    cli.data_dir.chmod(0o700)
    for path in cli.data_dir.iterdir():  # SQLite gave the -wal and -shm files the 0644 too
        path.chmod(0o600)
    assert "ok    data directory modes" in cli("doctor").stdout


def test_the_systemd_unit_runs_serve_on_this_data_directory_as_its_own_user(tmp_path):
    import shutil
    import subprocess
    from click.testing import CliRunner

    from rentalcomply.cli import main
    data_dir = tmp_path / "rc data"
    printed = CliRunner().invoke(main, ["--data-dir", str(data_dir), "systemd-unit", "--user", "rc"])
    assert printed.exit_code == 0, printed.output
    unit = printed.output
    assert f"--data-dir '{data_dir}' serve" in unit
    assert "User=rc" in unit and f"ReadWritePaths={data_dir}" in unit
    assert "WantedBy=multi-user.target" in unit
    if shutil.which("systemd-analyze"):
        path = tmp_path / "rentalcomply.service"
        path.write_text(unit.replace(f"ReadWritePaths={data_dir}", f"ReadWritePaths={tmp_path}"))
        checked = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True,
                                 text=True)
        assert checked.returncode == 0, checked.stderr


def test_doctor_names_an_smtp_server_that_does_not_answer_and_how_to_fix_it(cli, initialised):
    from tests.checkin.conftest import free_port
    result = cli("doctor", env={"RENTALCOMPLY_SMTP_PORT": str(free_port())}, expect=1)
    assert "FAIL  smtp: 127.0.0.1:" in result.stdout
    assert "set smtp.host and smtp.port" in result.stdout


def test_doctor_names_a_full_disk(cli, initialised):
    result = cli("doctor", env={"RENTALCOMPLY_DOCTOR_MIN_FREE_DISK_MB": "10000000"}, expect=1)
    assert "FAIL  free disk:" in result.stdout and "doctor.min_free_disk_mb" in result.stdout


def machine_address() -> str:
    """This machine's own non-loopback address (a public URL that is not loopback is checked)."""
    import socket
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 9))  # no packet is sent: this only picks the route
        except OSError:
            pytest.skip("this machine has no network address besides loopback")
        address = probe.getsockname()[0]
    if address.startswith("127."):
        pytest.skip("this machine has no network address besides loopback")
    return address


class TlsHealth:
    """A TLS server answering /healthz as a proxy in front of RentalComply would pass it on, with
    a certificate for this machine's address that the test makes trusted (SSL_CERT_FILE)."""

    def __init__(self, tmp_path, https_reached_server: bool):
        import datetime as dt
        import http.server
        import ipaddress
        import json
        import ssl
        import threading

        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID

        self.address = machine_address()
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, self.address)])
        now = dt.datetime.now(dt.timezone.utc)
        cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
                .public_key(key.public_key()).serial_number(x509.random_serial_number())
                .not_valid_before(now - dt.timedelta(days=1)).not_valid_after(now + dt.timedelta(days=1))
                .add_extension(x509.SubjectAlternativeName(
                    [x509.IPAddress(ipaddress.ip_address(self.address))]), critical=False)
                .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                .sign(key, hashes.SHA256()))
        self.cert_file = tmp_path / "proxy.pem"
        self.cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        key_file = tmp_path / "proxy.key"
        key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                               serialization.PrivateFormat.PKCS8,
                                               serialization.NoEncryption()))
        body = json.dumps({"status": "ok", "version": "x", "https": https_reached_server}).encode()

        class Health(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer((self.address, 0), Health)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert_file, key_file)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.url = f"https://{self.address}:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def env(self) -> dict:
        return {"RENTALCOMPLY_SERVER_PUBLIC_URL": self.url, "SSL_CERT_FILE": str(self.cert_file)}


def test_doctor_says_when_https_through_the_proxy_reaches_the_server_as_plain_http(
        cli, initialised, tmp_path):
    proxy = TlsHealth(tmp_path, https_reached_server=False)
    try:
        result = cli("doctor", env=proxy.env(), expect=1)
    finally:
        proxy.server.shutdown()
    assert "FAIL  public url:" in result.stdout
    assert "X-Forwarded-Proto: https" in result.stdout and "server.trusted_proxies" in result.stdout


def test_doctor_passes_a_public_url_that_answers_over_https(cli, initialised, tmp_path):
    proxy = TlsHealth(tmp_path, https_reached_server=True)
    try:
        result = cli("doctor", env=proxy.env())
    finally:
        proxy.server.shutdown()
    assert f"ok    public url: {proxy.url} answers over HTTPS" in result.stdout


def test_doctor_refuses_a_plain_http_public_url(cli, initialised):
    result = cli("doctor", env={"RENTALCOMPLY_SERVER_PUBLIC_URL": f"http://{machine_address()}:8080"},
                 expect=1)
    assert "FAIL  public url:" in result.stdout and "plain HTTP" in result.stdout


def test_doctor_names_a_report_stuck_generating_and_how_to_get_it_going(cli, initialised):
    [account] = [a for a in cli.json("accounts", "list")["data"] if a["name"] == "default"]
    cli("reports", "generate", "--account", account["id"], "--period", "2026-09")
    assert "ok    stuck or failing work: none" in cli("doctor").stdout
    with sqlite3.connect(cli.data_dir / "rentalcomply.db") as connection:
        connection.execute("UPDATE report SET job = 'running', updated_at = '2026-01-01 00:00:00'")
    result = cli("doctor", expect=1)
    assert "FAIL  stuck or failing work: 1 reports generating for over 30 minutes" in result.stdout
    assert "restart rentalcomply serve" in result.stdout


def test_the_scale_out_units_run_a_web_process_and_a_worker(tmp_path):
    from click.testing import CliRunner

    from rentalcomply.cli import main
    data_dir = tmp_path / "data"

    def printed(*role):
        result = CliRunner().invoke(main, ["--data-dir", str(data_dir), "systemd-unit", *role])
        assert result.exit_code == 0, result.output
        return result.output
    web, worker = printed("--role", "web"), printed("--role", "worker")
    assert f"--data-dir {data_dir} serve --no-worker\n" in web
    assert "systemctl enable --now rentalcomply-web" in web
    assert f"--data-dir {data_dir} worker\n" in worker
    assert "tee /etc/systemd/system/rentalcomply-worker.service" in worker
    assert "After=network-online.target postgresql.service redis-server.service" in worker
    assert printed() == printed("--role", "serve")


def test_a_refused_restore_into_a_missing_directory_leaves_no_directory_behind(cli, tmp_path):
    not_a_backup = tmp_path / "notes.tar.gz"
    not_a_backup.write_bytes(b"not an archive")
    target = other_cli(cli, tmp_path, "never-made")
    result = target("restore", str(not_a_backup), expect=1)
    assert "Traceback" not in result.output
    assert not target.data_dir.exists()


def test_a_refused_restore_into_an_existing_directory_leaves_it_as_it_was(cli, initialised,
                                                                          tmp_path):
    not_a_backup = tmp_path / "notes.tar.gz"
    not_a_backup.write_bytes(b"not an archive")
    def files():  # the lock file is the data directory's own, made by every server too
        return sorted(p.name for p in cli.data_dir.iterdir() if p.name != "server.lock")
    before = files()
    cli("restore", str(not_a_backup), expect=1)
    assert files() == before
    assert key_works(cli, initialised)
