# Mirrors `make run`: build release with the Swift toolchain and the -dev packages, then run
# on a slim Debian with only the runtime libraries.
#
# The base images are build arguments so that the image can be built from a local mirror or
# a locally made base (Scripts/checks/50-container.sh builds on a debootstrapped Debian).
# BINARY_SOURCE names the image or stage /out/scrollstackd comes from: the build stage by
# default; the check passes an image holding the binary it built from the same copied files.
ARG BUILD_IMAGE=swift:6.3-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim
ARG BINARY_SOURCE=build

FROM ${BUILD_IMAGE} AS build
# Unpinned on purpose: Debian stable's security updates replace these exact versions.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd-dev libjansson-dev libsqlite3-dev zlib1g-dev pkg-config libharfbuzz-dev libfreetype-dev libicu-dev libpq-dev libcairo2-dev libpixman-1-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# SwiftPM checks the path of every target in Package.swift, even when it builds one product:
# copy every folder Package.swift names (Sources, Tests, Benchmarks), and Package.resolved so
# the dependencies are the pinned ones. Scripts/checks/50-container.sh builds from exactly
# these files and fails when they are not enough.
COPY Package.swift Package.resolved ./
COPY Sources ./Sources
COPY Tests ./Tests
COPY Benchmarks ./Benchmarks
COPY Scripts/build-release.sh ./Scripts/
RUN Scripts/build-release.sh /out

FROM ${BINARY_SOURCE} AS binary

FROM ${RUNTIME_IMAGE} AS runtime
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd12 libjansson4 libsqlite3-0 libharfbuzz0b libfreetype6 libicu72 libpq5 libcairo2 fonts-inter fonts-dejavu-core fonts-noto-cjk fonts-noto-color-emoji \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/apt /var/log/dpkg.log \
    && groupadd --system --gid 10001 scrollstack \
    && useradd --system --uid 10001 --gid 10001 --no-create-home --shell /usr/sbin/nologin scrollstack \
    && mkdir /data && chown 10001:10001 /data
COPY --from=binary /out/scrollstackd /usr/local/bin/scrollstackd
USER 10001:10001
VOLUME ["/data"]
EXPOSE 8080
# Every option can also come from the environment as SCROLLSTACK_<OPTION> (Docs/Operations.md); the
# command line wins. Listening on every interface, give it access tokens:
# SCROLLSTACK_TOKENS="TOKEN write,TOKEN read" or SCROLLSTACK_TOKEN_FILE=/run/secrets/tokens.
ENV SCROLLSTACK_HOST=0.0.0.0 \
    SCROLLSTACK_PORT=8080 \
    SCROLLSTACK_DATA_DIR=/data
# The health check takes the server's options as the server does (its command line, as PID 1,
# then the environment), so `--port 9000` or SCROLLSTACK_PORT=9000 stay healthy.
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 \
    CMD ["scrollstackd", "healthcheck"]
ENTRYPOINT ["scrollstackd"]
