"""The container files: ``Dockerfile``, ``.dockerignore``, ``compose.yaml``, ``deploy/``.

No image is built here (no Docker daemon on the test machines). ``docker compose config``
validates the compose file where the compose plugin exists (skipped, with the reason, where it
does not); everything else is checked against the code the files drive: the servers'
environment against :class:`triverse.server.config.Settings`, the image's ``CMD`` against
``triverse serve``'s own parser, and the ``CMD`` and ``HEALTHCHECK`` run as plain processes.
docs/server.md, "Running with containers", describes the files.
"""

from __future__ import annotations

import fnmatch
import inspect
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.parse
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from triverse.cli.parser import build_parser
from triverse.server.config import Settings

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "compose.yaml"
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
CADDYFILE = ROOT / "deploy" / "Caddyfile"
ENV_EXAMPLE = ROOT / "deploy" / "env.example"

SERVERS = ("triverse-1", "triverse-2")
STORES = ("postgres", "redis")
PROXY = "caddy"
SECRETS = ("POSTGRES_PASSWORD", "TRIVERSE_BOT_SECRET")
"""The variables compose.yaml must require (``${NAME:?message}``), never give a value to."""
UVICORN_ENV = {"FORWARDED_ALLOW_IPS"}
"""Environment variables that uvicorn (run by ``triverse serve``) reads itself."""
PLACEHOLDERS = {name: f"placeholder-{name.lower()}-0123456789abcdef" for name in SECRETS}

VARIABLE = re.compile(
    r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:-|:\?|-|\?)(?P<arg>[^}]*))?\}")


class MissingVariable(Exception):
    """A ``${NAME:?message}`` whose variable is unset or empty."""


def interpolate(value: Any, env: Mapping[str, str]) -> Any:
    """``value`` (compose's loaded YAML) with compose's ``${NAME}``, ``${NAME:-default}``,
    ``${NAME-default}``, ``${NAME:?message}`` and ``${NAME?message}`` replaced from ``env``."""
    if isinstance(value, dict):
        return {key: interpolate(item, env) for key, item in value.items()}
    if isinstance(value, list):
        return [interpolate(item, env) for item in value]
    if not isinstance(value, str):
        return value

    def one(match: re.Match[str]) -> str:
        name, op, arg = match["name"], match["op"], match["arg"]
        given = env.get(name)
        if op in (":?", "?") and (given is None or (op == ":?" and not given)):
            raise MissingVariable(f"{name}: {arg}")
        if op in (":-", "-") and (given is None or (op == ":-" and not given)):
            return str(arg)
        return given or ""

    return VARIABLE.sub(one, value)


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


@pytest.fixture(scope="module")
def resolved(compose: dict[str, Any]) -> dict[str, Any]:
    """The compose file with the secrets set to placeholders and the rest at its defaults."""
    result = interpolate(compose, PLACEHOLDERS)
    assert isinstance(result, dict)
    return result


