# The tenure binary in a minimal image; docker-compose.yml runs it as the API
# (tenure serve), the worker (tenure worker) and the migration job.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/tenure ./cmd/tenure
# The blob directory exists in the image, owned by the runtime user, so a
# volume mounted there starts writable.
RUN mkdir -p /out/blobs

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/tenure /usr/local/bin/tenure
COPY --from=build --chown=65532:65532 /out/blobs /var/lib/tenure/blobs
USER nonroot:nonroot
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/tenure"]
CMD ["serve"]
