"""`registry db start|stop|status|url`: the embedded PostgreSQL (unused when REGISTRY_DATABASE_URL is set)."""

from __future__ import annotations

import argparse
import sys

from registry import db
from registry.embedded import EmbeddedServer, default_data_dir

from .parsing import action, actions, command


def _server() -> EmbeddedServer:
    if db.configured_url():
        print("REGISTRY_DATABASE_URL is set; the embedded server is not used.", file=sys.stderr)
    return EmbeddedServer(default_data_dir())


def cmd_start(args: argparse.Namespace) -> None:
    print(_server().start())


def cmd_stop(args: argparse.Namespace) -> None:
    print("Stopped." if _server().stop() else "The embedded PostgreSQL was not running.")


def cmd_status(args: argparse.Namespace) -> None:
    server = _server()
    state = "running" if server.is_running() else ("stopped" if server.is_initialised() else "not created")
    print(f"{server.data_dir}: {state}")


def cmd_url(args: argparse.Namespace) -> None:
    server = _server()
    print(server.url() if server.is_initialised() else server.start())


def register(commands: argparse._SubParsersAction) -> None:
    sub = actions(command(commands, "db", "manage the embedded PostgreSQL"))
    action(sub, "start", cmd_start, "start it (created on first use) and print its URL")
    action(sub, "stop", cmd_stop, "stop it")
    action(sub, "status", cmd_status, "its data directory: running, stopped or not created")
    action(sub, "url", cmd_url, "its URL (starting it when it is not created yet)")
