# stichbuch: a static binary on a distroless base, for docker compose.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /stichbuch ./cmd/stichbuch
# The chain key's directory, owned by distroless's nonroot user, so the
# volume docker-compose.yml mounts there is writable on the first start.
RUN mkdir -p /keys && chown 65532:65532 /keys && chmod 0700 /keys

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /stichbuch /stichbuch
COPY --from=build --chown=65532:65532 /keys /keys
EXPOSE 8080
ENTRYPOINT ["/stichbuch"]
# Where to listen: docker-compose.yml sets STICHBUCH_ADDR=0.0.0.0:8080.
CMD ["serve"]
