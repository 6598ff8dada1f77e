package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"flightalliance/search"
)

// bookingClient is what the booking commands share: the search server, the request timeout,
// --json, and how the server's field names map to the command's flags.
type bookingClient struct {
	server  *string
	timeout *time.Duration
	asJSON  *bool
	ca      *string
	base    string
	client  *http.Client
	flags   [][2]string // server field prefix, flag
}

// bookingFlags adds --server, --timeout, --json and --ca to fs, as flights search has them.
func bookingFlags(fs *flag.FlagSet, flags ...[2]string) *bookingClient {
	return &bookingClient{
		server:  fs.String("server", "http://127.0.0.1:8080", "search server base URL"),
		timeout: fs.Duration("timeout", 15*time.Second, "give up on the server after this long"),
		asJSON:  fs.Bool("json", false, "print the server's JSON answer as it came"),
		ca:      caFlag(fs),
		flags:   flags,
	}
}

// check validates --server, --timeout and --ca once the flags are parsed; errors name the flag.
func (c *bookingClient) check() (flagName string, err error) {
	base, err := url.Parse(*c.server)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return "--server", fmt.Errorf("%q is not an http(s) URL such as http://127.0.0.1:8080", *c.server)
	}
	if *c.timeout <= 0 {
		return "--timeout", fmt.Errorf("%s, want a positive duration", *c.timeout)
	}
	if *c.ca != "" && base.Scheme != "https" {
		return "--ca", errPlainWithCA
	}
	if c.client, err = httpClient(*c.ca); err != nil {
		return "--ca", err
	}
	c.base = strings.TrimRight(base.String(), "/")
	return "", nil
}

// do sends one request to the search server and returns the status and body of a 2xx answer.
// Anything else it reports on stderr and turns into the exit code: 1 when the server refused
// (4xx: bad input, unknown, conflict — its message, with its field named as the flag), 2 when
// it is unreachable, failed (5xx) or answered something unreadable.
func (c *bookingClient) do(method, path, key string, body []byte, stderr io.Writer) (int, []byte, int) {
	ctx, cancel := context.WithTimeout(context.Background(), *c.timeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		fmt.Fprintf(stderr, "flights: --server: %v\n", err)
		return 0, nil, exitUsage
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		fmt.Fprintf(stderr, "flights: search server unreachable: %v\n", err)
		return 0, nil, exitUnreliable
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes+1))
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "flights: reading the search server's answer: %v\n", err)
		return 0, nil, exitUnreliable
	case len(got) > maxAnswerBytes:
		fmt.Fprintf(stderr, "flights: the search server's answer is larger than %d bytes\n", maxAnswerBytes)
		return 0, nil, exitUnreliable
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return resp.StatusCode, got, exitOK
	}
	var e search.ErrorBody
	msg := strings.TrimSpace(string(got))
	if json.Unmarshal(got, &e) == nil && e.Error != "" {
		msg = e.Error
	}
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		fmt.Fprintf(stderr, "flights: refused (%s): %s\n", resp.Status, c.flagNamed(msg))
		return resp.StatusCode, nil, exitUsage
	}
	fmt.Fprintf(stderr, "flights: search server answered %s: %s\n", resp.Status, msg)
	return resp.StatusCode, nil, exitUnreliable
}

// flagNamed rewrites a server message about a field ("seats: 0, want 1 to 1000",
// "legs[1].flight: ...") as one about the flag it came from ("--seats: ...", "--legs: legs[1]...").
func (c *bookingClient) flagNamed(msg string) string {
	for _, pf := range c.flags {
		if rest, ok := strings.CutPrefix(msg, pf[0]+": "); ok {
			return pf[1] + ": " + rest
		}
		if strings.HasPrefix(msg, pf[0]+"[") {
			return pf[1] + ": " + msg
		}
	}
	return msg
}

// answer prints a 2xx body: as it came with --json, else through show. A body that is not the
// expected JSON is exit 2.
func answer[T any](c *bookingClient, body []byte, stdout, stderr io.Writer, show func(io.Writer, T)) int {
	var v T
	if err := json.Unmarshal(body, &v); err != nil {
		fmt.Fprintf(stderr, "flights: the search server's answer is not the expected JSON: %v\n", err)
		return exitUnreliable
	}
	if *c.asJSON {
		stdout.Write(body)
	} else {
		show(stdout, v)
	}
	return exitOK
}

// parseWithID parses flags that may come before or after the one positional argument, a
// booking ID (flights cancel ID --server URL, or flights cancel --server URL ID).
func parseWithID(fs *flag.FlagSet, args []string) (id string, code int, done bool) {
	var pos []string
	for {
		if code, done := parseArgs(fs, args); done {
			return "", code, true
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch {
	case len(pos) == 0:
		fmt.Fprintf(fs.Output(), "%s: missing the booking ID (such as star.k3v7q2m9x4b8n1c6d5f0g2h7jz)\n", fs.Name())
		return "", exitUsage, true
	case len(pos) > 1:
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q (one booking ID, then flags)\n", fs.Name(), pos[1])
		return "", exitUsage, true
	case pos[0] == "":
		fmt.Fprintf(fs.Output(), "%s: the booking ID is empty\n", fs.Name())
		return "", exitUsage, true
	}
	return pos[0], 0, false
}

// parseArgs is fs.Parse with the exit code of a bad flag or of --help.
func parseArgs(fs *flag.FlagSet, args []string) (code int, done bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, true
		}
		return exitUsage, true
	}
	return 0, false
}