def dockerfile_instructions() -> list[tuple[str, str]]:
    """``(INSTRUCTION, arguments)`` of the Dockerfile, continuation lines joined."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for line in DOCKERFILE.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        whole = pending + stripped
        pending = ""
        keyword, _, rest = whole.partition(" ")
        instructions.append((keyword.upper(), rest.strip()))
    assert not pending, "the Dockerfile ends inside a continued line"
    return instructions


def instruction(name: str) -> list[str]:
    return [rest for keyword, rest in dockerfile_instructions() if keyword == name]


def image_cmd() -> list[str]:
    (cmd,) = instruction("CMD")
    parsed = json.loads(cmd)  # the exec form: signals reach the server, no shell between
    assert isinstance(parsed, list) and all(isinstance(part, str) for part in parsed)
    return parsed


def image_healthcheck() -> list[str]:
    (check,) = instruction("HEALTHCHECK")
    options, _, command = check.partition("CMD ")
    assert all(option.startswith("--") for option in options.split()), options
    parsed = json.loads(command)
    assert isinstance(parsed, list)
    return parsed


def exposed_port() -> int:
    (port,) = instruction("EXPOSE")
    return int(port.removesuffix("/tcp"))


def caddy_proxy() -> tuple[list[str], dict[str, list[str]]]:
    """The upstreams of the Caddyfile's one ``reverse_proxy`` and its block's subdirectives."""
    lines = [re.sub(r"(^|\s)#.*$", "", line).strip()
             for line in CADDYFILE.read_text(encoding="utf-8").splitlines()]
    lines = [line for line in lines if line]
    starts = [i for i, line in enumerate(lines) if line.split()[0] == "reverse_proxy"]
    assert len(starts) == 1, starts
    head = lines[starts[0]].split()
    assert head[-1] == "{", head
    options: dict[str, list[str]] = {}
    for line in lines[starts[0] + 1:]:
        if line == "}":
            break
        words = line.split()
        options[words[0]] = words[1:]
    return head[1:-1], options


# --- compose.yaml ---------------------------------------------------------------------------

def test_compose_has_the_proxy_two_servers_and_the_stores(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert set(services) == {*STORES, *SERVERS, PROXY}
    for name in SERVERS:
        server = services[name]
        assert server["build"] == {"context": ".", "dockerfile": "Dockerfile"}
        assert (ROOT / server["build"]["context"] / server["build"]["dockerfile"]).is_file()
        assert server["image"] == services[SERVERS[0]]["image"]
        assert server["depends_on"] == {store: {"condition": "service_healthy"}
                                        for store in STORES}
        assert server["restart"] == "unless-stopped" and server["init"] is True
        assert "ports" not in server  # reached through the proxy only
    assert services[PROXY]["image"].startswith("caddy:2")
    assert set(services[PROXY]["depends_on"]) == set(SERVERS)


def test_only_the_proxy_is_published_and_the_stores_are_internal(
        resolved: dict[str, Any]) -> None:
    services, networks = resolved["services"], resolved["networks"]
    published = {name for name, service in services.items() if "ports" in service}
    assert published == {PROXY}
    assert services[PROXY]["ports"] == ["80:80"]
    assert services[PROXY]["networks"] == ["front"]
    for store in STORES:
        assert services[store]["networks"] == ["back"]
    for name in SERVERS:
        assert services[name]["networks"] == ["front", "back"]
    assert networks["back"] == {"internal": True}
    (subnet,) = [pool["subnet"] for pool in networks["front"]["ipam"]["config"]]
    for name in SERVERS:  # the servers trust X-Forwarded-For from the proxy's network only
        assert services[name]["environment"]["FORWARDED_ALLOW_IPS"] == subnet


def test_postgres_keeps_its_data_in_a_volume_and_reports_its_health(
        resolved: dict[str, Any]) -> None:
    postgres = resolved["services"]["postgres"]
    assert postgres["image"].startswith("postgres:")
    (volume,) = postgres["volumes"]
    name, _, path = volume.partition(":")
    assert name in resolved["volumes"] and path == "/var/lib/postgresql/data"
    assert postgres["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
    env = postgres["environment"]
    assert f"--username={env['POSTGRES_USER']}" in postgres["healthcheck"]["test"]
    assert f"--dbname={env['POSTGRES_DB']}" in postgres["healthcheck"]["test"]
    redis = resolved["services"]["redis"]
    assert redis["image"].startswith("redis:")
    assert redis["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]


def test_both_servers_use_one_database_and_one_redis(resolved: dict[str, Any]) -> None:
    services = resolved["services"]
    first, second = (services[name]["environment"] for name in SERVERS)
    assert first == second
    db = urllib.parse.urlsplit(first["TRIVERSE_DB_URL"])
    postgres = services["postgres"]["environment"]
    assert (db.scheme, db.hostname, db.port) == ("postgresql", "postgres", 5432)
    assert db.username == postgres["POSTGRES_USER"] and db.path == "/" + postgres["POSTGRES_DB"]
    assert db.password == PLACEHOLDERS["POSTGRES_PASSWORD"] == postgres["POSTGRES_PASSWORD"]
    for name in ("TRIVERSE_RATE_STORAGE", "TRIVERSE_REDIS_URL"):
        redis = urllib.parse.urlsplit(first[name])
        assert (redis.scheme, redis.hostname, redis.port) == ("redis", "redis", 6379)


def test_the_servers_environment_names_are_what_the_server_reads(
        compose: dict[str, Any]) -> None:
    prefix = Settings.model_config.get("env_prefix")
    assert prefix == "TRIVERSE_"
    import uvicorn.config

    uvicorn_source = inspect.getsource(uvicorn.config)
    for name in SERVERS:
        for variable in compose["services"][name]["environment"]:
            if variable.startswith(prefix):
                field = variable.removeprefix(prefix).lower()
                assert field in Settings.model_fields, variable
            else:
                assert variable in UVICORN_ENV, variable
                assert f'"{variable}"' in uvicorn_source, variable


@pytest.fixture
def compose_environment(resolved: dict[str, Any],
                        monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """This process's environment as the servers' containers have it."""
    for name in list(os.environ):
        if name.startswith("TRIVERSE_"):
            monkeypatch.delenv(name)
    env: dict[str, str] = resolved["services"][SERVERS[0]]["environment"]
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    yield env


def test_the_servers_environment_makes_valid_settings(
        compose_environment: dict[str, str]) -> None:
    settings = Settings()
    password = PLACEHOLDERS["POSTGRES_PASSWORD"]
    assert settings.db_url == f"postgresql+psycopg://triverse:{password}@postgres:5432/triverse"
    assert settings.rate_storage == "redis://redis:6379/0"
    assert settings.redis_url == "redis://redis:6379/0" and settings.clustered
    assert settings.bot_secret is not None
    assert settings.bot_secret.get_secret_value() == PLACEHOLDERS["TRIVERSE_BOT_SECRET"]


def test_secrets_are_required_and_never_written_in(compose: dict[str, Any]) -> None:
    text = COMPOSE.read_text(encoding="utf-8")
    required = set(re.findall(r"\$\{([A-Za-z_][A-Za-z0-9_]*):\?", text))
    assert required == set(SECRETS)
    assert "$$" not in text
    server_env = compose["services"][SERVERS[0]]["environment"]
    assert re.fullmatch(r"\$\{TRIVERSE_BOT_SECRET:\?[^}]+\}", server_env["TRIVERSE_BOT_SECRET"])
    postgres_env = compose["services"]["postgres"]["environment"]
    assert re.fullmatch(r"\$\{POSTGRES_PASSWORD:\?[^}]+\}", postgres_env["POSTGRES_PASSWORD"])
    for missing in SECRETS:
        env = {name: value for name, value in PLACEHOLDERS.items() if name != missing}
        for empty in ({}, {missing: ""}):
            with pytest.raises(MissingVariable, match=f"^{missing}: .*env.example"):
                interpolate(compose, {**env, **empty})


def test_the_example_environment_names_the_secrets_with_placeholders() -> None:
    values = dict(line.split("=", 1) for line in ENV_EXAMPLE.read_text(encoding="utf-8")
                  .splitlines() if line.strip() and not line.startswith("#"))
    assert set(values) == set(SECRETS)
    assert all(value.startswith("replace-with-") for value in values.values())


def docker_compose_works() -> str | None:
    """Why ``docker compose config`` cannot run here, or None when it can."""
    docker = shutil.which("docker")
    if docker is None:
        return "no docker client on this machine"
    version = subprocess.run([docker, "compose", "version"], capture_output=True, text=True,
                             timeout=60, check=False)
    if version.returncode != 0:
        reason = (version.stderr or version.stdout).strip().splitlines()
        return "docker compose is not available: " + (reason[0] if reason else "no output")
    return None


def test_docker_compose_accepts_the_file(tmp_path: Path) -> None:
    reason = docker_compose_works()
    if reason is not None:
        pytest.skip(reason)
    base = {name: value for name, value in os.environ.items() if name not in SECRETS}
    no_env_file = tmp_path / "empty.env"  # a developer's .env must not fill the secrets in
    no_env_file.write_text("", encoding="utf-8")
    command = ["docker", "compose", "--project-directory", str(ROOT), "-f", str(COMPOSE),
               "--env-file", str(no_env_file), "config", "--format", "json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False,
                          cwd=ROOT, env={**base, **PLACEHOLDERS})
    assert done.returncode == 0, done.stderr
    config = json.loads(done.stdout)
    assert set(config["services"]) == {*STORES, *SERVERS, PROXY}
    server_env = config["services"][SERVERS[0]]["environment"]
    assert PLACEHOLDERS["POSTGRES_PASSWORD"] in server_env["TRIVERSE_DB_URL"]
    refused = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False,
                             cwd=ROOT, env=base)
    assert refused.returncode != 0 and "POSTGRES_PASSWORD" in refused.stderr


# --- Dockerfile and .dockerignore -----------------------------------------------------------

def test_the_image_installs_triverse_with_its_server_extras_as_a_plain_user() -> None:
    assert [base.split()[0] for base in instruction("FROM")] == ["python:3.11-slim"] * 2
    installs = [run for run in instruction("RUN") if "pip install" in run]
    assert len(installs) == 1
    extras = re.search(r"\"\.\[([a-z,]+)\]\"", installs[0])
    assert extras is not None and extras[1].split(",") == ["server", "postgres", "redis"]
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert set(extras[1].split(",")) <= set(declared["project"]["optional-dependencies"])
    (user,) = instruction("USER")
    assert user.split(":")[0] not in ("root", "0")
    assert exposed_port() == 8000


def test_the_image_cmd_is_triverse_serve_with_options_it_has() -> None:
    cmd = image_cmd()
    assert cmd[0] == "triverse"
    args = build_parser().parse_args(cmd[1:])  # an unknown option would exit here
    assert args.command == "serve"
    assert (args.host, args.port, args.db) == ("0.0.0.0", exposed_port(), None)


def test_the_healthcheck_asks_api_health_on_the_served_port() -> None:
    check = image_healthcheck()
    assert check[:2] == ["python", "-c"]
    urls = re.findall(r"http://[^'\"]+", check[2])
    assert urls == [f"http://127.0.0.1:{exposed_port()}/api/health"]
    from triverse.server.app import create_app

    assert "/api/health" in create_app("sqlite://").openapi()["paths"]


def test_the_build_context_keeps_environments_and_secrets_out() -> None:
    patterns = [line.strip() for line in DOCKERIGNORE.read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.startswith("#")]

    def ignored(path: str) -> bool:
        return any(fnmatch.fnmatch(path, pattern.removeprefix("**/"))
                   or fnmatch.fnmatch(path, pattern) for pattern in patterns)

    for path in (".venv", ".env", ".git", "__pycache__", ".pytest_cache", ".mypy_cache",
                 "test-artifacts", "games.sqlite3", "tests", "benchmarks"):
        assert ignored(path), path
    copied = [part for copy in instruction("COPY") if not copy.startswith("--from")
              for part in copy.split()[:-1]]
    assert sorted(copied) == ["LICENSE", "README.md", "pyproject.toml", "src"]
    for path in copied:
        assert (ROOT / path).exists() and not ignored(path), path


# --- deploy/Caddyfile -----------------------------------------------------------------------

def test_the_proxy_balances_both_servers_and_checks_their_health(
        compose: dict[str, Any]) -> None:
    upstreams, options = caddy_proxy()
    assert upstreams == [f"{name}:{exposed_port()}" for name in SERVERS]
    assert options["lb_policy"] == ["least_conn"]
    assert options["health_uri"] == ["/api/health"]
    assert "header_up" not in options  # Host passes unchanged: the websocket Origin check
    mounts = compose["services"][PROXY]["volumes"]
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in mounts


# --- the image's CMD and HEALTHCHECK, run as plain processes --------------------------------

def free_port() -> int:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port: int = free.getsockname()[1]
        return port


def on_port(command: list[str], port: int) -> list[str]:
    """``command`` with the image's port swapped for ``port`` (8000 may be taken here)."""
    exposed = str(exposed_port())
    return [part.replace(f":{exposed}/", f":{port}/") if part != exposed else str(port)
            for part in command]


