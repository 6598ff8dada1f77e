//go:build tools

// Package tools pins dependencies that packages of this module are about to use, so that
// `go mod tidy` keeps them while the code that imports them is being written. Delete an import
// here once real code imports it.
package tools

import (
	_ "github.com/Shopify/toxiproxy/v2"
	_ "github.com/cockroachdb/datadriven"
	_ "github.com/getkin/kin-openapi/openapi3"
	_ "github.com/go-chi/chi/v5"
	_ "github.com/hashicorp/golang-lru/v2"
	_ "github.com/prometheus/client_golang/prometheus"
	_ "github.com/tiaguinho/gosoap"
	_ "go.etcd.io/etcd/client/v3"
	_ "go.etcd.io/etcd/client/v3/concurrency"
	_ "go.etcd.io/etcd/server/v3/embed"
	_ "pgregory.net/rapid"
)
