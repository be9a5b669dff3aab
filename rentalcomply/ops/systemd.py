"""The systemd unit that runs the appliance on boot (`rentalcomply systemd-unit` prints it).

The unit runs the very executable that printed it (the one-file binary, or the installed script),
as a dedicated user, with the data directory as the only place it may write. Home directories are
read-only to it rather than hidden (a virtual environment under /home must stay reachable); /tmp
is private to the service, so an executable there cannot start and the unit says where to install.
The first API key is made on the admin's terminal (`init` as the service's user), never printed
into the journal, where any reader of the system log would find it. Upgrading is
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
{placement}# RentalComply{role_title} as a systemd service. Install:
#   sudo useradd --system --home-dir {data_dir} --shell /usr/sbin/nologin {user}
#   sudo install -d -o {user} -g {user} -m 0700 {data_dir}
{first_key}#   rentalcomply --data-dir {data_dir_arg} systemd-unit{role_arg} | sudo tee /etc/systemd/system/{name}.service
#   sudo systemctl daemon-reload && sudo systemctl enable --now {name}
#   sudo journalctl -u {name}    # its log: never a key or a link
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
ProtectHome=read-only
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


# role: (unit name, command, title)
ROLES = {
    "serve": ("rentalcomply", "serve", ""),
    "web": ("rentalcomply-web", "serve --no-worker", " web process"),
    "worker": ("rentalcomply-worker", "worker", " task worker"),
}

# The service has a /tmp of its own (PrivateTmp): what lies in the real one is out of its sight.
PRIVATE_DIRECTORIES = ("/tmp/", "/var/tmp/")

FIRST_KEY = """\
#   sudo -u {user} {exec_start} --data-dir {data_dir_arg} init
#       # prints the first API key and dashboard link here, once (the service never logs them);
#       # another key at any time:
#   sudo -u {user} {exec_start} --data-dir {data_dir_arg} keys create --account default --scope read --scope write
"""

MISPLACED = """\
# NOT STARTABLE AS IT IS: {exec_start} lies under {directory}, which the service cannot see
# (PrivateTmp). Install RentalComply under /opt or /usr/local (a virtual environment in
# /opt/rentalcomply, or the binary in /usr/local/bin) and print this unit again from there.
"""


IN_A_HOME = """\
# {exec_start} lies in a home directory: the service reads it there (ProtectHome=read-only), as
# long as the user {user} may enter that directory; one closed to others (mode 0750) stops it,
# and /opt or /usr/local is the usual place.
"""


def misplaced_executable(command: str) -> str | None:
    """The private directory the command lies in (where the service cannot run it), or None."""
    program = shlex.split(command)[0] if command else ""
    for directory in PRIVATE_DIRECTORIES:
        if program.startswith(directory):
            return directory.rstrip("/")
    return None


def unit(data_dir: Path, user: str = "rentalcomply", extra_args: str = "", role: str = "serve",
         exec_start: str | None = None) -> str:
    name, command, title = ROLES[role]
    exec_start = exec_start or executable()
    data_dir_arg = shlex.quote(str(data_dir))
    directory = misplaced_executable(exec_start)
    if directory:
        placement = MISPLACED.format(exec_start=exec_start, directory=directory)
    elif exec_start.startswith(("/home/", "/root/")):
        placement = IN_A_HOME.format(exec_start=exec_start, user=user)
    else:
        placement = ""
    # The scale-out roles share a database that the first machine's `init` created.
    first_key = (FIRST_KEY.format(user=user, exec_start=exec_start, data_dir_arg=data_dir_arg)
                 if role == "serve" else "")
    # A scale-out process on the database's or the queue's own host starts after them (the
    # units are ignored where they are not installed).
    after = " postgresql.service redis-server.service" if role != "serve" else ""
    return UNIT.format(user=user, data_dir=str(data_dir), data_dir_arg=data_dir_arg,
                       exec_start=exec_start, extra=(" " + extra_args) if extra_args else "",
                       command=command, name=name, role_title=title, after=after,
                       role_arg="" if role == "serve" else f" --role {role}",
                       placement=placement, first_key=first_key)
