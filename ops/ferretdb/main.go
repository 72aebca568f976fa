// Command ferretdb runs FerretDB v1.24.2 (a MongoDB-wire server) through its
// embeddable package. `go install .../cmd/ferretdb@v1.24.2` is refused by the
// module proxy's version listing, and building cmd/ferretdb from another
// module panics on its missing build/version/version.txt, so ops builds this
// small wrapper instead. Embedded FerretDB never starts its telemetry reporter.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen-addr", "127.0.0.1:27017", "TCP address to listen on")
	handler := flag.String("handler", "postgresql", "backend handler: postgresql or sqlite")
	pgURL := flag.String("postgresql-url", "postgres://postgres@127.0.0.1:5432/ferretdb", "PostgreSQL URL for the postgresql handler")
	sqliteURL := flag.String("sqlite-url", "file:data/", "SQLite directory URI for the sqlite handler")
	logLevel := flag.String("log-level", "warn", "debug, info, warn or error")
	flag.Parse()

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintln(os.Stderr, "ferretdb: bad --log-level:", err)
		os.Exit(2)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:      ferretdb.ListenerConfig{TCP: *listen},
		Logger:        logger,
		Handler:       *handler,
		PostgreSQLURL: *pgURL,
		SQLiteURL:     *sqliteURL,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "ferretdb:", err)
		os.Exit(1)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger.Info("ferretdb listening", "addr", *listen, "handler", *handler, "uri", f.MongoDBURI())
	if err := f.Run(ctx); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "ferretdb:", err)
		os.Exit(1)
	}
}
