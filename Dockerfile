# stichbuch: a static binary on a distroless base, for docker compose.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /stichbuch ./cmd/stichbuch

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /stichbuch /stichbuch
EXPOSE 8080
ENTRYPOINT ["/stichbuch"]
# Where to listen: docker-compose.yml sets STICHBUCH_ADDR=0.0.0.0:8080.
CMD ["serve"]
