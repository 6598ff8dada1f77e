package gather

// Sides is which of a query's two flight lists a holder is asked for: the flights out of the
// source, into the destination, or both. A search asks a seller's holder only for the sides the
// flight cache does not keep (a pair whose source earlier searches left from asks for the flights
// into its destination alone).
type Sides uint8

const (
	FromSrc   Sides = 1 << iota // flights departing from the source on the day
	ToDst                       // flights departing on the day that arrive at the destination
	BothSides = FromSrc | ToDst
)

func (s Sides) String() string {
	switch s {
	case FromSrc:
		return "from-src"
	case ToDst:
		return "to-dst"
	case BothSides:
		return "both"
	}
	return "none"
}
