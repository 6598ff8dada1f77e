package main

import (
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

	"flightalliance/alliance/flight"
	"flightalliance/search"
)

// maxAnswerBytes bounds what the client reads from a search server.
const maxAnswerBytes = 64 << 20

// paramFlags maps the REST parameters named in a server's 400 message to the flags they came from.
var paramFlags = [...]struct{ param, flag string }{
	{"src", "--from"}, {"dst", "--to"}, {"date", "--date"}, {"servers", "--sellers"},
}

func runSearch(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("flights search", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: flights search [--server URL [--ca FILE]] --from TLV --to JFK --date 2026-12-01 [--sellers LY,UA] [--json]")
		fmt.Fprintln(fs.Output(), "Prints the trips sorted by price. Exit 0 ok, 1 bad input, 2 server unreachable or answer incomplete.")
		fs.PrintDefaults()
	}
	server := fs.String("server", "http://127.0.0.1:8080", "search server base URL")
	from := fs.String("from", "", "departure airport, an IATA code such as TLV (required)")
	to := fs.String("to", "", "arrival airport, an IATA code such as JFK (required)")
	date := fs.String("date", "", "departure day (UTC), an ISO date such as 2026-12-01 (required)")
	sellers := fs.String("sellers", "", "only trips whose every flight is sold by one of these sellers, comma-separated")
	asJSON := fs.Bool("json", false, "print the server's JSON answer as it came")
	timeout := fs.Duration("timeout", 15*time.Second, "give up on the server after this long")
	ca := caFlag(fs)
	if code, done := parseFlags(fs, args); done {
		return code
	}

	target, err := searchURL(*server, *from, *to, *date, *sellers)
	if err != nil {
		fmt.Fprintf(stderr, "flights: %v\n", err)
		return exitUsage
	}
	if *timeout <= 0 {
		return usageError(stderr, "--timeout", fmt.Errorf("%s, want a positive duration", *timeout))
	}
	if *ca != "" && !strings.HasPrefix(target, "https://") {
		return usageError(stderr, "--ca", errPlainWithCA)
	}
	client, err := httpClient(*ca)
	if err != nil {
		return usageError(stderr, "--ca", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()

	body, code := fetch(ctx, client, target, stderr)
	if code != exitOK {
		return code
	}
	var ans search.Answer
	if err := json.Unmarshal(body, &ans); err != nil {
		fmt.Fprintf(stderr, "flights: the search server's answer is not the expected JSON: %v\n", err)
		return exitUnreliable
	}
	if *asJSON {
		stdout.Write(body)
		if line := incompleteLine(ans); line != "" {
			fmt.Fprintln(stderr, line)
		}
	} else {
		writeTable(stdout, ans)
	}
	if !ans.Complete {
		return exitUnreliable
	}
	return exitOK
}

// searchURL validates the flags and builds the request URL; errors name the flag.
func searchURL(server, from, to, date, sellers string) (string, error) {
	base, err := url.Parse(server)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return "", fmt.Errorf("--server: %q is not an http(s) URL such as http://127.0.0.1:8080", server)
	}
	for _, a := range []struct{ flag, val string }{{"--from", from}, {"--to", to}} {
		if a.val == "" {
			return "", fmt.Errorf("%s: missing (an IATA airport code such as TLV)", a.flag)
		}
		if !flight.ValidIATA(a.val) {
			return "", fmt.Errorf("%s: %q is not an IATA airport code (three upper-case letters)", a.flag, a.val)
		}
	}
	if from == to {
		return "", fmt.Errorf("--to: %q is the same airport as --from", to)
	}
	if date == "" {
		return "", errors.New("--date: missing (an ISO date such as 2026-12-01)")
	}
	if _, err := flight.ParseDate(date); err != nil {
		return "", fmt.Errorf("--date: %q is not an ISO date (YYYY-MM-DD)", date)
	}
	q := url.Values{"src": {from}, "dst": {to}, "date": {date}}
	if sellers != "" {
		list, err := search.ParseSellers(sellers)
		if err != nil {
			return "", fmt.Errorf("--sellers: %w", err)
		}
		q.Set("servers", strings.Join(list, ","))
	}
	return strings.TrimRight(base.String(), "/") + "/Services/FlightsSearch/flight?" + q.Encode(), nil
}

// fetch GETs target with client and returns the body of a 200 answer, or the exit code of the failure
// (having said what it was).
func fetch(ctx context.Context, client *http.Client, target string, stderr io.Writer) ([]byte, int) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		fmt.Fprintf(stderr, "flights: --server: %v\n", err)
		return nil, exitUsage
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		fmt.Fprintf(stderr, "flights: search server unreachable: %v\n", err)
		return nil, exitUnreliable
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes+1))
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "flights: reading the search server's answer: %v\n", err)
		return nil, exitUnreliable
	case len(body) > maxAnswerBytes:
		fmt.Fprintf(stderr, "flights: the search server's answer is larger than %d bytes\n", maxAnswerBytes)
		return nil, exitUnreliable
	case resp.StatusCode == http.StatusOK:
		return body, exitOK
	}
	var e search.ErrorBody
	msg := strings.TrimSpace(string(body))
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		msg = e.Error
	}
	if resp.StatusCode == http.StatusBadRequest {
		fmt.Fprintf(stderr, "flights: the search server refused the query: %s\n", flagNamed(msg))
		return nil, exitUsage
	}
	fmt.Fprintf(stderr, "flights: search server answered %s: %s\n", resp.Status, msg)
	return nil, exitUnreliable
}

// flagNamed rewrites "src: ..." from the server as "--from: ...".
func flagNamed(msg string) string {
	for _, pf := range paramFlags {
		if rest, ok := strings.CutPrefix(msg, pf.param+": "); ok {
			return pf.flag + ": " + rest
		}
	}
	return msg
}
