"""The systemd unit that runs the appliance on boot (`rentalcomply systemd-unit` prints it).

The unit runs the very executable that printed it (the one-file binary, or the installed script),
as a dedicated user, with the data directory as the only place it may write. Upgrading is
replacing the file and `systemctl restart rentalcomply`: migrations run at start.

Three roles: `serve` (the one machine: API, pages and the embedded worker), and for scale-out
`web` (`serve --no-worker`, as many as you like behind the proxy) and `worker` (the task worker).
The scale-out roles read the shared settings (database.url, queue.url, server.secret_key) from
the data directory's config.toml, the same on every machine, and wait for the network and, where
they run on the same host, for PostgreSQL and Redis.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

UNIT = """\
# RentalComply{role_title} as a systemd service. Install:
#   sudo useradd --system --home-dir {data_dir} --shell /usr/sbin/nologin {user}
#   sudo install -d -o {user} -g {user} -m 0700 {data_dir}
#   rentalcomply --data-dir {data_dir_arg} systemd-unit{role_arg} | sudo tee /etc/systemd/system/{name}.service
#   sudo systemctl daemon-reload && sudo systemctl enable --now {name}
#   sudo journalctl -u {name}{journal_note}
[Unit]
Description=RentalComply{role_title} (check-in, police filing and AADE reports)
After=network-online.target{after}
Wants=network-online.target

[Service]
Type=simple
User={user}
Group={user}
ExecStart={exec_start} --data-dir {data_dir_arg} {command}{extra}
# SIGTERM lets running requests and tasks finish; queued tasks stay queued for the next start.
KillSignal=SIGTERM
TimeoutStopSec=60
Restart=on-failure
RestartSec=5
UMask=0077
NoNewPrivileges=true
PrivateTmp=true
ProtectSystem=strict
ProtectHome=true
ReadWritePaths={data_dir}

[Install]
WantedBy=multi-user.target
"""


def executable() -> str:
    """The command that runs this program: the one-file binary itself, or the installed script."""
    if getattr(sys, "frozen", False):
        return str(Path(sys.executable).resolve())
    script = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    if script is not None and script.name == "rentalcomply" and script.is_file():
        return str(script)
    # Not resolved: a virtual environment's python is a symlink to the base interpreter, which
    # does not have the environment's packages.
    return f"{sys.executable} -m rentalcomply"


# role: (unit name, command, title, note on the first start's output)
ROLES = {
    "serve": ("rentalcomply", "serve", "", "    # the first start prints the API key and the dashboard link"),
    "web": ("rentalcomply-web", "serve --no-worker", " web process", ""),
    "worker": ("rentalcomply-worker", "worker", " task worker", ""),
}


def unit(data_dir: Path, user: str = "rentalcomply", extra_args: str = "", role: str = "serve") -> str:
    name, command, title, journal_note = ROLES[role]
    # A scale-out process on the database's or the queue's own host starts after them (the
    # units are ignored where they are not installed).
    after = " postgresql.service redis-server.service" if role != "serve" else ""
    return UNIT.format(user=user, data_dir=str(data_dir), data_dir_arg=shlex.quote(str(data_dir)),
                       exec_start=executable(), extra=(" " + extra_args) if extra_args else "",
                       command=command, name=name, role_title=title, after=after,
                       role_arg="" if role == "serve" else f" --role {role}",
                       journal_note=journal_note)
