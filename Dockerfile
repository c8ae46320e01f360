# stichbuch: a static binary on a distroless base, for docker compose.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /stichbuch ./cmd/stichbuch
# The chain key's and the backups' directories, owned by distroless's
# nonroot user, so the volumes docker-compose.yml mounts there are
# writable on the first start.
RUN mkdir -p /keys /backups && chown 65532:65532 /keys /backups && chmod 0700 /keys /backups

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /stichbuch /stichbuch
COPY --from=build --chown=65532:65532 /keys /keys
COPY --from=build --chown=65532:65532 /backups /backups
EXPOSE 8080
ENTRYPOINT ["/stichbuch"]
# Where to listen: docker-compose.yml sets STICHBUCH_ADDR=0.0.0.0:8080.
CMD ["serve"]
