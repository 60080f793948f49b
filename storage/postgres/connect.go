package postgres

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// ErrSetup marks a database the server refuses until its setup or the
// connection string changes: no such database or role, a wrong password,
// a parameter the server does not know, a role that may not create the
// tables. Starting again unchanged does not help, unlike a server that is
// down or cannot be reached.
var ErrSetup = errors.New("the PostgreSQL database, role or connection string must change")

// setupError is an error of ErrSetup: what is wrong and what to do. It
// wraps the server's error, whose text it does not repeat.
type setupError struct {
	text string
	err  error
}

func (e setupError) Error() string   { return e.text }
func (e setupError) Unwrap() []error { return []error{e.err, ErrSetup} }

// createCommands is how the README creates the role and the database, for
// the advice that names them.
func createCommands(user, database string) string {
	return fmt.Sprintf("sudo -u postgres createuser --pwprompt %s, then sudo -u postgres createdb --owner %s %s", user, user, database)
}

// explainOpen words an error of the first use of a new pool at where (the
// URL as messages show it), from the role user to the database: what the
// server refuses, as an error of ErrSetup saying what to change, or that
// the server cannot be reached; other errors come back as they are.
func explainOpen(where, user, database string, err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		text := ""
		switch {
		case pe.Code == "3D000": // invalid_catalog_name
			text = fmt.Sprintf("the PostgreSQL server has no database %q: create it, owned by the bot's role (%s; the README's PostgreSQL section shows these), or correct the database name at the end of the URL",
				database, createCommands(user, database))
		case pe.Code == "28000" && strings.HasPrefix(pe.Message, "role "): // invalid_authorization_specification: role "x" does not exist
			text = fmt.Sprintf("the PostgreSQL server has no role (user) %q: create it and a database it owns (%s; the README's PostgreSQL section shows these), or correct the user in the URL",
				user, createCommands(user, database))
		case pe.Code == "28P01": // invalid_password
			text = fmt.Sprintf("the PostgreSQL server refuses the password of the role %q: correct it in the URL (postgres://%s:PASSWORD@…), or set it on the server (sudo -u postgres psql -c '\\password %s')",
				user, user, user)
		case strings.HasPrefix(pe.Code, "28"): // invalid_authorization_specification: pg_hba.conf has no entry, and the like
			text = fmt.Sprintf("the PostgreSQL server refuses the role %q: %s: let it connect from this machine (the server's pg_hba.conf), or connect as it allows", user, pe.Message)
		case pe.Code == "42704" && strings.HasPrefix(pe.Message, "unrecognized configuration parameter"): // undefined_object
			text = fmt.Sprintf("the URL sets %s, which is no PostgreSQL setting: correct its spelling or remove it (a URL's parameters are the connection's, such as sslmode and connect_timeout, or server settings, such as statement_timeout)",
				quoted(pe.Message))
		case pe.Code == "22023": // invalid_parameter_value
			text = fmt.Sprintf("the PostgreSQL server refuses a parameter of the URL: %s: correct it or remove it", pe.Message)
		case pe.Code == "42501": // insufficient_privilege
			text = fmt.Sprintf("the role %q may not use the database %q as the bot needs (%s): make it the database's owner (sudo -u postgres psql -c 'ALTER DATABASE %s OWNER TO %s'), as createdb --owner does",
				user, database, pe.Message, database, user)
		}
		if text != "" {
			return setupError{text: fmt.Sprintf("database %s: %s", where, text), err: err}
		}
		return err
	}
	var connect *pgconn.ConnectError
	if !errors.As(err, &connect) || errors.Is(err, context.Canceled) {
		return err
	}
	var op *net.OpError
	var dns *net.DNSError
	reason := ""
	switch {
	case errors.As(err, &dns):
		reason = dns.Error()
	case errors.As(err, &op):
		reason = op.Error()
	case errors.Is(err, context.DeadlineExceeded):
		reason = "no answer within connect_timeout"
	default: // TLS, say: pgx's words are the best there are
		return err
	}
	return &wordedError{text: fmt.Sprintf("database %s: the PostgreSQL server cannot be reached (%s): check that it runs, the host and port in the URL, and this machine's network, DNS and firewall",
		where, reason), err: err}
}

// quoted is the first "…" of a server's message, quotes and all, or the message.
func quoted(message string) string {
	if i := strings.IndexByte(message, '"'); i >= 0 {
		if j := strings.IndexByte(message[i+1:], '"'); j >= 0 {
			return message[i : i+j+2]
		}
	}
	return message
}

// wordedError is err in other words: errors.Is and errors.As still find
// what it wraps.
type wordedError struct {
	text string
	err  error
}

func (e *wordedError) Error() string { return e.text }
func (e *wordedError) Unwrap() error { return e.err }
