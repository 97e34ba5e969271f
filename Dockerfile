# Triverse's web server in a container: `triverse serve` with PostgreSQL and Redis support.
# The database, Redis and the secrets come from TRIVERSE_* environment variables
# (docs/server.md, "Configuration" and "Running with containers"); compose.yaml sets them.

# --- build: a virtual environment with Triverse and its server extras, from this source tree
FROM python:3.11-slim AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1
RUN python -m venv /opt/triverse
WORKDIR /src
# What the package build reads (pyproject names README.md and LICENSE), then the package.
COPY pyproject.toml README.md LICENSE ./
COPY src ./src
RUN /opt/triverse/bin/pip install ".[server,postgres,redis]"

# --- runtime: the environment alone, run by an unprivileged user
FROM python:3.11-slim
ENV PATH=/opt/triverse/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1
RUN groupadd --system --gid 10001 triverse \
    && useradd --system --uid 10001 --gid triverse --create-home --home-dir /home/triverse \
       --shell /usr/sbin/nologin triverse
COPY --from=build /opt/triverse /opt/triverse
USER triverse:triverse
WORKDIR /home/triverse
EXPOSE 8000
# The image has no curl: the standard library asks /api/health, and any error fails the check.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/health', timeout=4)"]
CMD ["triverse", "serve", "--host", "0.0.0.0", "--port", "8000"]
