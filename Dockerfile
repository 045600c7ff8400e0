# The tenure binary in a minimal image; docker-compose.yml runs it as the API
# (tenure serve), the worker (tenure worker) and the migration job.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/tenure ./cmd/tenure

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/tenure /usr/local/bin/tenure
USER nonroot:nonroot
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/tenure"]
CMD ["serve"]
