module github.com/ory/x

go 1.21

require (
	github.com/pkg/errors v0.9.1
	go.opentelemetry.io/otel v1.43.0
	go.opentelemetry.io/otel/trace v1.43.0
)
