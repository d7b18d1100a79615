# fedrender in a small image: a static musl build on a distroless base, running as a non-root
# user, with `fedrender` as the entrypoint.
#
#   docker build -t fedrender .                          # fedrender alone (about 10 MB)
#   docker build --target with-tools -t fedrender:tools . # with kubectl, kustomize and helm,
#                                                          # for fleets with kustomize or Helm sources
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/repo" -w /repo fedrender build fleet --clusters clusters.yaml --out rendered
#
# --user: the image runs as 65532, which cannot write a checkout the host's user owns.

ARG RUST_VERSION=1.95
ARG ALPINE_VERSION=3.22

FROM rust:${RUST_VERSION}-alpine${ALPINE_VERSION} AS build
# musl-dev comes from the builder image's own Alpine release, pinned by its tag.
# hadolint ignore=DL3018
RUN apk add --no-cache musl-dev
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY engine ./engine
COPY benches ./benches
RUN cargo build --profile dist --locked

# The tools that render a fleet's kustomize and Helm sources (with --allow-exec), at pinned
# versions, each checked against its publisher's SHA-256 before it is kept. Give the digests
# as build arguments to pin them too (KUBECTL_SHA256, KUSTOMIZE_SHA256, HELM_SHA256): a
# download that does not match is refused.
FROM alpine:${ALPINE_VERSION} AS tools
ARG TARGETARCH=amd64
ARG KUBECTL_VERSION=v1.34.2
ARG KUSTOMIZE_VERSION=v5.7.1
ARG HELM_VERSION=v3.19.2
ARG KUBECTL_SHA256=""
ARG KUSTOMIZE_SHA256=""
ARG HELM_SHA256=""
# curl from the image's own Alpine release, pinned by its tag.
# hadolint ignore=DL3018
RUN apk add --no-cache curl
SHELL ["/bin/ash", "-eo", "pipefail", "-c"]
WORKDIR /tools
RUN verify() { \
      file=$1 published=$2 pinned=$3; \
      actual=$(sha256sum "$file" | cut -d ' ' -f 1); \
      [ "$actual" = "$published" ] || { echo "$file: $actual is not the published $published" >&2; exit 1; }; \
      [ -z "$pinned" ] || [ "$actual" = "$pinned" ] || { echo "$file: $actual is not the pinned $pinned" >&2; exit 1; }; \
    }; \
    curl -fsSLo kubectl "https://dl.k8s.io/release/${KUBECTL_VERSION}/bin/linux/${TARGETARCH}/kubectl"; \
    verify kubectl "$(curl -fsSL "https://dl.k8s.io/release/${KUBECTL_VERSION}/bin/linux/${TARGETARCH}/kubectl.sha256")" "$KUBECTL_SHA256"; \
    kustomize="kustomize_${KUSTOMIZE_VERSION}_linux_${TARGETARCH}.tar.gz"; \
    base="https://github.com/kubernetes-sigs/kustomize/releases/download/kustomize%2F${KUSTOMIZE_VERSION}"; \
    curl -fsSLo "$kustomize" "$base/$kustomize"; \
    verify "$kustomize" "$(curl -fsSL "$base/checksums.txt" | awk -v f="$kustomize" '$2 == f { print $1 }')" "$KUSTOMIZE_SHA256"; \
    tar -xzf "$kustomize" kustomize; \
    helm="helm-${HELM_VERSION}-linux-${TARGETARCH}.tar.gz"; \
    curl -fsSLo "$helm" "https://get.helm.sh/$helm"; \
    verify "$helm" "$(curl -fsSL "https://get.helm.sh/$helm.sha256sum" | cut -d ' ' -f 1)" "$HELM_SHA256"; \
    tar -xzf "$helm" --strip-components 1 "linux-${TARGETARCH}/helm"; \
    chmod 755 kubectl kustomize helm; \
    rm -f ./*.tar.gz

FROM gcr.io/distroless/static-debian12:nonroot AS with-tools
COPY --from=build /src/target/dist/fedrender /usr/local/bin/fedrender
# Apache-2.0 §4: the license and the notice go along with every copy.
COPY LICENSE NOTICE /usr/share/doc/fedrender/
COPY --from=tools /tools/kubectl /tools/kustomize /tools/helm /usr/local/bin/
USER 65532:65532
ENTRYPOINT ["fedrender"]
CMD ["--help"]

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /src/target/dist/fedrender /usr/local/bin/fedrender
# Apache-2.0 §4: the license and the notice go along with every copy.
COPY LICENSE NOTICE /usr/share/doc/fedrender/
USER 65532:65532
ENTRYPOINT ["fedrender"]
CMD ["--help"]
