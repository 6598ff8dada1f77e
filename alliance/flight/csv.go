package flight

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// columns is the header of a flight CSV file, in the order WriteCSV writes it. ParseCSV accepts
// the columns in any order but requires each exactly once, and no others.
var columns = [...]string{"flight", "seller", "src", "dst", "departure", "arrival", "price", "seats"}

const (
	colFlight = iota
	colSeller
	colSrc
	colDst
	colDeparture
	colArrival
	colPrice
	colSeats
	numColumns
)

// ParseCSV reads a whole flight file (docs/api.md, "Flight data files"). name is used only in error
// messages, which read "name:line: field: reason". A file with any bad row yields no flights:
// the first error is returned with a nil slice. The rules: header line required; every row
// valid on its own (Flight.Validate, times RFC 3339 ending in Z); flight numbers unique; one
// seller for the whole file.
func ParseCSV(r io.Reader, name string) ([]Flight, error) {
	return parseCSV(r, name, "")
}

// parseCSV is ParseCSV that also requires every row's seller to be want, when want is not "".
func parseCSV(r io.Reader, name, want string) ([]Flight, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s:1: %w", name, fieldErrorf("header", "missing: the file is empty"))
	}
	if err != nil {
		return nil, csvError(name, err)
	}
	order, ferr := headerOrder(header)
	if ferr != nil {
		return nil, fmt.Errorf("%s:1: %w", name, ferr)
	}

	var (
		flights  []Flight
		lineOf   = map[string]int{} // flight number -> line of its first row
		seller   string
		sellerAt int
	)
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(name, err)
		}
		line, _ := cr.FieldPos(0)
		f, ferr := parseRecord(rec, order)
		if ferr != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, ferr)
		}
		if first, dup := lineOf[f.Number]; dup {
			return nil, fmt.Errorf("%s:%d: %w", name, line,
				fieldErrorf("flight", "%s repeats the flight number of line %d", f.Number, first))
		}
		lineOf[f.Number] = line
		if want != "" && f.Seller != want {
			return nil, fmt.Errorf("%s:%d: %w", name, line,
				fieldErrorf("seller", "%s is not the expected seller %s", f.Seller, want))
		}
		if seller == "" {
			seller, sellerAt = f.Seller, line
		} else if f.Seller != seller {
			return nil, fmt.Errorf("%s:%d: %w", name, line,
				fieldErrorf("seller", "%s differs from seller %s of line %d: one seller per file", f.Seller, seller, sellerAt))
		}
		flights = append(flights, f)
	}
	return flights, nil
}

// ReadSeller reads a whole flight file with ParseCSV and builds the Seller code from it. Every
// row must name that seller: a file given as LY=data/UA.csv is refused at the first row. name is
// used only in error messages.
func ReadSeller(r io.Reader, name, code string) (*Seller, error) {
	if err := CheckSeller(code); err != nil {
		return nil, fmt.Errorf("read seller from %s: %w", name, err)
	}
	flights, err := parseCSV(r, name, code)
	if err != nil {
		return nil, err
	}
	return NewSeller(code, flights)
}

// WriteCSV writes the header and one row per flight, in the given order, in the form ParseCSV
// reads back to equal flights (times in UTC, prices with two fraction digits).
func WriteCSV(w io.Writer, flights []Flight) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(columns[:]); err != nil {
		return fmt.Errorf("write flights: %w", err)
	}
	var rec [numColumns]string
	for _, f := range flights {
		if err := cw.Write(f.record(&rec)); err != nil {
			return fmt.Errorf("write flights: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write flights: %w", err)
	}
	return nil
}

// record fills rec with the canonical text form of f.
func (f Flight) record(rec *[numColumns]string) []string {
	rec[colFlight] = f.Number
	rec[colSeller] = f.Seller
	rec[colSrc] = f.Src
	rec[colDst] = f.Dst
	rec[colDeparture] = f.Departure.UTC().Format(time.RFC3339Nano)
	rec[colArrival] = f.Arrival.UTC().Format(time.RFC3339Nano)
	rec[colPrice] = f.Price.String()
	rec[colSeats] = strconv.Itoa(f.Seats)
	return rec[:]
}

// headerOrder maps each column to its position in the file's header.
func headerOrder(header []string) ([numColumns]int, *FieldError) {
	var order [numColumns]int
	for i := range order {
		order[i] = -1
	}
	for pos, h := range header {
		if pos == 0 {
			h = strings.TrimPrefix(h, "\ufeff") // spreadsheets save a byte order mark
		}
		col := -1
		for c, name := range columns {
			if h == name {
				col = c
			}
		}
		switch {
		case col < 0:
			return order, fieldErrorf("header", "unknown column %q (want %s)", h, strings.Join(columns[:], ","))
		case order[col] >= 0:
			return order, fieldErrorf("header", "column %q appears twice", h)
		}
		order[col] = pos
	}
	for c, pos := range order {
		if pos < 0 {
			return order, fieldErrorf("header", "missing column %q (want %s)", columns[c], strings.Join(columns[:], ","))
		}
	}
	return order, nil
}

func parseRecord(rec []string, order [numColumns]int) (Flight, *FieldError) {
	get := func(c int) string { return rec[order[c]] }
	var f Flight
	f.Number = get(colFlight)
	f.Seller = get(colSeller)
	f.Src = get(colSrc)
	f.Dst = get(colDst)
	var ferr *FieldError
	if f.Departure, ferr = parseInstant("departure", get(colDeparture)); ferr != nil {
		return f, ferr
	}
	if f.Arrival, ferr = parseInstant("arrival", get(colArrival)); ferr != nil {
		return f, ferr
	}
	price, err := ParseCents(get(colPrice))
	if err != nil {
		return f, err.(*FieldError)
	}
	f.Price = price
	seats := get(colSeats)
	if f.Seats, err = strconv.Atoi(seats); err != nil || !allDigits(seats) {
		return f, fieldErrorf("seats", "%q is not a non-negative integer", seats)
	}
	if err := f.Validate(); err != nil {
		return f, err.(*FieldError)
	}
	return f, nil
}

// parseInstant reads an RFC 3339 instant written in UTC ("2026-12-01T08:00:00Z").
func parseInstant(field, s string) (time.Time, *FieldError) {
	if !strings.HasSuffix(s, "Z") {
		return time.Time{}, fieldErrorf(field, "%q is not an RFC 3339 UTC instant (like 2026-12-01T08:00:00Z)", s)
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fieldErrorf(field, "%q is not an RFC 3339 UTC instant (like 2026-12-01T08:00:00Z)", s)
	}
	return t, nil
}

// csvError reports a malformed CSV record (bad quoting, wrong number of fields) by its line.
func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %w", name, pe.Line, fieldErrorf("record", "%v", pe.Err))
	}
	return fmt.Errorf("%s: read: %w", name, err)
}
