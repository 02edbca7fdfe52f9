# The game server's image: built in one stage, run in a small one as an unprivileged user.
# docker build -t ataxx . && docker run -p 8080:8080 -p 7070:7070 -v ataxx-data:/data ataxx
# scripts/container-test.sh builds it and checks the running container (docs/deploy.md).
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p ataxx-cli && strip target/release/ataxx

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 ataxx \
    && useradd --system --uid 10001 --gid ataxx --home-dir /data --no-create-home \
        --shell /usr/sbin/nologin ataxx \
    && install -d -o ataxx -g ataxx /data
COPY --from=build /src/target/release/ataxx /usr/local/bin/ataxx
# A numeric user, so that a runtime (Kubernetes' runAsNonRoot) can see it is not root.
USER 10001:10001
WORKDIR /data
VOLUME /data
# Orchestrators probe GET /healthz and /readyz on 8080; Prometheus scrapes 9100 (keep it private).
EXPOSE 8080 7070 9100
ENTRYPOINT ["/usr/local/bin/ataxx", "serve", "--db", "/data/ataxx.db", \
            "--http", "0.0.0.0:8080", "--text", "0.0.0.0:7070", "--metrics", "0.0.0.0:9100"]
