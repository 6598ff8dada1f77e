// Package flight is the flight data of one seller (airline): the flight model with prices in
// integer cents and UTC dates, the CSV format of docs/api.md ("Flight data files") (parse, validate, write), the Seller store
// that indexes one seller's flights by (airport, UTC date) and pages them out for replication, and
// a deterministic generator of realistic schedules between real airports.
//
// It is pure: no clock, no network, no files, no randomness except the seeded generator, and no
// I/O except through the io.Reader or io.Writer a caller hands in (ParseCSV, ReadSeller,
// WriteCSV); files on disk are alliance/flight/flightfile's. It must not know about machines,
// placement, etcd or SOAP: the alliance moves Sellers around; this package only guarantees that
// what it holds is valid and that a Seller's Version names its content exactly.
package flight
