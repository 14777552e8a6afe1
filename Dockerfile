# Mirrors `make run`: build release with the Swift toolchain and the -dev packages, then run
# on a slim Debian with only the runtime libraries.

FROM swift:6.3-bookworm AS build
# Unpinned on purpose: Debian stable's security updates replace these exact versions.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd-dev libjansson-dev libsqlite3-dev pkg-config libharfbuzz-dev libfreetype-dev libicu-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product scrollstackd --static-swift-stdlib \
    && install -D -m 0755 "$(swift build -c release --show-bin-path)/scrollstackd" /out/scrollstackd

FROM debian:bookworm-slim
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd12 libjansson4 libsqlite3-0 libharfbuzz0b libfreetype6 libicu72 fonts-inter fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin scrollstack \
    && mkdir /data && chown 10001 /data
COPY --from=build /out/scrollstackd /usr/local/bin/scrollstackd
USER 10001
VOLUME ["/data"]
EXPOSE 8080
# No curl in the image: bash's /dev/tcp asks /healthz.
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q '\"ok\"' <&3"]
ENTRYPOINT ["scrollstackd"]
CMD ["--host", "0.0.0.0", "--port", "8080", "--data-dir", "/data"]
