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
	"strconv"
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
	{"limit", "--limit"}, {"offset", "--offset"}, {"nonstop", "--nonstop"}, {"max_price", "--max-price"}, {"sort", "--sort"},
}

// searchArgs are the flags of a search that become the query's parameters.
type searchArgs struct {
	server, from, to, date, sellers string
	limit, offset                   int
	nonstop                         bool
	maxPrice, sort                  string
}

func runSearch(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("flights search", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: flights search [--server URL [--ca FILE]] --from TLV --to JFK --date 2026-12-01 [--sellers LY,UA]")
		fmt.Fprintln(fs.Output(), "                      [--nonstop] [--max-price 512.00] [--sort price|duration|departure|arrival] [--limit 20 [--offset 40]] [--json]")
		fmt.Fprintln(fs.Output(), "Prints the trips sorted by price (or --sort), the whole list or the page --limit and --offset select,")
		fmt.Fprintln(fs.Output(), "and how many trips the whole list has. Exit 0 ok, 1 bad input, 2 server unreachable or answer incomplete.")
		fs.PrintDefaults()
	}
	var a searchArgs
	fs.StringVar(&a.server, "server", "http://127.0.0.1:8080", "search server base URL")
	fs.StringVar(&a.from, "from", "", "departure airport, an IATA code such as TLV (required)")
	fs.StringVar(&a.to, "to", "", "arrival airport, an IATA code such as JFK (required)")
	fs.StringVar(&a.date, "date", "", "departure day (UTC), an ISO date such as 2026-12-01 (required)")
	fs.StringVar(&a.sellers, "sellers", "", "only trips whose every flight is sold by one of these sellers, comma-separated")
	fs.IntVar(&a.limit, "limit", 0, fmt.Sprintf("print a page of at most this many trips (1 to %d); 0 prints the whole list", search.MaxLimit))
	fs.IntVar(&a.offset, "offset", 0, "skip this many trips of the sorted list (with --limit: the page starts there)")
	fs.BoolVar(&a.nonstop, "nonstop", false, "direct flights only")
	fs.StringVar(&a.maxPrice, "max-price", "", "only trips that cost at most this, such as 512.00")
	fs.StringVar(&a.sort, "sort", "price", "order: price, duration (first departure to final arrival), departure or arrival; each then by price")
	asJSON := fs.Bool("json", false, "print the server's JSON answer as it came")
	timeout := fs.Duration("timeout", 15*time.Second, "give up on the server after this long")
	ca := caFlag(fs)
	if code, done := parseFlags(fs, args); done {
		return code
	}

	target, err := searchURL(a)
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
func searchURL(a searchArgs) (string, error) {
	server, from, to, date, sellers := a.server, a.from, a.to, a.date, a.sellers
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
	if err := controls(a, q); err != nil {
		return "", err
	}
	return strings.TrimRight(base.String(), "/") + "/Services/FlightsSearch/flight?" + q.Encode(), nil
}

// controls checks the paging and control flags and adds them to q; errors name the flag. The
// server checks them again (and names the flag's parameter, which flagNamed translates back).
func controls(a searchArgs, q url.Values) error {
	switch {
	case a.limit < 0 || a.limit > search.MaxLimit:
		return fmt.Errorf("--limit: %d, want 1 to %d (or 0 for the whole list)", a.limit, search.MaxLimit)
	case a.limit > 0:
		q.Set("limit", strconv.Itoa(a.limit))
	}
	switch {
	case a.offset < 0:
		return fmt.Errorf("--offset: %d, want 0 or more", a.offset)
	case a.offset > 0:
		q.Set("offset", strconv.Itoa(a.offset))
	}
	if a.nonstop {
		q.Set("nonstop", "true")
	}
	if a.maxPrice != "" {
		if _, err := flight.ParseCents(a.maxPrice); err != nil {
			return fmt.Errorf("--max-price: %q is not a price (a decimal with at most two fraction digits, such as 512.00)", a.maxPrice)
		}
		q.Set("max_price", a.maxPrice)
	}
	if _, err := search.ParseOrder(a.sort); err != nil {
		return fmt.Errorf("--sort: %w", err)
	}
	if a.sort != "price" {
		q.Set("sort", a.sort)
	}
	return nil
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
