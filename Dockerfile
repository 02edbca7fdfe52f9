# The game server's image: built in one stage, run in a small one as an unprivileged user.
# docker build -t ataxx . && docker run -p 8080:8080 -p 7070:7070 -v ataxx-data:/data ataxx
# (No Docker engine ran where this file was written: it has not been built; docs/deploy.md.)
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release -p ataxx-cli && strip target/release/ataxx

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home-dir /data --create-home --shell /usr/sbin/nologin ataxx
COPY --from=build /src/target/release/ataxx /usr/local/bin/ataxx
USER ataxx
WORKDIR /data
VOLUME /data
# Orchestrators probe GET /healthz and /readyz on 8080; Prometheus scrapes 9100 (keep it private).
EXPOSE 8080 7070 9100
ENTRYPOINT ["/usr/local/bin/ataxx", "serve", "--db", "/data/ataxx.db", \
            "--http", "0.0.0.0:8080", "--text", "0.0.0.0:7070", "--metrics", "0.0.0.0:9100"]