def run_healthcheck(port: int) -> subprocess.CompletedProcess[str]:
    check = on_port(image_healthcheck(), port)
    return subprocess.run([sys.executable, *check[1:]], capture_output=True, text=True,
                          timeout=30, check=False)


def test_the_image_cmd_serves_and_its_healthcheck_sees_it(tmp_path: Path) -> None:
    port = free_port()
    cmd = on_port(image_cmd(), port)
    env = {name: value for name, value in os.environ.items()
           if not name.startswith("TRIVERSE_")}
    env.update(TRIVERSE_DB_URL=f"sqlite:///{tmp_path / 'games.sqlite3'}",
               TRIVERSE_BOT_SECRET=PLACEHOLDERS["TRIVERSE_BOT_SECRET"],
               TRIVERSE_BOT_EXECUTOR="thread",
               TRIVERSE_BOT_WORKERS="1", FORWARDED_ALLOW_IPS="127.0.0.1",
               PYTHONPATH=str(ROOT / "src"))
    assert run_healthcheck(port).returncode != 0  # nothing serves yet: the check fails
    server = subprocess.Popen([sys.executable, "-m", "triverse.cli", *cmd[1:]], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while (check := run_healthcheck(port)).returncode != 0:
            assert server.poll() is None, server.communicate()[0]
            assert time.monotonic() < deadline, check.stderr
            time.sleep(0.2)
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0]
    # uvicorn finishes the shutdown, then ends by the signal it was stopped with, as Docker's
    # `docker stop` sends it (SIGTERM).
    assert server.returncode in (0, -signal.SIGTERM), output
    assert "Application shutdown complete" in output
    assert f"http://0.0.0.0:{port}" in output and "GET /api/health" in output
    assert run_healthcheck(port).returncode != 0  # stopped: the check fails again
